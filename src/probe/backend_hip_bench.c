/* probe/backend_hip_bench: the HIP "model switch" (streams and buffers
 * created, used and destroyed from several threads, then the device's
 * primary context reset with hipDeviceReset and used again) and the
 * copy/launch figures of `--bench`, measured as the CUDA backend measures
 * them (hipEvents on the device, wall clock where the host takes part). */
#include <stdlib.h>
#include <string.h>

#include "hip_api.h"

/* One cycle: what a framework's worker thread does with its own stream. */
static long hip_cycle_once(struct gd_pc_cycle_thread *t, void *arg)
{
	struct gd_hip *h = arg;
	hipStream_t s = NULL;
	void *p = NULL;
	hipError_t e;

	gd_pc_cycle_step(t, "hipSetDevice");
	if ((e = h->SetDevice(h->dev)))
		return e;
	gd_pc_cycle_step(t, "hipStreamCreate");
	if ((e = h->StreamCreate(&s)))
		return e;
	gd_pc_cycle_step(t, "hipMalloc 1 MiB");
	e = h->Malloc(&p, 1 << 20);
	if (!e) {
		gd_pc_cycle_step(t, "hipMemcpyAsync D2D + hipStreamSynchronize");
		e = h->MemcpyAsync(p, (char *)p + (512 << 10), 512 << 10,
				   GD_HIP_D2D, s);
		if (!e)
			e = h->StreamSynchronize(s);
		gd_pc_cycle_step(t, "hipFree");
		h->Free(p);
	}
	gd_pc_cycle_step(t, "hipStreamDestroy");
	h->StreamDestroy(s);
	return e;
}

/* After the threads: hipDeviceReset tears the primary context down; the
 * device must then work again (a new stream, an allocation, a copy). */
static hipError_t hip_reset(struct gd_pc *pc, struct gd_hip *h,
			    const char **what)
{
	void *p = NULL;
	char buf[64] = "", back[64];
	hipError_t e;

	gd_pc_phase(pc, "hipDeviceReset");
	*what = "hipDeviceReset";
	h->StreamDestroy(h->stream);
	h->stream = NULL;
	if ((e = h->DeviceReset()))
		return e;
	gd_pc_phase(pc, "hipSetDevice + hipStreamCreate after the reset");
	*what = "hipSetDevice/hipStreamCreate after hipDeviceReset";
	if ((e = h->SetDevice(h->dev)) || (e = h->StreamCreate(&h->stream)))
		return e;
	*what = "hipMalloc/hipMemcpy after hipDeviceReset";
	memset(buf, 0x5a, sizeof buf);
	if ((e = h->Malloc(&p, sizeof buf)))
		return e;
	e = h->Memcpy(p, buf, sizeof buf, GD_HIP_H2D);
	if (!e)
		e = h->Memcpy(back, p, sizeof back, GD_HIP_D2H);
	h->Free(p);
	if (!e && memcmp(buf, back, sizeof buf))
		e = -1;
	return e;
}

void gd_hip_context_cycle(struct gd_pc *pc, struct gd_hip *h)
{
	struct gd_pc_cycler c;
	const char *what = "";
	char e[200];
	hipError_t he;

	memset(&c, 0, sizeof c);
	c.pc = pc;
	c.cycle = hip_cycle_once;
	c.arg = h;
	c.budget_s = 2.0;
	c.nthreads = 4;
	if (gd_pc_cycle_run(&c)) {
		gd_hip_err(h, (hipError_t)c.err, e, sizeof e);
		gd_pc_end(pc, GD_PS_ERROR, 0, "thread %d cycle %d, %s: %s",
			  c.err_thread, c.err_cycle, c.err_what, e);
		return;
	}
	he = hip_reset(pc, h, &what);
	if (he == -1) {
		gd_pc_end(pc, GD_PS_WRONG, 1, "%d stream cycles from 4 threads "
			  "ok, but after hipDeviceReset a copy read back "
			  "differs", c.cycles);
	} else if (he) {
		gd_hip_err(h, he, e, sizeof e);
		gd_pc_end(pc, GD_PS_ERROR, 0, "%d stream cycles from 4 threads "
			  "ok; then %s: %s", c.cycles, what, e);
	} else {
		gd_pc_end(pc, GD_PS_OK, 0, "%d stream/buffer cycles from 4 "
			  "threads in %.1f s, then hipDeviceReset and the "
			  "device used again", c.cycles, c.seconds);
	}
}

/* Median of reps async copies timed with hipEvents (after 2 warm-ups). */
static double hip_time_async(struct gd_hip *h, void *dst, const void *src,
			     size_t sz, int kind, int reps)
{
	double t[16];
	hipEvent_t e0, e1;
	int ok = 1;

	if (h->EventCreate(&e0))
		return -1;
	if (h->EventCreate(&e1)) {
		h->EventDestroy(e0);
		return -1;
	}
	for (int i = -2; i < reps && ok; i++) {
		float ms = 0;

		h->EventRecord(e0, h->stream);
		ok = !h->MemcpyAsync(dst, src, sz, kind, h->stream);
		h->EventRecord(e1, h->stream);
		ok = ok && !h->EventSynchronize(e1) &&
		     !h->EventElapsedTime(&ms, e0, e1);
		if (i >= 0)
			t[i] = ms * 1e-3;
	}
	h->EventDestroy(e0);
	h->EventDestroy(e1);
	return ok ? gd_pc_median(t, reps) : -1;
}

