/* probe/device: the memory, copy and vector_add ops and the copy/launch
 * figures, written once over a backend's primitives (device.h). What each
 * op checks is in docs/probe.md, "Ops"; how each figure is measured, in
 * "Figures". */
#include <stdlib.h>
#include <string.h>

#include "device.h"

#define MEM_SZ ((size_t)64 << 20)
#define N_VEC (1 << 20)

static void dev_fail(struct gd_pc *pc, const struct gd_devops *d, void *be,
		     const char *what, long e)
{
	char es[200];

	d->err(be, e, es, sizeof es);
	gd_pc_end(pc, GD_PS_ERROR, 0, "%s: %s", what, es);
}

/* State of the memory ops: host data h, read-back buffer, device buffer
 * m, pinned buffer. */
struct dev_mem {
	const struct gd_devops *d;
	void *be;
	unsigned char *h, *back, *pin;
	void *pin_handle;
	gd_dptr m;
	int filled;    /* h holds the pattern */
	int h2d_begun; /* copy_h2d ran in this child */
};

static void mem_alloc_ops(struct gd_pc *pc, struct dev_mem *s, int dev)
{
	const struct gd_devops *d = s->d;
	char what[96];
	long r;

	if (gd_pc_begin(pc, dev, GD_OP_ALLOC_DEVICE)) {
		gd_pc_phase(pc, "%s 64 MiB", d->alloc_name);
		r = d->alloc(s->be, MEM_SZ, &s->m);
		if (!r) /* written: some APIs allocate lazily */
			r = d->memset(s->be, s->m, 0, MEM_SZ);
		gd_fmt(what, sizeof what, "%s/%s 64 MiB", d->alloc_name,
		       d->memset_name);
		if (r)
			dev_fail(pc, d, s->be, what, r);
		else
			gd_pc_end(pc, GD_PS_OK, 0, "64 MiB, cleared");
	}
	if (!s->m && d->alloc(s->be, MEM_SZ, &s->m))
		s->m = 0;
	if (gd_pc_begin(pc, dev, GD_OP_ALLOC_PINNED)) {
		gd_pc_phase(pc, "%s 64 MiB", d->host_name);
		gd_fmt(what, sizeof what, "%s 64 MiB", d->host_name);
		r = d->host_alloc(s->be, MEM_SZ, (void **)&s->pin,
				  &s->pin_handle);
		if (r) {
			s->pin = NULL;
			dev_fail(pc, d, s->be, what, r);
		} else {
			memset(s->pin, 0x5a, MEM_SZ);
			gd_pc_end(pc, GD_PS_OK, 0, "64 MiB %s", d->host_what);
		}
	}
}

/* The host pattern, made inside the first step that needs it: between
 * steps the per-op deadline runs from the last result. A step also redoes
 * what it needs of an earlier step that ran in an earlier child. */
static void mem_fill(struct dev_mem *s)
{
	if (s->filled++)
		return;
	for (size_t i = 0; i < MEM_SZ; i++)
		s->h[i] = (unsigned char)(i * 7 + 1);
}

static void mem_sync_copies(struct gd_pc *pc, struct dev_mem *s, int dev)
{
	const struct gd_devops *d = s->d;
	long r;

	if (gd_pc_begin(pc, dev, GD_OP_COPY_H2D)) {
		mem_fill(s);
		gd_pc_phase(pc, "%s 64 MiB pageable", d->h2d_name);
		r = d->h2d(s->be, s->m, s->h, MEM_SZ, 0);
		s->h2d_begun = 1;
		if (r)
			dev_fail(pc, d, s->be, d->h2d_name, r);
		else
			gd_pc_end(pc, GD_PS_OK, 0,
				  "64 MiB pageable, synchronous");
	}
	if (gd_pc_begin(pc, dev, GD_OP_COPY_D2H)) {
		mem_fill(s);
		if (!s->h2d_begun) { /* it ran in an earlier child */
			gd_pc_phase(pc, "%s 64 MiB (for copy_d2h)",
				    d->h2d_name);
			d->h2d(s->be, s->m, s->h, MEM_SZ, 0);
		}
		gd_pc_phase(pc, "%s 64 MiB pageable", d->d2h_name);
		memset(s->back, 0, MEM_SZ);
		r = d->d2h(s->be, s->back, s->m, MEM_SZ, 0);
		if (r)
			dev_fail(pc, d, s->be, d->d2h_name, r);
		else if (memcmp(s->back, s->h, MEM_SZ))
			gd_pc_end(pc, GD_PS_WRONG, 1,
				  "read back differs "
				  "from what was written");
		else
			gd_pc_end(pc, GD_PS_OK, 0, "64 MiB, checked");
	}
}

