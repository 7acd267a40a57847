/* libgpudoctor-trace.so core: environment, shared slots, call log and
 * summary. Loaded into the traced program by `gpudoctor run/try --trace`
 * (LD_PRELOAD). Environment (set by gpudoctor):
 *   GPUDOCTOR_TRACE_FD    the shared region's fd (trace_shm.h), optional
 *   GPUDOCTOR_TRACE_MODE  bits of GD_TRACE_M_*
 *   GPUDOCTOR_TRACE_LOG   call log path (appended; one line per call)
 * Cost per hooked call: a TLS lookup, two seqlock edges and two
 * clock_gettime calls; log mode adds a formatted write(2). */
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
	void *last_pc;
	char caller[GD_TRACE_CALLER_MAX];
};

static __thread struct shim_tls tls __attribute__((tls_model("initial-exec")));

static struct gd_trace_hdr *region;
static int mode;
static int log_fd = -1;

/* Summary (log mode): per API count, total and max duration; slowest. */
static uint64_t sum_count[GD_TRACE_API_COUNT], sum_ns[GD_TRACE_API_COUNT],
    sum_max[GD_TRACE_API_COUNT];

/* The slowest calls of this process (log mode), under a spin lock taken
 * only by a call slower than the current fifth. */
#define SLOWEST 5
struct slow_call {
	uint64_t dur, bytes;
	unsigned api, kind;
	int tid, result;
	char caller[GD_TRACE_CALLER_MAX];
};
static struct slow_call slowest[SLOWEST];
static uint64_t slowest_min;
static int slowest_lock;

#define GD_TRACE_NAME(n) #n,
static const char *const api_names[] = {GD_TRACE_APIS(GD_TRACE_NAME)};
#undef GD_TRACE_NAME

int shim_mode(void)
{
	return mode;
}

