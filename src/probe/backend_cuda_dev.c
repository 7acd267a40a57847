/* probe/backend_cuda_dev: the CUDA device primitives (device.h) over the
 * driver API: cuMemAlloc, cuMemAllocHost, cuMemcpy*, the device's stream,
 * CUDA events, vector_add from backend_cuda_kernel.c. The ops and figures
 * built on them are in device.c. */
#include <stdlib.h>
#include <string.h>

#include "cuda_api.h"
#include "device.h"

_Static_assert(sizeof(CUdeviceptr) <= sizeof(gd_dptr),
	       "a CUdeviceptr must fit a gd_dptr");

static long cu_alloc(void *be, size_t sz, gd_dptr *out)
{
	struct gd_cu *cu = be;
	CUdeviceptr p = 0;
	CUresult r = cu->MemAlloc(&p, sz);

	*out = r ? 0 : (gd_dptr)p;
	return r;
}

static void cu_free(void *be, gd_dptr p)
{
	struct gd_cu *cu = be;

	cu->MemFree((CUdeviceptr)p);
}

static long cu_host_alloc(void *be, size_t sz, void **p, void **handle)
{
	struct gd_cu *cu = be;

	*handle = NULL;
	return cu->MemAllocHost(p, sz);
}

static void cu_host_free(void *be, void *p, void *handle)
{
	struct gd_cu *cu = be;

	(void)handle;
	cu->MemFreeHost(p);
}

static long cu_memset(void *be, gd_dptr p, int v, size_t sz)
{
	struct gd_cu *cu = be;

	return cu->MemsetD8((CUdeviceptr)p, (unsigned char)v, sz);
}

static long cu_h2d(void *be, gd_dptr dst, const void *src, size_t sz, int async)
{
	struct gd_cu *cu = be;

	return async
		   ? cu->MemcpyHtoDAsync((CUdeviceptr)dst, src, sz, cu->stream)
		   : cu->MemcpyHtoD((CUdeviceptr)dst, src, sz);
}

static long cu_d2h(void *be, void *dst, gd_dptr src, size_t sz, int async)
{
	struct gd_cu *cu = be;

	return async
		   ? cu->MemcpyDtoHAsync(dst, (CUdeviceptr)src, sz, cu->stream)
		   : cu->MemcpyDtoH(dst, (CUdeviceptr)src, sz);
}

static long cu_d2d(void *be, gd_dptr dst, gd_dptr src, size_t sz)
{
	struct gd_cu *cu = be;

	return cu->MemcpyDtoDAsync((CUdeviceptr)dst, (CUdeviceptr)src, sz,
				   cu->stream);
}

static long cu_sync(void *be)
{
	struct gd_cu *cu = be;

	return cu->StreamSynchronize(cu->stream);
}

/* The two events live as long as the device's stream (cu_device_ops). */
static long cu_timer_start(void *be)
{
	struct gd_cu *cu = be;
	CUresult r;

	if (!cu->ev[0] && (r = cu->EventCreate(&cu->ev[0], 0)))
		return r;
	if (!cu->ev[1] && (r = cu->EventCreate(&cu->ev[1], 0)))
		return r;
	return cu->EventRecord(cu->ev[0], cu->stream);
}

static long cu_timer_stop(void *be, double *secs)
{
	struct gd_cu *cu = be;
	float ms = 0;
	CUresult r = cu->EventRecord(cu->ev[1], cu->stream);

	if (!r)
		r = cu->EventSynchronize(cu->ev[1]);
	if (!r)
		r = cu->EventElapsedTime(&ms, cu->ev[0], cu->ev[1]);
	*secs = ms * 1e-3;
	return r;
}

struct cu_kernel {
	CUmodule mod;
	CUfunction fn;
};

static long cu_vadd_load(struct gd_pc *pc, void *be, void **k, char *how,
			 size_t cap)
{
	struct gd_cu *cu = be;
	struct cu_kernel *ck = calloc(1, sizeof *ck);
	CUresult r;

	*k = NULL;
	if (!ck)
		return 2; /* CUDA_ERROR_OUT_OF_MEMORY */
	r = gd_cu_load_vector_add(pc, cu, &ck->mod, &ck->fn, how, cap);
	if (r) {
		if (ck->mod)
			cu->ModuleUnload(ck->mod);
		free(ck);
		return r;
	}
	*k = ck;
	return 0;
}

static void cu_vadd_unload(void *be, void *k)
{
	struct gd_cu *cu = be;
	struct cu_kernel *ck = k;

	if (ck->mod)
		cu->ModuleUnload(ck->mod);
	free(ck);
}

/* Blocks of 256 for the check, one block of 32 for the latency figure. */
static long cu_vadd_launch(void *be, void *k, gd_dptr a, gd_dptr b, gd_dptr c,
			   unsigned n)
{
	struct gd_cu *cu = be;
	struct cu_kernel *ck = k;
	CUdeviceptr da = (CUdeviceptr)a, db = (CUdeviceptr)b,
		    dc = (CUdeviceptr)c;
	void *args[] = {&da, &db, &dc, &n};
	unsigned block = n >= 256 ? 256 : 32;

	return cu->LaunchKernel(ck->fn, (n + block - 1) / block, 1, 1, block, 1,
				1, 0, cu->stream, args, NULL);
}

static void cu_err(void *be, long e, char *buf, size_t cap)
{
	gd_cu_errstr(be, (CUresult)e, buf, cap);
}

const struct gd_devops gd_cu_devops = {
    .alloc_name = "cuMemAlloc",
    .memset_name = "cuMemsetD8",
    .host_name = "cuMemAllocHost",
    .host_what = "page-locked",
    .h2d_name = "cuMemcpyHtoD",
    .d2h_name = "cuMemcpyDtoH",
    .h2d_async_name = "cuMemcpyHtoDAsync",
    .d2h_async_name = "cuMemcpyDtoHAsync",
    .d2d_name = "cuMemcpyDtoDAsync",
    .sync_name = "cuStreamSynchronize",
    .launch_name = "cuLaunchKernel of 1 block (driver API, no framework "
		   "dispatch)",
    .timer_name = "CUDA events",
    .d2d_bytes = (size_t)1 << 30,
    .warm = 2,
    .reps = 10,
    .alloc = cu_alloc,
    .free = cu_free,
    .host_alloc = cu_host_alloc,
    .host_free = cu_host_free,
    .memset = cu_memset,
    .h2d = cu_h2d,
    .d2h = cu_d2h,
    .d2d = cu_d2d,
    .sync = cu_sync,
    .timer_start = cu_timer_start,
    .timer_stop = cu_timer_stop,
    .vadd_load = cu_vadd_load,
    .vadd_unload = cu_vadd_unload,
    .vadd_launch = cu_vadd_launch,
    .err = cu_err,
};
