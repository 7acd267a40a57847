/* libgpudoctor-trace.so call log (--trace=log): one line per call, a
 * summary per API and the slowest calls at exit. Lines are formatted by
 * hand (snprintf cost more than the rest of the hook) into a buffer per
 * thread, written with one write(2) when it fills, when its oldest line
 * is FLUSH_NS old (checked at the next call), at thread exit and at
 * process exit. Cost: what is not yet written is lost if the program is
 * killed (SIGKILL, a crash); the in-flight slots still say what hung.
 *
 * Size: at most GPUDOCTOR_TRACE_LOG_MAX bytes of lines per process
 * (K/M/G suffixes; 0: no limit; default LOG_MAX_DEFAULT), counted as
 * buffers are written (no syscall). Past it, call lines are counted and
 * dropped whole buffers at a time; the summary still counts every call,
 * and a "truncated" line says after how many calls the log stopped. */
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "shim.h"

#define LOGBUF_SIZE 65536
#define LINE_MAX_LEN 400
#define FLUSH_NS 100000000u /* 100 ms */
#define LOG_MAX_DEFAULT (256ull << 20)

#define GD_TRACE_NAME(n) #n,
const char *const shim_api_names[] = {GD_TRACE_APIS(GD_TRACE_NAME)};
#undef GD_TRACE_NAME

struct logbuf {
	struct logbuf *next; /* every thread's buffer, for the exit flush */
	uint64_t t_first;
	size_t len;
	uint64_t lines;	  /* call lines in buf */
	uint64_t dropped; /* call lines not written: the log was full */
	void *last_pc;
	char caller[GD_TRACE_CALLER_MAX];
	/* This thread's summary (no shared atomics per call); summed over
	 * all buffers at exit. */
	uint64_t count[GD_TRACE_API_COUNT], ns[GD_TRACE_API_COUNT],
	    max[GD_TRACE_API_COUNT];
	char buf[LOGBUF_SIZE];
};

static __thread struct logbuf *my_buf
    __attribute__((tls_model("initial-exec")));
static struct logbuf *all_bufs;
static pthread_key_t buf_key;
static int log_fd = -1;
static uint64_t log_max = LOG_MAX_DEFAULT, log_bytes, calls_written;
static int log_full;

/* The slowest calls of the process, under a spin lock taken only by a
 * call slower than the current fifth. */
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

int shim_log_on(void)
{
	return log_fd >= 0;
}

static void flush(struct logbuf *b)
{
	uint64_t at;

	if (!b->len)
		return;
	at = __atomic_fetch_add(&log_bytes, b->len, __ATOMIC_RELAXED);
	if (log_max && at + b->len > log_max) {
		__atomic_store_n(&log_full, 1, __ATOMIC_RELAXED);
		b->dropped += b->lines;
	} else if (write(log_fd, b->buf, b->len) == (ssize_t)b->len) {
		__atomic_fetch_add(&calls_written, b->lines, __ATOMIC_RELAXED);
	} else {
		b->dropped += b->lines; /* the log is best effort */
	}
	b->len = 0;
	b->lines = 0;
}

/* "64M" -> bytes; -1 when not a size. */
static int64_t parse_size(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	int shift = 0;

	if (end == s || s[0] == '-')
		return -1;
	if (*end == 'K' || *end == 'k')
		shift = 10, end++;
	else if (*end == 'M' || *end == 'm')
		shift = 20, end++;
	else if (*end == 'G' || *end == 'g')
		shift = 30, end++;
	if (*end || v > (1ull << 40) >> shift)
		return -1;
	return (int64_t)(v << shift);
}

static void thread_gone(void *p)
{
	flush(p);
	/* The buffer stays on all_bufs (empty): unlinking would race the
	 * exit flush; a thread's 16 KiB is the price. */
}

int shim_log_open(const char *path)
{
	const char *max = getenv("GPUDOCTOR_TRACE_LOG_MAX");

	if (max && max[0] && parse_size(max) >= 0)
		log_max = (uint64_t)parse_size(max);
	log_fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (log_fd < 0)
		return -1;
	if (pthread_key_create(&buf_key, thread_gone) != 0) {
		close(log_fd);
		log_fd = -1;
		return -1;
	}
	return 0;
}

