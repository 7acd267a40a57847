/* probe/backend_opencl_dev: the OpenCL device primitives (device.h) on
 * one context and in-order queue with profiling: clCreateBuffer,
 * ALLOC_HOST_PTR buffers mapped for "pinned" memory, blocking or
 * non-blocking reads and writes, clFinish, profiling events as the device
 * timer, vector_add by clBuildProgram. The ops and figures built on them
 * are in device.c. */
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "opencl_api.h"

static long oc_alloc(void *be, size_t sz, gd_dptr *out)
{
	struct cl_dev *d = be;
	cl_int e = 0;
	cl_mem m = d->cl->CreateBuffer(d->ctx, CL_MEM_READ_WRITE, sz, NULL, &e);

	*out = (gd_dptr)m;
	return m ? 0 : e ? e : CL_MEM_OBJECT_ALLOCATION_FAILURE;
}

static void oc_free(void *be, gd_dptr p)
{
	struct cl_dev *d = be;

	d->cl->ReleaseMemObject((cl_mem)p);
}

/* Host memory the device reaches directly: a mapped ALLOC_HOST_PTR
 * buffer (the OpenCL way to page-locked memory), kept mapped. */
static long oc_host_alloc(void *be, size_t sz, void **p, void **handle)
{
	struct cl_dev *d = be;
	cl_int e = 0;
	cl_mem m =
	    d->cl->CreateBuffer(d->ctx, CL_MEM_ALLOC_HOST_PTR, sz, NULL, &e);

	*p = NULL;
	*handle = m;
	if (!m)
		return e ? e : CL_MEM_OBJECT_ALLOCATION_FAILURE;
	*p = d->cl->EnqueueMapBuffer(d->q, m, CL_TRUE,
				     CL_MAP_READ | CL_MAP_WRITE, 0, sz, 0, NULL,
				     NULL, &e);
	if (!*p) {
		d->cl->ReleaseMemObject(m);
		return e ? e : CL_OUT_OF_RESOURCES;
	}
	return 0;
}

static void oc_host_free(void *be, void *p, void *handle)
{
	struct cl_dev *d = be;

	d->cl->EnqueueUnmapMemObject(d->q, handle, p, 0, NULL, NULL);
	d->cl->Finish(d->q);
	d->cl->ReleaseMemObject(handle);
}

/* The event of the command now being timed, when timer_start asked. */
static cl_event *oc_ev(struct cl_dev *d)
{
	return d->timing ? &d->ev : NULL;
}

/* clEnqueueFillBuffer (1.2) when the loader has it, else a write. */
static long oc_memset(void *be, gd_dptr p, int v, size_t sz)
{
	struct cl_dev *d = be;
	unsigned char pat = (unsigned char)v, *buf;
	cl_int e;

	if (d->cl->EnqueueFillBuffer) {
		e = d->cl->EnqueueFillBuffer(d->q, (cl_mem)p, &pat, 1, 0, sz, 0,
					     NULL, NULL);
		return e ? e : d->cl->Finish(d->q);
	}
	buf = malloc(sz);
	if (!buf)
		return CL_OUT_OF_HOST_MEMORY;
	memset(buf, v, sz);
	e = d->cl->EnqueueWriteBuffer(d->q, (cl_mem)p, CL_TRUE, 0, sz, buf, 0,
				      NULL, NULL);
	free(buf);
	return e;
}

static long oc_h2d(void *be, gd_dptr dst, const void *src, size_t sz, int async)
{
	struct cl_dev *d = be;

	return d->cl->EnqueueWriteBuffer(d->q, (cl_mem)dst, !async, 0, sz, src,
					 0, NULL, oc_ev(d));
}

static long oc_d2h(void *be, void *dst, gd_dptr src, size_t sz, int async)
{
	struct cl_dev *d = be;

	return d->cl->EnqueueReadBuffer(d->q, (cl_mem)src, !async, 0, sz, dst,
					0, NULL, oc_ev(d));
}

static long oc_d2d(void *be, gd_dptr dst, gd_dptr src, size_t sz)
{
	struct cl_dev *d = be;

	return d->cl->EnqueueCopyBuffer(d->q, (cl_mem)src, (cl_mem)dst, 0, 0,
					sz, 0, NULL, oc_ev(d));
}

static long oc_sync(void *be)
{
	struct cl_dev *d = be;

	return d->cl->Finish(d->q);
}

static long oc_timer_start(void *be)
{
	struct cl_dev *d = be;

	if (d->ev)
		d->cl->ReleaseEvent(d->ev);
	d->ev = NULL;
	d->timing = 1;
	return 0;
}

