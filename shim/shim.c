/* libgpudoctor-trace.so core: environment, shared slots, per-call record.
 * Loaded into the traced program by `gpudoctor run/try --trace`
 * (LD_PRELOAD; for CUDA also CUDA_INJECTION64_PATH, cupti.c).
 * Environment (set by gpudoctor):
 *   GPUDOCTOR_TRACE_FD    the shared region's fd (trace_shm.h), optional
 *   GPUDOCTOR_TRACE_MODE  bits of GD_TRACE_M_*
 *   GPUDOCTOR_TRACE_LOG   call log path (appended; shim_log.c)
 *
 * Cost per hooked call, in-flight mode: two seqlock edges of plain stores
 * into this thread's slot (pointer, pid and tid cached in initial-exec
 * TLS, so no syscall), one CLOCK_MONOTONIC_COARSE read (vDSO, no fence;
 * resolution one kernel tick, clock_getres says 1-4 ms: enough to say
 * "stuck 30 s"). The caller is stored as a raw return address; gpudoctor
 * names its library from /proc/PID/maps when it reports. Log mode reads
 * CLOCK_MONOTONIC at both edges (durations) and formats into a
 * per-thread buffer (shim_log.c). */
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "shim.h"

struct shim_tls {
	struct gd_trace_slot_raw *slot;
	int depth;
	int no_slot;
	int tid;
	uint64_t seen_released; /* no_slot: retry once this changes */
	void *hook_pc;
};

static __thread struct shim_tls tls __attribute__((tls_model("initial-exec")));

static struct gd_trace_hdr *region;
static int mode;
static int on;	  /* region or log: record at all */
static int timed; /* log: precise timestamps at both edges */
static int my_pid;
static pthread_key_t slot_key;
static char no_slot_mark;
#define NO_SLOT ((void *)&no_slot_mark) /* key value: counted unrecorded */
static int slot_key_ok;
int shim_families = SHIM_FAM_HIP | SHIM_FAM_CUDA | SHIM_FAM_CU;

int shim_mode(void)
{
	return mode;
}

int shim_recording(void)
{
	return on;
}

void *shim_pc_set(void *pc)
{
	void *old = tls.hook_pc;

	tls.hook_pc = pc;
	return old;
}

void *shim_pc_get(void)
{
	return tls.hook_pc;
}