void *shim_real(const char *name, void **cache)
{
	void *p = __atomic_load_n(cache, __ATOMIC_ACQUIRE);

	if (!p) {
		p = dlsym(RTLD_NEXT, name);
		__atomic_store_n(cache, p, __ATOMIC_RELEASE);
	}
	return p;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void at_fork_child(void)
{
	/* The slot belongs to the parent's thread; this process claims its
	 * own on its next call. */
	tls.slot = NULL;
	tls.no_slot = 0;
}

static struct gd_trace_slot_raw *my_slot(void)
{
	uint64_t i;

	if (tls.slot || tls.no_slot || !region)
		return tls.slot;
	i = __atomic_fetch_add(&region->next_slot, 1, __ATOMIC_ACQ_REL);
	if (i >= GD_TRACE_NSLOTS) {
		tls.no_slot = 1; /* full: this thread goes unrecorded */
		return NULL;
	}
	tls.slot = (struct gd_trace_slot_raw *)(void *)((char *)region +
							GD_TRACE_HDR_SIZE +
							i * GD_TRACE_SLOT_SIZE);
	tls.slot->last_api = GD_TRACE_API_COUNT;
	return tls.slot;
}

/* The calling library's basename, looked up only when the call site
 * changes (dladdr takes the loader's lock). */
static void caller_name(void *pc)
{
	Dl_info di;
	const char *b;

	if (pc == tls.last_pc)
		return;
	tls.last_pc = pc;
	tls.caller[0] = '\0';
	if (!dladdr(pc, &di) || !di.dli_fname)
		return;
	b = strrchr(di.dli_fname, '/');
	b = b ? b + 1 : di.dli_fname;
	snprintf(tls.caller, sizeof tls.caller, "%s",
		 b[0] ? b : "(main program)");
}

static void seq_open(struct gd_trace_slot_raw *s)
{
	__atomic_store_n(&s->seq, s->seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static void seq_close(struct gd_trace_slot_raw *s)
{
	__atomic_store_n(&s->seq, s->seq + 1, __ATOMIC_RELEASE);
}

void shim_enter(struct shim_call *c, unsigned api, void *caller_pc,
		uint64_t bytes, unsigned kind, const void *stream)
{
	struct gd_trace_slot_raw *s;

	c->active = !tls.depth++ && (region || log_fd >= 0);
	if (!c->active)
		return;
	c->api = api;
	c->bytes = bytes;
	c->kind = kind;
	c->stream = (uint64_t)(uintptr_t)stream;
	c->caller_pc = caller_pc;
	caller_name(caller_pc);
	c->t0 = now_ns();
	s = my_slot();
	if (!s)
		return;
	seq_open(s);
	s->pid = (uint32_t)getpid();
	s->tid = (uint32_t)gettid();
	s->state = GD_TRACE_IN_CALL;
	s->api = api;
	s->t_enter_ns = c->t0;
	s->caller_pc = (uint64_t)(uintptr_t)caller_pc;
	s->bytes = bytes;
	s->stream = c->stream;
	s->kind = kind;
	memcpy(s->caller, tls.caller, sizeof s->caller);
	seq_close(s);
}

static void note_slow(const struct shim_call *c, int result, uint64_t dur)
{
	size_t lo = 0;

	if (dur <= __atomic_load_n(&slowest_min, __ATOMIC_RELAXED))
		return;
	while (__atomic_exchange_n(&slowest_lock, 1, __ATOMIC_ACQUIRE))
		;
	for (size_t i = 1; i < SLOWEST; i++)
		if (slowest[i].dur < slowest[lo].dur)
			lo = i;
	if (dur > slowest[lo].dur) {
		slowest[lo] = (struct slow_call){
		    dur, c->bytes, c->api, c->kind, (int)gettid(), result, ""};
		memcpy(slowest[lo].caller, tls.caller, sizeof tls.caller);
		slowest_min = slowest[0].dur;
		for (size_t i = 1; i < SLOWEST; i++)
			if (slowest[i].dur < slowest_min)
				slowest_min = slowest[i].dur;
	}
	__atomic_store_n(&slowest_lock, 0, __ATOMIC_RELEASE);
}

static void log_call(const struct shim_call *c, int result, uint64_t dur)
{
	char line[320];
	int n;

	n = snprintf(line, sizeof line,
		     "call pid=%d tid=%d api=%s dur_ns=%llu result=%d "
		     "bytes=%llu kind=0x%x stream=0x%llx caller=%s\n",
		     (int)getpid(), (int)gettid(), api_names[c->api],
		     (unsigned long long)dur, result,
		     (unsigned long long)c->bytes, c->kind,
		     (unsigned long long)c->stream,
		     tls.caller[0] ? tls.caller : "?");
	if (n > 0 && write(log_fd, line, (size_t)n) < 0)
		return; /* the log is best effort */
}

void shim_exit(struct shim_call *c, int result)
{
	struct gd_trace_slot_raw *s = tls.slot;
	uint64_t dur;

	tls.depth--;
	if (!c->active)
		return;
	dur = now_ns() - c->t0;
	if (s) {
		seq_open(s);
		s->state = GD_TRACE_IDLE;
		s->calls_done++;
		s->last_api = c->api;
		s->last_result = result;
		seq_close(s);
	}
	if (log_fd < 0)
		return;
	__atomic_fetch_add(&sum_count[c->api], 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&sum_ns[c->api], dur, __ATOMIC_RELAXED);
	for (uint64_t m = __atomic_load_n(&sum_max[c->api], __ATOMIC_RELAXED);
	     dur > m &&
	     !__atomic_compare_exchange_n(&sum_max[c->api], &m, dur, 0,
					  __ATOMIC_RELAXED, __ATOMIC_RELAXED);)
		;
	note_slow(c, result, dur);
	log_call(c, result, dur);
}

void shim_log_rewrite(unsigned api, unsigned old_flags, unsigned new_flags)
{
	char line[160];
	int n;

	if (log_fd < 0 || api >= GD_TRACE_API_COUNT)
		return;
	n = snprintf(line, sizeof line,
		     "rewrite pid=%d tid=%d api=%s old_flags=0x%x "
		     "new_flags=0x%x\n",
		     (int)getpid(), (int)gettid(), api_names[api], old_flags,
		     new_flags);
	if (n > 0 && write(log_fd, line, (size_t)n) < 0)
		return;
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

__attribute__((constructor)) static void shim_init(void)
{
	const char *s;

	s = getenv("GPUDOCTOR_TRACE_MODE");
	mode = s ? atoi(s) : GD_TRACE_M_HANG;
	s = getenv("GPUDOCTOR_TRACE_FD");
	if (s)
		map_region(s);
	s = getenv("GPUDOCTOR_TRACE_LOG");
	if (s && (mode & (GD_TRACE_M_LOG | GD_TRACE_M_REWRITE)))
		log_fd =
		    open(s, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	pthread_atfork(NULL, NULL, at_fork_child);
}

__attribute__((destructor)) static void shim_fini(void)
{
	char line[200];
	int n;

	if (log_fd < 0)
		return;
	for (unsigned i = 0; i < GD_TRACE_API_COUNT; i++) {
		if (!sum_count[i])
			continue;
		n = snprintf(line, sizeof line,
			     "summary pid=%d api=%s calls=%llu total_ns=%llu "
			     "max_ns=%llu\n",
			     (int)getpid(), api_names[i],
			     (unsigned long long)sum_count[i],
			     (unsigned long long)sum_ns[i],
			     (unsigned long long)sum_max[i]);
		if (n > 0 && write(log_fd, line, (size_t)n) < 0)
			return;
	}
	for (size_t i = 0; i < SLOWEST; i++) {
		const struct slow_call *sc = &slowest[i];

		if (!sc->dur)
			continue;
		n = snprintf(
		    line, sizeof line,
		    "slowest pid=%d tid=%d api=%s dur_ns=%llu result=%d "
		    "bytes=%llu kind=0x%x caller=%s\n",
		    (int)getpid(), sc->tid, api_names[sc->api],
		    (unsigned long long)sc->dur, sc->result,
		    (unsigned long long)sc->bytes, sc->kind,
		    sc->caller[0] ? sc->caller : "?");
		if (n > 0 && write(log_fd, line, (size_t)n) < 0)
			return;
	}
}
