/* probe/backend_opencl_bench: the OpenCL figures of `--bench` (profiling
 * events on the device, wall clock for launch latency) and the "model
 * switch" context cycle. */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "opencl_api.h"

static double cl_event_s(struct gd_cl *cl, cl_event ev)
{
	cl_ulong a = 0, b = 0;

	cl->WaitForEvents(1, &ev);
	cl->GetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof a, &a,
				  NULL);
	cl->GetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof b, &b,
				  NULL);
	cl->ReleaseEvent(ev);
	return (double)(b - a) * 1e-9;
}

/* Median of 5 timed transfers (device timer), after one warm-up.
 * kind: 0 = device to device, 1 = host to device from src. */
static double cl_time_copy(struct gd_cl *cl, struct cl_dev *d, cl_mem dst,
			   cl_mem src, const void *hsrc, size_t sz)
{
	double t[5];

	for (int r = -1; r < 5; r++) {
		cl_event ev = NULL;
		cl_int e = hsrc ? cl->EnqueueWriteBuffer(d->q, dst, CL_TRUE, 0,
							 sz, hsrc, 0, NULL, &ev)
				: cl->EnqueueCopyBuffer(d->q, src, dst, 0, 0,
							sz, 0, NULL, &ev);

		if (e || !ev)
			return -1;
		if (r >= 0)
			t[r] = cl_event_s(cl, ev);
		else
			cl_event_s(cl, ev);
	}
	return gd_pc_median(t, 5);
}

/* Launch-to-completion: one work-group of vector_add, then clFinish,
 * wall clock (as CUDA's figure: launch + synchronise). */
static void cl_bench_latency(struct gd_pc *pc, struct gd_cl *cl,
			     struct cl_dev *d, int dev)
{
	cl_program prog = NULL;
	cl_kernel k;
	cl_mem m;
	cl_uint n = 64;
	size_t gsz = 64;
	double t[200];
	char why[500];
	cl_int e = 0;
	int ok;

	gd_pc_phase(pc, "bench: launch latency");
	k = gd_cl_build_vadd(cl, d, &prog, why, sizeof why);
	m = cl->CreateBuffer(d->ctx, CL_MEM_READ_WRITE, 4096, NULL, &e);
	ok = k && m;
	if (ok) {
		cl->SetKernelArg(k, 0, sizeof m, &m);
		cl->SetKernelArg(k, 1, sizeof m, &m);
		cl->SetKernelArg(k, 2, sizeof m, &m);
		cl->SetKernelArg(k, 3, sizeof n, &n);
	}
	for (int i = -20; i < 200 && ok; i++) {
		double t0 = gd_pc_now();

		ok = !cl->EnqueueNDRangeKernel(d->q, k, 1, NULL, &gsz, NULL, 0,
					       NULL, NULL) &&
		     !cl->Finish(d->q);
		if (i >= 0)
			t[i] = (gd_pc_now() - t0) * 1e6;
	}
	if (ok)
		gd_pc_figure(pc, dev, "launch_latency", gd_pc_median(t, 200),
			     "us", "clEnqueueNDRangeKernel of 1 work-group + clFinish, wall clock, median of 200");
	if (m)
		cl->ReleaseMemObject(m);
	if (k)
		cl->ReleaseKernel(k);
	if (prog)
		cl->ReleaseProgram(prog);
}