static struct logbuf *get_buf(void)
{
	struct logbuf *b = my_buf;

	if (b)
		return b;
	b = calloc(1, sizeof *b);
	if (!b)
		return NULL;
	b->next = __atomic_load_n(&all_bufs, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&all_bufs, &b->next, b, 1,
					    __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		;
	pthread_setspecific(buf_key, b);
	my_buf = b;
	return b;
}

void shim_log_line(const char *line, size_t n)
{
	struct logbuf *b = get_buf();

	if (!b) {
		if (write(log_fd, line, n) < 0)
			return;
		return;
	}
	if (b->len + n > sizeof b->buf)
		flush(b);
	memcpy(b->buf + b->len, line, n < sizeof b->buf ? n : sizeof b->buf);
	b->len += n < sizeof b->buf ? n : sizeof b->buf;
}

void shim_log_fork_child(void)
{
	/* The buffers' lines and sums are the parent's: it writes them. */
	for (struct logbuf *b = all_bufs; b; b = b->next) {
		b->len = 0;
		b->lines = 0;
		b->dropped = 0;
		memset(b->count, 0, sizeof b->count);
		memset(b->ns, 0, sizeof b->ns);
		memset(b->max, 0, sizeof b->max);
	}
	memset(slowest, 0, sizeof slowest);
	calls_written = 0;
	slowest_min = 0;
	slowest_lock = 0;
}

/* The calling library's basename, looked up only when the call site
 * changes (dladdr takes the loader's lock). */
static const char *caller_name(struct logbuf *b, void *pc)
{
	Dl_info di;
	const char *base;

	if (pc == b->last_pc)
		return b->caller;
	b->last_pc = pc;
	b->caller[0] = '\0';
	if (!pc || !dladdr(pc, &di) || !di.dli_fname)
		return b->caller;
	base = strrchr(di.dli_fname, '/');
	base = base ? base + 1 : di.dli_fname;
	snprintf(b->caller, sizeof b->caller, "%s",
		 base[0] ? base : "(main program)");
	return b->caller;
}

/* Hand formatting: append to p, never past end. */
static char *put_s(char *p, const char *end, const char *s)
{
	while (*s && p < end)
		*p++ = *s++;
	return p;
}

static char *put_u(char *p, const char *end, uint64_t v, unsigned base)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	while (n && p < end)
		*p++ = tmp[--n];
	return p;
}

static char *put_i(char *p, const char *end, int v)
{
	if (v < 0 && p < end) {
		*p++ = '-';
		return put_u(p, end, (uint64_t)0 - (uint64_t)(int64_t)v, 10);
	}
	return put_u(p, end, (uint64_t)v, 10);
}

static void summarize(struct logbuf *b, const struct shim_call *c, int result,
		      uint64_t dur, int tid, const char *caller)
{
	size_t lo = 0;

	b->count[c->api]++;
	b->ns[c->api] += dur;
	if (dur > b->max[c->api])
		b->max[c->api] = dur;
	if (dur <= __atomic_load_n(&slowest_min, __ATOMIC_RELAXED))
		return;
	while (__atomic_exchange_n(&slowest_lock, 1, __ATOMIC_ACQUIRE))
		;
	for (size_t i = 1; i < SLOWEST; i++)
		if (slowest[i].dur < slowest[lo].dur)
			lo = i;
	if (dur > slowest[lo].dur) {
		slowest[lo] = (struct slow_call){dur, c->bytes, c->api, c->kind,
						 tid, result,	""};
		snprintf(slowest[lo].caller, sizeof slowest[lo].caller, "%s",
			 caller);
		slowest_min = slowest[0].dur;
		for (size_t i = 1; i < SLOWEST; i++)
			if (slowest[i].dur < slowest_min)
				slowest_min = slowest[i].dur;
	}
	__atomic_store_n(&slowest_lock, 0, __ATOMIC_RELEASE);
}