void *shim_real(const char *name, void **cache, void *caller_pc)
{
	void *p = __atomic_load_n(cache, __ATOMIC_ACQUIRE);

	if (!p) {
		/* not found stays uncached: the runtime may be loaded later */
		p = shim_find(name, caller_pc);
		if (p)
			__atomic_store_n(cache, p, __ATOMIC_RELEASE);
	}
	return p;
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void at_fork_child(void)
{
	/* The slot belongs to the parent's thread; this process claims its
	 * own on its next call. */
	tls.slot = NULL;
	tls.no_slot = 0;
	tls.tid = 0;
	my_pid = (int)getpid();
	shim_log_fork_child();
}

static int my_tid(void)
{
	if (!tls.tid)
		tls.tid = (int)gettid();
	return tls.tid;
}

static struct gd_trace_slot_raw *slot_at(uint64_t i)
{
	return (struct gd_trace_slot_raw *)(void *)((char *)region +
						    GD_TRACE_HDR_SIZE +
						    i * GD_TRACE_SLOT_SIZE);
}

/* A never-used slot, else one a thread that ended gave back. */
static struct gd_trace_slot_raw *take_slot(void)
{
	uint64_t i;
	uint32_t want;

	if (__atomic_load_n(&region->next_slot, __ATOMIC_RELAXED) <
	    GD_TRACE_NSLOTS) {
		i = __atomic_fetch_add(&region->next_slot, 1, __ATOMIC_ACQ_REL);
		if (i < GD_TRACE_NSLOTS)
			return slot_at(i);
	}
	for (i = 0; i < GD_TRACE_NSLOTS; i++) {
		struct gd_trace_slot_raw *s = slot_at(i);

		want = GD_TRACE_OWNER_FREE;
		if (__atomic_load_n(&s->owner, __ATOMIC_RELAXED) == want &&
		    __atomic_compare_exchange_n(
			&s->owner, &want, GD_TRACE_OWNER_LIVE, 0,
			__ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			return s;
	}
	return NULL;
}

/* Once per thread (again after a slot was given back somewhere, when
 * none was free): claim a slot and write who owns it. */
static struct gd_trace_slot_raw *claim_slot(void)
{
	struct gd_trace_slot_raw *s;
	uint64_t rel;

	if (!region)
		return NULL;
	rel = __atomic_load_n(&region->released, __ATOMIC_ACQUIRE);
	if (tls.no_slot && rel == tls.seen_released)
		return NULL;
	s = take_slot();
	if (!s) {
		if (!tls.no_slot) { /* counted while it goes unrecorded */
			__atomic_fetch_add(&region->unrecorded, 1,
					   __ATOMIC_RELAXED);
			if (slot_key_ok) /* uncounted when it ends */
				pthread_setspecific(slot_key, NO_SLOT);
		}
		tls.no_slot = 1;
		tls.seen_released = rel;
		return NULL;
	}
	if (tls.no_slot)
		__atomic_fetch_sub(&region->unrecorded, 1, __ATOMIC_RELAXED);
	tls.no_slot = 0;
	__atomic_store_n(&s->seq, s->seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	s->pid = (uint32_t)my_pid;
	s->tid = (uint32_t)my_tid();
	s->thread = (uint64_t)pthread_self();
	s->state = GD_TRACE_IDLE;
	s->calls_done = 0;
	s->last_api = GD_TRACE_API_COUNT;
	__atomic_store_n(&s->seq, s->seq + 1, __ATOMIC_RELEASE);
	__atomic_store_n(&s->owner, GD_TRACE_OWNER_LIVE, __ATOMIC_RELAXED);
	tls.slot = s;
	if (slot_key_ok)
		pthread_setspecific(slot_key, s);
	return s;
}

/* The thread ends (its key's destructor) or the process exits: the slot
 * is emptied under the seqlock (the reader skips pid 0), then offered. */
static void slot_release(void *arg)
{
	struct gd_trace_slot_raw *s = arg;

	if (arg == NO_SLOT && tls.no_slot) {
		__atomic_fetch_sub(&region->unrecorded, 1, __ATOMIC_RELAXED);
		tls.no_slot = 0;
		return;
	}
	if (!s || s != tls.slot || tls.depth)
		return; /* a forked child's copy of its parent's slot */
	__atomic_store_n(&s->seq, s->seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	s->state = GD_TRACE_IDLE;
	s->pid = 0;
	s->tid = 0;
	s->thread = 0;
	__atomic_store_n(&s->seq, s->seq + 1, __ATOMIC_RELEASE);
	tls.slot = NULL;
	__atomic_store_n(&s->owner, GD_TRACE_OWNER_FREE, __ATOMIC_RELEASE);
	__atomic_fetch_add(&region->released, 1, __ATOMIC_RELEASE);
}

/* Boehm's seqlock writer: odd, release fence, payload, even with
 * release. On x86-64 both fences are compiler barriers only. */
static inline void seq_open(struct gd_trace_slot_raw *s)
{
	__atomic_store_n(&s->seq, s->seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static inline void seq_close(struct gd_trace_slot_raw *s)
{
	__atomic_store_n(&s->seq, s->seq + 1, __ATOMIC_RELEASE);
}

void shim_enter(struct shim_call *c, unsigned api, void *caller_pc,
		uint64_t bytes, unsigned kind, const void *stream)
{
	struct gd_trace_slot_raw *s;

	c->active = !tls.depth++ && on;
	if (!c->active)
		return;
	c->api = api;
	c->bytes = bytes;
	c->kind = kind;
	c->stream = (uint64_t)(uintptr_t)stream;
	c->caller_pc = caller_pc;
	c->t0 = clock_ns(timed ? CLOCK_MONOTONIC : CLOCK_MONOTONIC_COARSE);
	s = tls.slot ? tls.slot : claim_slot();
	if (!s)
		return;
	seq_open(s);
	s->state = GD_TRACE_IN_CALL;
	s->api = api;
	s->t_enter_ns = c->t0;
	s->caller_pc = (uint64_t)(uintptr_t)caller_pc;
	s->bytes = bytes;
	s->stream = c->stream;
	s->kind = kind;
	seq_close(s);
}

void shim_exit(struct shim_call *c, int result)
{
	struct gd_trace_slot_raw *s = tls.slot;

	tls.depth--;
	if (!c->active)
		return;
	if (s) {
		seq_open(s);
		s->state = GD_TRACE_IDLE;
		s->calls_done++;
		s->last_api = c->api;
		s->last_result = result;
		seq_close(s);
	}
	if (timed) {
		uint64_t now = clock_ns(CLOCK_MONOTONIC);

		shim_log_call(c, result, now - c->t0, my_pid, my_tid(), now);
	}
}

void shim_log_rewrite(unsigned api, unsigned old_flags, unsigned new_flags)
{
	char line[160];
	int n;

	if (!shim_log_on() || api >= GD_TRACE_API_COUNT)
		return;
	n = snprintf(line, sizeof line,
		     "rewrite pid=%d tid=%d api=%s old_flags=0x%x "
		     "new_flags=0x%x\n",
		     my_pid, my_tid(), shim_api_names[api], old_flags,
		     new_flags);
	if (n > 0)
		shim_log_line(line, (size_t)n < sizeof line ? (size_t)n
							    : sizeof line - 1);
}

void shim_note(const char *msg, int warn)
{
	char line[300];
	int n;

	n = snprintf(line, sizeof line, "note pid=%d %s\n", my_pid, msg);
	if (n <= 0)
		return;
	if ((size_t)n >= sizeof line)
		n = sizeof line - 1;
	if (shim_log_on())
		shim_log_line(line, (size_t)n);
	else if (warn &&
		 (write(2, "gpudoctor-trace: ", 17) < 0 ||
		  write(2, msg, strlen(msg)) < 0 || write(2, "\n", 1) < 0))
		return; /* best effort */
}

static void map_region(const char *fd_s)
{
	struct gd_trace_hdr *h;
	struct stat st;
	char *end;
	long fd = strtol(fd_s, &end, 10);

	if (end == fd_s || *end || fd < 0 || fd > 1 << 20)
		return;
	/* A program that closed its fds may have reused the number for
	 * another file: a short one would SIGBUS on first touch. */
	if (fstat((int)fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size < (off_t)GD_TRACE_REGION_SIZE)
		return;
	h = mmap(NULL, GD_TRACE_REGION_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		 (int)fd, 0);
	if (h == MAP_FAILED)
		return;
	if (h->magic != GD_TRACE_MAGIC || h->version != GD_TRACE_VERSION ||
	    h->slot_size != GD_TRACE_SLOT_SIZE) {
		munmap(h, GD_TRACE_REGION_SIZE);
		return;
	}
	region = h;
}

static void shim_init_once(void)
{
	const char *s;

	my_pid = (int)getpid();
	s = getenv("GPUDOCTOR_TRACE_MODE");
	mode = s ? atoi(s) : GD_TRACE_M_HANG;
	s = getenv("GPUDOCTOR_TRACE_FD");
	if (s)
		map_region(s);
	s = getenv("GPUDOCTOR_TRACE_LOG");
	if (s && (mode & (GD_TRACE_M_LOG | GD_TRACE_M_REWRITE)))
		timed = shim_log_open(s) == 0;
	on = region || timed;
	slot_key_ok =
	    region && pthread_key_create(&slot_key, slot_release) == 0;
	pthread_atfork(NULL, NULL, at_fork_child);
}

/* Also called by hip_table.c: rocprofiler-register may hand us a table
 * from another library's constructor, before ours has run. */
void shim_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, shim_init_once);
}

__attribute__((constructor)) static void shim_ctor(void)
{
	shim_init();
}

__attribute__((destructor)) static void shim_fini(void)
{
	if (region)
		slot_release(tls.slot);
	shim_log_fini(my_pid);
}