void gd_cl_bench(struct gd_pc *pc, struct gd_cl *cl, struct cl_dev *d,
		     int dev)
{
	size_t sz = 256u << 20;
	cl_mem a, b, pin;
	cl_int e;
	char *host = malloc(sz);
	void *map = NULL;
	double t;
	char note[160];

	gd_pc_phase(pc, "bench: buffers 256 MiB");
	a = cl->CreateBuffer(d->ctx, CL_MEM_READ_WRITE, sz, NULL, &e);
	b = cl->CreateBuffer(d->ctx, CL_MEM_READ_WRITE, sz, NULL, &e);
	pin = cl->CreateBuffer(d->ctx, CL_MEM_ALLOC_HOST_PTR, sz, NULL, &e);
	if (!a || !b || !host)
		goto out;
	memset(host, 1, sz);
	gd_pc_phase(pc, "bench: d2d copy");
	t = cl_time_copy(cl, d, b, a, NULL, sz);
	gd_fmt(note, sizeof note, "clEnqueueCopyBuffer 256 MiB, bytes counted "
	       "once (memory traffic is 2x), event timer, median of 5");
	if (t > 0)
		gd_pc_figure(pc, dev, "d2d_bandwidth", sz / t / 1e9, "GB/s", note);
	gd_pc_phase(pc, "bench: h2d pageable");
	t = cl_time_copy(cl, d, a, NULL, host, sz);
	if (t > 0)
		gd_pc_figure(pc, dev, "h2d_pageable", sz / t / 1e9, "GB/s",
			     "clEnqueueWriteBuffer 256 MiB from malloc, event timer, median of 5");
	if (pin)
		map = cl->EnqueueMapBuffer(d->q, pin, CL_TRUE, CL_MAP_WRITE, 0,
					   sz, 0, NULL, NULL, &e);
	if (map) {
		gd_pc_phase(pc, "bench: h2d pinned");
		memset(map, 2, sz);
		t = cl_time_copy(cl, d, a, NULL, map, sz);
		if (t > 0)
			gd_pc_figure(pc, dev, "h2d_pinned", sz / t / 1e9, "GB/s",
				     "clEnqueueWriteBuffer 256 MiB from a mapped ALLOC_HOST_PTR buffer, event timer, median of 5");
		cl->EnqueueUnmapMemObject(d->q, pin, map, 0, NULL, NULL);
		cl->Finish(d->q);
	}
	cl_bench_latency(pc, cl, d, dev);
out:
	if (a)
		cl->ReleaseMemObject(a);
	if (b)
		cl->ReleaseMemObject(b);
	if (pin)
		cl->ReleaseMemObject(pin);
	free(host);
}

struct cl_cycle {
	struct gd_cl *cl;
	cl_device_id id;
};

static long cl_cycle_once(struct gd_pc_cycle_thread *t, void *arg)
{
	struct cl_cycle *c = arg;
	cl_context ctx;
	cl_command_queue q;
	cl_int e = 0;

	gd_pc_cycle_step(t, "clCreateContext");
	ctx = c->cl->CreateContext(NULL, 1, &c->id, NULL, NULL, &e);
	if (!ctx)
		return e ? e : CL_OUT_OF_HOST_MEMORY;
	gd_pc_cycle_step(t, "clCreateCommandQueue");
	q = c->cl->CreateCommandQueue(ctx, c->id, 0, &e);
	if (q) {
		gd_pc_cycle_step(t, "clReleaseCommandQueue");
		c->cl->ReleaseCommandQueue(q);
	}
	gd_pc_cycle_step(t, "clReleaseContext");
	c->cl->ReleaseContext(ctx);
	return q ? 0 : e ? e : CL_OUT_OF_HOST_MEMORY;
}

/* The "model switch": contexts created and destroyed from 4 threads for
 * about 2 s (NVIDIA's clCreateContext is slow, PoCL's fast). */
void gd_cl_context_cycle(struct gd_pc *pc, struct gd_cl *cl,
			     cl_device_id id)
{
	struct cl_cycle cc = {cl, id};
	struct gd_pc_cycler c;

	memset(&c, 0, sizeof c);
	c.pc = pc;
	c.cycle = cl_cycle_once;
	c.arg = &cc;
	c.budget_s = 2.0;
	c.nthreads = 4;
	if (gd_pc_cycle_run(&c)) {
		gd_pc_end(pc, GD_PS_ERROR, 0, "thread %d cycle %d, %s: %s (%ld)",
			  c.err_thread, c.err_cycle, c.err_what,
			  gd_cl_err((cl_int)c.err), c.err);
		return;
	}
	gd_pc_end(pc, GD_PS_OK, 0, "%d contexts created and released from 4 "
		  "threads in %.1f s", c.cycles, c.seconds);
}