static long oc_timer_stop(void *be, double *secs)
{
	struct cl_dev *d = be;
	cl_ulong a = 0, b = 0;
	cl_int e;

	d->timing = 0;
	*secs = 0;
	if (!d->ev)
		return CL_INVALID_EVENT;
	e = d->cl->WaitForEvents(1, &d->ev);
	if (!e)
		e = d->cl->GetEventProfilingInfo(
		    d->ev, CL_PROFILING_COMMAND_START, sizeof a, &a, NULL);
	if (!e)
		e = d->cl->GetEventProfilingInfo(
		    d->ev, CL_PROFILING_COMMAND_END, sizeof b, &b, NULL);
	d->cl->ReleaseEvent(d->ev);
	d->ev = NULL;
	*secs = (double)(b - a) * 1e-9;
	return e;
}

struct oc_kernel {
	cl_program prog;
	cl_kernel k;
};

static long oc_vadd_load(struct gd_pc *pc, void *be, void **k, char *how,
			 size_t cap)
{
	struct cl_dev *d = be;
	struct oc_kernel *ok = calloc(1, sizeof *ok);

	*k = NULL;
	how[0] = '\0';
	if (!ok)
		return CL_OUT_OF_HOST_MEMORY;
	gd_pc_phase(pc, "clBuildProgram vector_add");
	ok->k = gd_cl_build_vadd(d->cl, d, &ok->prog, how, cap);
	if (!ok->k) {
		if (ok->prog)
			d->cl->ReleaseProgram(ok->prog);
		free(ok);
		return GD_DEV_EWHY;
	}
	how[0] = '\0';
	*k = ok;
	return 0;
}

static void oc_vadd_unload(void *be, void *k)
{
	struct cl_dev *d = be;
	struct oc_kernel *ok = k;

	d->cl->ReleaseKernel(ok->k);
	if (ok->prog)
		d->cl->ReleaseProgram(ok->prog);
	free(ok);
}

/* n work-items, the work-group size left to the implementation. */
static long oc_vadd_launch(void *be, void *k, gd_dptr a, gd_dptr b, gd_dptr c,
			   unsigned n)
{
	struct cl_dev *d = be;
	struct oc_kernel *ok = k;
	cl_mem ma = (cl_mem)a, mb = (cl_mem)b, mc = (cl_mem)c;
	cl_uint cn = n;
	size_t gsz = n;
	cl_int e;

	if ((e = d->cl->SetKernelArg(ok->k, 0, sizeof ma, &ma)) ||
	    (e = d->cl->SetKernelArg(ok->k, 1, sizeof mb, &mb)) ||
	    (e = d->cl->SetKernelArg(ok->k, 2, sizeof mc, &mc)) ||
	    (e = d->cl->SetKernelArg(ok->k, 3, sizeof cn, &cn)))
		return e;
	return d->cl->EnqueueNDRangeKernel(d->q, ok->k, 1, NULL, &gsz, NULL, 0,
					   NULL, NULL);
}

static void oc_err(void *be, long e, char *buf, size_t cap)
{
	(void)be;
	gd_fmt(buf, cap, "%s (%ld)", gd_cl_err((cl_int)e), e);
}

const struct gd_devops gd_cl_devops = {
    .alloc_name = "clCreateBuffer",
    .memset_name = "clEnqueueFillBuffer",
    .host_name = "clCreateBuffer ALLOC_HOST_PTR + map",
    .host_what = "host-visible (ALLOC_HOST_PTR), mapped and written",
    .h2d_name = "clEnqueueWriteBuffer blocking",
    .d2h_name = "clEnqueueReadBuffer blocking",
    .h2d_async_name = "clEnqueueWriteBuffer non-blocking",
    .d2h_async_name = "clEnqueueReadBuffer non-blocking",
    .d2d_name = "clEnqueueCopyBuffer",
    .sync_name = "clFinish",
    .launch_name = "clEnqueueNDRangeKernel of 1 work-item",
    .timer_name = "profiling events",
    .d2d_bytes = (size_t)256 << 20,
    .warm = 1,
    .reps = 5,
    .alloc = oc_alloc,
    .free = oc_free,
    .host_alloc = oc_host_alloc,
    .host_free = oc_host_free,
    .memset = oc_memset,
    .h2d = oc_h2d,
    .d2h = oc_d2h,
    .d2d = oc_d2d,
    .sync = oc_sync,
    .timer_start = oc_timer_start,
    .timer_stop = oc_timer_stop,
    .vadd_load = oc_vadd_load,
    .vadd_unload = oc_vadd_unload,
    .vadd_launch = oc_vadd_launch,
    .err = oc_err,
};
