/* probe/trace_slot: decode and copy in-flight slots (see trace.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/util.h"
#include "probe/trace.h"

#define GD_TRACE_NAME(n) #n,
static const char *const api_names[] = {GD_TRACE_APIS(GD_TRACE_NAME)};
#undef GD_TRACE_NAME

const char *gd_trace_api_name(unsigned api)
{
	return api < GD_TRACE_API_COUNT ? api_names[api] : "?";
}

enum gd_slot_status gd_trace_slot_decode(const void *snap, size_t n,
					 uint64_t seq_after,
					 struct gd_trace_call *out)
{
	struct gd_trace_slot_raw s;

	memset(out, 0, sizeof *out);
	if (n != sizeof s)
		return GD_SLOT_BAD;
	memcpy(&s, snap, sizeof s);
	if (s.seq == 0 && seq_after == 0)
		return GD_SLOT_EMPTY;
	if ((s.seq & 1) || s.seq != seq_after)
		return GD_SLOT_TORN;
	if (!s.pid && !s.tid && s.state == GD_TRACE_IDLE)
		return GD_SLOT_EMPTY; /* given back by a thread that ended */
	if (!s.pid || !s.tid || s.pid > INT32_MAX || s.tid > INT32_MAX ||
	    s.state > GD_TRACE_IN_CALL || s.api >= GD_TRACE_API_COUNT ||
	    s.last_api > GD_TRACE_API_COUNT ||
	    !memchr(s.caller, '\0', sizeof s.caller))
		return GD_SLOT_BAD;
	out->pid = (int)s.pid;
	out->tid = (int)s.tid;
	out->in_call = s.state == GD_TRACE_IN_CALL;
	out->api = s.api;
	out->last_api = s.last_api;
	out->kind = s.kind;
	out->last_result = s.last_result;
	out->t_enter_ns = s.t_enter_ns;
	out->bytes = s.bytes;
	out->stream = s.stream;
	out->calls_done = s.calls_done;
	out->caller_pc = s.caller_pc;
	out->thread = s.thread;
	memcpy(out->caller, s.caller, sizeof s.caller);
	gd_sanitize(out->caller);
	return GD_SLOT_OK;
}

static int is_copy(unsigned api)
{
	return (api >= GD_TRACE_API_hipMemcpy &&
		api <= GD_TRACE_API_hipMemcpyWithStream) ||
	       api == GD_TRACE_API_cudaMemcpy ||
	       api == GD_TRACE_API_cudaMemcpyAsync ||
	       api == GD_TRACE_API_cudaMemcpyAsync_ptsz ||
	       (api >= GD_TRACE_API_cuMemcpyHtoD &&
		api <= GD_TRACE_API_cuMemcpyAsync);
}

static int is_alloc(unsigned api)
{
	return (api >= GD_TRACE_API_hipMalloc &&
		api <= GD_TRACE_API_hipMallocManaged) ||
	       api == GD_TRACE_API_cudaMalloc ||
	       api == GD_TRACE_API_cudaMallocHost ||
	       api == GD_TRACE_API_cudaHostAlloc ||
	       api == GD_TRACE_API_cuMemAlloc;
}

/* Runtime start and enumeration: the kind holds the device index. */
static int is_device(unsigned api)
{
	return api >= GD_TRACE_API_hipGetDeviceCount &&
	       api <= GD_TRACE_API_cuDevicePrimaryCtxRetain &&
	       api != GD_TRACE_API_hipGetDeviceCount &&
	       api != GD_TRACE_API_cudaGetDeviceCount &&
	       api != GD_TRACE_API_cuInit &&
	       api != GD_TRACE_API_cuDeviceGetCount;
}