static void mem_async_copy(struct gd_pc *pc, struct dev_mem *s, int dev)
{
	const struct gd_devops *d = s->d;
	long r;

	if (!gd_pc_begin(pc, dev, GD_OP_COPY_H2D_ASYNC))
		return;
	if (!s->pin) { /* alloc_pinned ran in an earlier child */
		gd_pc_phase(pc, "%s 64 MiB (for copy_h2d_async)", d->host_name);
		if (d->host_alloc(s->be, MEM_SZ, (void **)&s->pin,
				  &s->pin_handle))
			s->pin = NULL;
		else
			memset(s->pin, 0x5a, MEM_SZ);
	}
	if (!s->pin) {
		gd_pc_end(pc, GD_PS_SKIPPED, 0, "no pinned memory");
		return;
	}
	gd_pc_phase(pc, "%s pinned + %s", d->h2d_async_name, d->sync_name);
	r = d->h2d(s->be, s->m, s->pin, MEM_SZ, 1);
	if (!r)
		r = d->d2h(s->be, s->back, s->m, MEM_SZ, 1);
	if (!r)
		r = d->sync(s->be);
	if (r)
		dev_fail(pc, d, s->be, "async copy", r);
	else
		gd_pc_end(
		    pc,
		    memcmp(s->back, s->pin, MEM_SZ) ? GD_PS_WRONG : GD_PS_OK, 0,
		    "64 MiB pinned, asynchronous, "
		    "checked");
}

void gd_dev_memory_ops(struct gd_pc *pc, const struct gd_devops *d, void *be,
		       int dev)
{
	struct dev_mem s;

	memset(&s, 0, sizeof s);
	s.d = d;
	s.be = be;
	s.h = malloc(MEM_SZ);
	s.back = malloc(MEM_SZ);
	if (!s.h || !s.back)
		goto out;
	mem_alloc_ops(pc, &s, dev);
	if (d->extra_allocs)
		d->extra_allocs(pc, be, dev);
	if (!s.m)
		goto out;
	mem_sync_copies(pc, &s, dev);
	mem_async_copy(pc, &s, dev);
out:
	if (s.m)
		d->free(be, s.m);
	if (s.pin)
		d->host_free(be, s.pin, s.pin_handle);
	free(s.h);
	free(s.back);
}

/* The device side of vector_add: buffers, inputs, launch, read back. */
static long vadd_run(const struct gd_devops *d, void *be, void *k,
		     const float *a, const float *b, float *c, gd_dptr *db)
{
	size_t sz = (size_t)N_VEC * 4;
	long r;

	if ((r = d->alloc(be, sz, &db[0])) || (r = d->alloc(be, sz, &db[1])) ||
	    (r = d->alloc(be, sz, &db[2])) ||
	    (r = d->h2d(be, db[0], a, sz, 0)) ||
	    (r = d->h2d(be, db[1], b, sz, 0)) ||
	    (r = d->memset(be, db[2], 0, sz)))
		return r;
	r = d->vadd_launch(be, k, db[0], db[1], db[2], N_VEC);
	if (!r)
		r = d->sync(be);
	if (!r)
		r = d->d2h(be, c, db[2], sz, 0);
	return r;
}