void shim_log_call(const struct shim_call *c, int result, uint64_t dur, int pid,
		   int tid, uint64_t now)
{
	struct logbuf *b = get_buf();
	char line[LINE_MAX_LEN], *p = line;
	const char *end = line + sizeof line - 1, *caller;

	if (!b)
		return;
	caller = caller_name(b, c->caller_pc);
	summarize(b, c, result, dur, tid, caller);
	if (__atomic_load_n(&log_full, __ATOMIC_RELAXED)) {
		b->dropped++;
		return;
	}
	p = put_s(p, end, "call pid=");
	p = put_i(p, end, pid);
	p = put_s(p, end, " tid=");
	p = put_i(p, end, tid);
	p = put_s(p, end, " api=");
	p = put_s(p, end, shim_api_names[c->api]);
	p = put_s(p, end, " dur_ns=");
	p = put_u(p, end, dur, 10);
	p = put_s(p, end, " result=");
	p = put_i(p, end, result);
	p = put_s(p, end, " bytes=");
	p = put_u(p, end, c->bytes, 10);
	p = put_s(p, end, " kind=0x");
	p = put_u(p, end, c->kind, 16);
	p = put_s(p, end, " stream=0x");
	p = put_u(p, end, c->stream, 16);
	p = put_s(p, end, " caller=");
	p = put_s(p, end, caller[0] ? caller : "?");
	*p++ = '\n';
	if (!b->len)
		b->t_first = now;
	shim_log_line(line, (size_t)(p - line));
	b->lines++;
	if (now - b->t_first >= FLUSH_NS)
		flush(b);
}

static void write_line(const char *line, size_t cap, int n)
{
	if (n > 0 && (size_t)n >= cap)
		n = (int)cap - 1;
	if (n > 0 && write(log_fd, line, (size_t)n) < 0)
		return; /* best effort */
}

void shim_log_fini(int pid)
{
	static uint64_t sum_count[GD_TRACE_API_COUNT],
	    sum_ns[GD_TRACE_API_COUNT], sum_max[GD_TRACE_API_COUNT];
	char line[240];
	uint64_t dropped = 0;

	if (log_fd < 0)
		return;
	for (struct logbuf *b = __atomic_load_n(&all_bufs, __ATOMIC_ACQUIRE); b;
	     b = b->next) {
		flush(b);
		dropped += b->dropped;
		for (unsigned i = 0; i < GD_TRACE_API_COUNT; i++) {
			sum_count[i] += b->count[i];
			sum_ns[i] += b->ns[i];
			if (b->max[i] > sum_max[i])
				sum_max[i] = b->max[i];
		}
	}
	if (dropped)
		write_line(line, sizeof line,
			   snprintf(line, sizeof line,
				    "truncated pid=%d log truncated after %llu "
				    "calls: %llu later calls not written "
				    "(GPUDOCTOR_TRACE_LOG_MAX=%llu bytes); the "
				    "summary counts every call\n",
				    pid, (unsigned long long)calls_written,
				    (unsigned long long)dropped,
				    (unsigned long long)log_max));
	for (unsigned i = 0; i < GD_TRACE_API_COUNT; i++)
		if (sum_count[i])
			write_line(line, sizeof line,
				   snprintf(line, sizeof line,
					    "summary pid=%d api=%s calls=%llu "
					    "total_ns=%llu max_ns=%llu\n",
					    pid, shim_api_names[i],
					    (unsigned long long)sum_count[i],
					    (unsigned long long)sum_ns[i],
					    (unsigned long long)sum_max[i]));
	for (size_t i = 0; i < SLOWEST; i++) {
		const struct slow_call *sc = &slowest[i];

		if (sc->dur)
			write_line(
			    line, sizeof line,
			    snprintf(line, sizeof line,
				     "slowest pid=%d tid=%d api=%s dur_ns=%llu "
				     "result=%d bytes=%llu kind=0x%x "
				     "caller=%s\n",
				     pid, sc->tid, shim_api_names[sc->api],
				     (unsigned long long)sc->dur, sc->result,
				     (unsigned long long)sc->bytes, sc->kind,
				     sc->caller[0] ? sc->caller : "?"));
	}
}