static void size_text(uint64_t b, char *buf, size_t cap)
{
	if (b >= (1ull << 30) && !(b & ((1ull << 20) - 1)))
		gd_fmt(buf, cap, "%.1f GiB", (double)b / (1ull << 30));
	else if (b >= (1ull << 20))
		gd_fmt(buf, cap, "%" PRIu64 " MiB", b >> 20);
	else if (b >= 1024)
		gd_fmt(buf, cap, "%" PRIu64 " KiB", b >> 10);
	else
		gd_fmt(buf, cap, "%" PRIu64 " B", b);
}

void gd_trace_call_text(const struct gd_trace_call *c, char *buf, size_t cap)
{
	/* hipMemcpyKind and cudaMemcpyKind share these values. */
	static const char *const kinds[] = {"H2H", "H2D", "D2H", "D2D",
					    "default"};
	char sz[32], st[40] = "";

	size_text(c->bytes, sz, sizeof sz);
	if (c->stream)
		gd_fmt(st, sizeof st, ", stream 0x%" PRIx64, c->stream);
	if (c->api == GD_TRACE_API_cudaOther || c->api == GD_TRACE_API_cuOther)
		gd_fmt(buf, cap, "%s (CUPTI callback id %u%s)",
		       c->api == GD_TRACE_API_cudaOther ? "a CUDA runtime call"
							: "a CUDA driver call",
		       c->kind, st);
	else if (is_copy(c->api))
		gd_fmt(buf, cap, "%s(%s, %s%s)", gd_trace_api_name(c->api),
		       c->kind < 5 ? kinds[c->kind] : "kind ?", sz, st);
	else if (is_device(c->api) && c->kind < 4096)
		gd_fmt(buf, cap, "%s(device %u)", gd_trace_api_name(c->api),
		       c->kind);
	else if (is_alloc(c->api))
		gd_fmt(buf, cap, "%s(%s, flags 0x%x)",
		       gd_trace_api_name(c->api), sz, c->kind);
	else
		gd_fmt(buf, cap, "%s(%s)", gd_trace_api_name(c->api),
		       st[0] ? st + 2 : "");
}

int gd_trace_region_create(void **map)
{
	struct gd_trace_hdr *h;
	int fd, e;

	/* No MFD_CLOEXEC: the traced program inherits the fd. */
	fd = memfd_create("gpudoctor-trace", 0);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, GD_TRACE_REGION_SIZE) < 0)
		goto fail;
	h = mmap(NULL, GD_TRACE_REGION_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		 fd, 0);
	if (h == MAP_FAILED)
		goto fail;
	h->magic = GD_TRACE_MAGIC;
	h->version = GD_TRACE_VERSION;
	h->slot_size = GD_TRACE_SLOT_SIZE;
	h->nslots = GD_TRACE_NSLOTS;
	*map = h;
	return fd;
fail:
	e = errno;
	close(fd);
	return -e;
}

void gd_trace_region_free(int fd, void *map)
{
	if (map)
		munmap(map, GD_TRACE_REGION_SIZE);
	if (fd >= 0)
		close(fd);
}

/* The writer is another process: seq is read with acquire loads and the
 * payload copied between them; a changed seq means a torn copy. */
static enum gd_slot_status read_slot(const unsigned char *p,
				     struct gd_trace_call *c)
{
	unsigned char snap[GD_TRACE_SLOT_SIZE];
	const uint64_t *seqp = (const uint64_t *)(const void *)p;
	uint64_t s2;

	for (int tries = 0; tries < 100; tries++) {
		uint64_t s1 = __atomic_load_n(seqp, __ATOMIC_ACQUIRE);
		enum gd_slot_status st;

		memcpy(snap, p, sizeof snap);
		memcpy(snap, &s1, sizeof s1);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		s2 = __atomic_load_n(seqp, __ATOMIC_RELAXED);
		st = gd_trace_slot_decode(snap, sizeof snap, s2, c);
		if (st != GD_SLOT_TORN)
			return st;
		usleep(100);
	}
	return GD_SLOT_TORN;
}