/* Pageable host -> device: hipMemcpyAsync from pre-faulted malloc memory
 * + hipStreamSynchronize, wall clock (the runtime stages it through its
 * own pinned buffers), as the CUDA backend and PyTorch's copy_() do. */
static double hip_time_pageable(struct gd_hip *h, void *dst, size_t sz)
{
	char *page = malloc(sz);
	double t[10];
	int ok = page != NULL;

	if (ok)
		memset(page, 3, sz);
	for (int i = -2; i < 10 && ok; i++) {
		double t0 = gd_pc_now();

		ok = !h->MemcpyAsync(dst, page, sz, GD_HIP_H2D, h->stream) &&
		     !h->StreamSynchronize(h->stream);
		if (i >= 0)
			t[i] = gd_pc_now() - t0;
	}
	free(page);
	return ok ? gd_pc_median(t, 10) : -1;
}

static void hip_bench_copies(struct gd_pc *pc, struct gd_hip *h, int dev)
{
	size_t big = 1ull << 30, hs = 256u << 20;
	void *a = NULL, *b = NULL, *pin = NULL;
	char note[160];
	double t;

	gd_pc_phase(pc, "bench: d2d");
	if (h->Malloc(&a, big) || h->Malloc(&b, big)) {
		if (a)
			h->Free(a);
		a = b = NULL;
		big = hs; /* small GPUs: 256 MiB still exceeds the caches */
		if (h->Malloc(&a, big) || h->Malloc(&b, big))
			goto out;
	}
	h->Memset(a, 1, big);
	t = hip_time_async(h, b, a, big, GD_HIP_D2D, 10);
	gd_fmt(note, sizeof note, "hipMemcpyAsync D2D %zu MiB, bytes counted "
	       "once (memory traffic is 2x), hipEvents, median of 10",
	       big >> 20);
	if (t > 0)
		gd_pc_figure(pc, dev, "d2d_bandwidth", big / t / 1e9, "GB/s", note);
	gd_pc_phase(pc, "bench: h2d/d2h pinned 256 MiB");
	if (!h->HostMalloc(&pin, hs, 0)) {
		memset(pin, 2, hs);
		t = hip_time_async(h, a, pin, hs, GD_HIP_H2D, 10);
		if (t > 0)
			gd_pc_figure(pc, dev, "h2d_pinned", hs / t / 1e9, "GB/s",
				     "hipMemcpyAsync H2D 256 MiB from hipHostMalloc memory, hipEvents, median of 10");
		t = hip_time_async(h, pin, a, hs, GD_HIP_D2H, 10);
		if (t > 0)
			gd_pc_figure(pc, dev, "d2h_pinned", hs / t / 1e9, "GB/s",
				     "hipMemcpyAsync D2H 256 MiB to hipHostMalloc memory, hipEvents, median of 10");
	}
	gd_pc_phase(pc, "bench: h2d pageable 256 MiB");
	t = hip_time_pageable(h, a, hs);
	if (t > 0)
		gd_pc_figure(pc, dev, "h2d_pageable", hs / t / 1e9, "GB/s",
			     "hipMemcpyAsync H2D 256 MiB from pre-faulted malloc memory + hipStreamSynchronize, wall clock, median of 10");
out:
	if (a)
		h->Free(a);
	if (b)
		h->Free(b);
	if (pin)
		h->HostFree(pin);
}

/* Launch-to-completion: one 1-block kernel, then hipStreamSynchronize. */
static void hip_bench_latency(struct gd_pc *pc, struct gd_hip *h, int dev)
{
	hipModule_t mod = NULL;
	hipFunction_t fn;
	void *p = NULL;
	unsigned n = 1;
	void *args[] = {&p, &p, &p, &n};
	double t[200];
	char why[500];

	gd_pc_phase(pc, "bench: launch latency");
	if (gd_hip_load_vector_add(pc, h, &mod, &fn, why, sizeof why) ||
	    h->Malloc(&p, 4096))
		goto out;
	for (int i = -20; i < 200; i++) {
		double t0 = gd_pc_now();

		if (h->ModuleLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, h->stream,
					  args, NULL) ||
		    h->StreamSynchronize(h->stream))
			goto out;
		if (i >= 0)
			t[i] = (gd_pc_now() - t0) * 1e6;
	}
	gd_pc_figure(pc, dev, "launch_latency", gd_pc_median(t, 200), "us",
		     "hipModuleLaunchKernel of 1 block + hipStreamSynchronize, wall clock, median of 200");
out:
	if (p)
		h->Free(p);
	if (mod)
		h->ModuleUnload(mod);
}

void gd_hip_bench(struct gd_pc *pc, struct gd_hip *h, int dev)
{
	hip_bench_copies(pc, h, dev);
	hip_bench_latency(pc, h, dev);
	gd_hip_gemm_bench(pc, h, dev);
}