void gd_dev_vector_add(struct gd_pc *pc, const struct gd_devops *d, void *be)
{
	size_t sz = (size_t)N_VEC * 4;
	float *a = malloc(sz), *b = malloc(sz), *c = malloc(sz),
	      *want = malloc(sz);
	gd_dptr db[3] = {0, 0, 0};
	void *k = NULL;
	char how[500] = "", e[200];
	long r;

	if (!a || !b || !c || !want) {
		gd_pc_end(pc, GD_PS_ERROR, 0, "out of host memory");
		goto out;
	}
	gd_pc_fill_random(a, N_VEC, 1);
	gd_pc_fill_random(b, N_VEC, 2);
	for (int i = 0; i < N_VEC; i++)
		want[i] = a[i] + b[i];
	r = d->vadd_load(pc, be, &k, how, sizeof how);
	if (!r) {
		gd_pc_phase(pc, "launch vector_add");
		r = vadd_run(d, be, k, a, b, c, db);
	}
	if (r == GD_DEV_EWHY) {
		gd_pc_end(pc, GD_PS_ERROR, 0, "%s", how);
	} else if (r) {
		d->err(be, r, e, sizeof e);
		gd_pc_end(pc, GD_PS_ERROR, 0, "%s%s%s", e, how[0] ? "; " : "",
			  how);
	} else {
		double err = gd_pc_max_rel_error(c, want, N_VEC);

		gd_pc_end(pc, err == 0 ? GD_PS_OK : GD_PS_WRONG, err,
			  "%d elements checked%s%s", N_VEC, how[0] ? "; " : "",
			  how);
	}
out:
	for (int i = 0; i < 3; i++)
		if (db[i])
			d->free(be, db[i]);
	if (k)
		d->vadd_unload(be, k);
	free(a);
	free(b);
	free(c);
	free(want);
}

enum { D2D, H2D, D2H };

/* Median of d->reps async copies on the device timer, after d->warm. */
static double time_copy(const struct gd_devops *d, void *be, int kind,
			gd_dptr dev_dst, gd_dptr dev_src, void *host, size_t sz)
{
	double t[16];
	int reps = d->reps < 16 ? d->reps : 16;

	for (int i = -d->warm; i < reps; i++) {
		double s = 0;
		long r = d->timer_start(be);

		if (!r)
			r = kind == D2D	  ? d->d2d(be, dev_dst, dev_src, sz)
			    : kind == H2D ? d->h2d(be, dev_dst, host, sz, 1)
					  : d->d2h(be, host, dev_src, sz, 1);
		if (r || d->timer_stop(be, &s))
			return -1;
		if (i >= 0)
			t[i] = s;
	}
	return gd_pc_median(t, reps);
}

double gd_dev_time(const struct gd_devops *d, void *be, int (*fn)(void *),
		   void *arg, int warm, int reps)
{
	double t[16];

	if (reps > 16)
		reps = 16;
	for (int i = -warm; i < reps; i++) {
		double s = 0;
		long r = d->timer_start(be);

		if (r || fn(arg) || d->timer_stop(be, &s))
			return -1;
		if (i >= 0)
			t[i] = s;
	}
	return gd_pc_median(t, reps);
}

/* Pageable host -> device as PyTorch's tensor.copy_() does it: an async
 * copy (the runtime stages it through its own pinned buffers) and a
 * synchronise, on the wall clock; the pages are faulted in first. */
static double time_pageable(const struct gd_devops *d, void *be, gd_dptr dst,
			    void *page, size_t sz)
{
	double t[16];
	int reps = d->reps < 16 ? d->reps : 16;

	memset(page, 3, sz);
	for (int i = -d->warm; i < reps; i++) {
		double t0 = gd_pc_now();

		if (d->h2d(be, dst, page, sz, 1) || d->sync(be))
			return -1;
		if (i >= 0)
			t[i] = gd_pc_now() - t0;
	}
	return gd_pc_median(t, reps);
}

static void figure(struct gd_pc *pc, int dev, const char *name, double t,
		   size_t sz, const char *note)
{
	if (t > 0)
		gd_pc_figure(pc, dev, name, sz / t / 1e9, "GB/s", note);
}