size_t gd_trace_snapshot(const void *map, struct gd_trace_call *out, size_t cap,
			 size_t *bad)
{
	const unsigned char *base = map;
	uint64_t used;
	size_t n = 0;

	*bad = 0;
	used = __atomic_load_n(&((const struct gd_trace_hdr *)map)->next_slot,
			       __ATOMIC_ACQUIRE);
	if (used > GD_TRACE_NSLOTS)
		used = GD_TRACE_NSLOTS; /* the writer bumps past the end */
	for (uint64_t i = 0; i < used && n < cap; i++) {
		enum gd_slot_status st = read_slot(
		    base + GD_TRACE_HDR_SIZE + i * GD_TRACE_SLOT_SIZE, &out[n]);

		if (st == GD_SLOT_OK)
			n++;
		else if (st != GD_SLOT_EMPTY)
			(*bad)++;
	}
	return n;
}

void gd_trace_unrecorded_text(const void *map, char *buf, size_t cap)
{
	uint64_t n = map ? __atomic_load_n(
			       &((const struct gd_trace_hdr *)map)->unrecorded,
			       __ATOMIC_ACQUIRE)
			 : 0;

	buf[0] = '\0';
	if (n && n <= 1u << 30)
		gd_fmt(buf, cap,
		       "%" PRIu64 " thread%s not traced: all %u trace slots "
		       "were in use",
		       n, n == 1 ? " was" : "s were", GD_TRACE_NSLOTS);
}

/* One hex field of a maps line; *p moves past it. */
static int maps_hex(const char **p, const char *end, uint64_t *v)
{
	int digits = 0;

	*v = 0;
	for (; *p < end && digits < 17; (*p)++, digits++) {
		char c = **p;
		unsigned d;

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else
			break;
		*v = *v << 4 | d;
	}
	return digits > 0 && digits <= 16 ? 0 : -1;
}

/* proc(5) /proc/PID/maps: "start-end perms offset dev inode   path". */
int gd_trace_maps_file(const char *text, size_t n, uint64_t pc, char *path,
		       size_t cap, uint64_t *file_off)
{
	const char *p = text, *end = text + n;

	if (!cap)
		return -1;
	path[0] = '\0';
	*file_off = 0;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *f;
		uint64_t lo, hi, off;

		if (!eol)
			eol = end;
		if (maps_hex(&p, eol, &lo) == 0 && p < eol && *p == '-' &&
		    (p++, maps_hex(&p, eol, &hi)) == 0 && lo <= pc && pc < hi) {
			/* perms, then offset, dev, inode and the path */
			for (f = p; f < eol && *f == ' '; f++)
				;
			while (f < eol && *f != ' ')
				f++;
			while (f < eol && *f == ' ')
				f++;
			if (maps_hex(&f, eol, &off) < 0)
				return -1;
			for (int fields = 0; f < eol && fields < 2; fields++) {
				while (f < eol && *f == ' ')
					f++;
				while (f < eol && *f != ' ')
					f++;
			}
			while (f < eol && *f == ' ')
				f++;
			if (f >= eol || *f != '/' || (size_t)(eol - f) >= cap)
				return -1; /* anonymous, [stack], JIT code */
			memcpy(path, f, (size_t)(eol - f));
			path[eol - f] = '\0';
			*file_off = off + (pc - lo);
			return 0;
		}
		p = eol + 1;
	}
	return -1;
}

int gd_trace_maps_caller(const char *text, size_t n, uint64_t pc, char *out,
			 size_t cap)
{
	char path[4096];
	const char *base;
	uint64_t off;

	if (!cap)
		return -1;
	out[0] = '\0';
	if (gd_trace_maps_file(text, n, pc, path, sizeof path, &off) < 0)
		return -1;
	base = strrchr(path, '/');
	gd_fmt(out, cap, "%s", base + 1);
	gd_sanitize(out);
	return out[0] ? 0 : -1;
}