static void bench_pinned(struct gd_pc *pc, const struct gd_devops *d, void *be,
			 int dev, gd_dptr a, size_t hs)
{
	void *pin = NULL, *ph = NULL;
	char note[160];

	gd_pc_phase(pc, "bench: h2d/d2h pinned %zu MiB", hs >> 20);
	if (d->host_alloc(be, hs, &pin, &ph))
		return;
	memset(pin, 2, hs);
	gd_fmt(note, sizeof note,
	       "%s %zu MiB from %s memory, %s, median of "
	       "%d",
	       d->h2d_async_name, hs >> 20, d->host_name, d->timer_name,
	       d->reps);
	figure(pc, dev, "h2d_pinned", time_copy(d, be, H2D, a, 0, pin, hs), hs,
	       note);
	gd_fmt(note, sizeof note, "%s %zu MiB to %s memory, %s, median of %d",
	       d->d2h_async_name, hs >> 20, d->host_name, d->timer_name,
	       d->reps);
	figure(pc, dev, "d2h_pinned", time_copy(d, be, D2H, 0, a, pin, hs), hs,
	       note);
	d->host_free(be, pin, ph);
}

static void bench_copies(struct gd_pc *pc, const struct gd_devops *d, void *be,
			 int dev)
{
	size_t big = d->d2d_bytes, hs = (size_t)256 << 20;
	gd_dptr a = 0, b = 0;
	void *page = NULL, *raw = NULL;
	char note[160];

	gd_pc_phase(pc, "bench: d2d %zu MiB", big >> 20);
	if (d->alloc(be, big, &a) || d->alloc(be, big, &b)) {
		if (a)
			d->free(be, a);
		a = b = 0;
		big = hs; /* small GPUs: 256 MiB still exceeds the caches */
		if (d->alloc(be, big, &a) || d->alloc(be, big, &b))
			goto out;
	}
	d->memset(be, a, 1, big);
	gd_fmt(note, sizeof note,
	       "%s %zu MiB, bytes counted once (memory "
	       "traffic is 2x), %s, median of %d",
	       d->d2d_name, big >> 20, d->timer_name, d->reps);
	figure(pc, dev, "d2d_bandwidth", time_copy(d, be, D2D, b, a, NULL, big),
	       big, note);
	bench_pinned(pc, d, be, dev, a, hs);
	gd_pc_phase(pc, "bench: h2d pageable %zu MiB", hs >> 20);
	/* 64-byte aligned, as PyTorch's CPU allocator (c10 alloc_cpu); by
	 * hand, as Windows' C runtime has neither posix_memalign nor
	 * aligned_alloc */
	if (!(raw = malloc(hs + 64)))
		goto out;
	page = (void *)(((uintptr_t)raw + 63) & ~(uintptr_t)63);
	gd_fmt(note, sizeof note,
	       "%s %zu MiB from pre-faulted malloc memory "
	       "+ %s, wall clock, median of %d",
	       d->h2d_async_name, hs >> 20, d->sync_name, d->reps);
	figure(pc, dev, "h2d_pageable", time_pageable(d, be, a, page, hs), hs,
	       note);
out:
	if (a)
		d->free(be, a);
	if (b)
		d->free(be, b);
	free(raw);
}

/* Launch-to-completion: one tiny kernel, then synchronise, wall clock. */
static void bench_latency(struct gd_pc *pc, const struct gd_devops *d, void *be,
			  int dev)
{
	void *k = NULL;
	gd_dptr p = 0;
	double t[200];
	char how[500], note[160];

	gd_pc_phase(pc, "bench: launch latency");
	if (d->vadd_load(pc, be, &k, how, sizeof how) || d->alloc(be, 4096, &p))
		goto out;
	for (int i = -20; i < 200; i++) {
		double t0 = gd_pc_now();

		if (d->vadd_launch(be, k, p, p, p, 1) || d->sync(be))
			goto out;
		if (i >= 0)
			t[i] = (gd_pc_now() - t0) * 1e6;
	}
	gd_fmt(note, sizeof note, "%s + %s, wall clock, median of 200",
	       d->launch_name, d->sync_name);
	gd_pc_figure(pc, dev, "launch_latency", gd_pc_median(t, 200), "us",
		     note);
out:
	if (p)
		d->free(be, p);
	if (k)
		d->vadd_unload(be, k);
}

void gd_dev_bench(struct gd_pc *pc, const struct gd_devops *d, void *be,
		  int dev)
{
	bench_copies(pc, d, be, dev);
	bench_latency(pc, d, be, dev);
}
