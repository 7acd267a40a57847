/* probe/backend_hip_dev: the HIP device primitives (device.h): hipMalloc,
 * hipHostMalloc, hipMemcpy(Async) on the device's stream, hipEvents,
 * vector_add by hiprtc; and the two host allocations only HIP has
 * (alloc_noncoherent, alloc_ext_flags: the MIOpen report's). The ops and
 * figures built on them are in device.c. */
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "hip_api.h"

static long hp_alloc(void *be, size_t sz, gd_dptr *out)
{
	struct gd_hip *h = be;
	void *p = NULL;
	hipError_t e = h->Malloc(&p, sz);

	*out = e ? 0 : (gd_dptr)p;
	return e;
}

static void hp_free(void *be, gd_dptr p)
{
	struct gd_hip *h = be;

	h->Free((void *)p);
}

static long hp_host_alloc(void *be, size_t sz, void **p, void **handle)
{
	struct gd_hip *h = be;

	*handle = NULL;
	return h->HostMalloc(p, sz, 0);
}

static void hp_host_free(void *be, void *p, void *handle)
{
	struct gd_hip *h = be;

	(void)handle;
	h->HostFree(p);
}

static long hp_memset(void *be, gd_dptr p, int v, size_t sz)
{
	struct gd_hip *h = be;

	return h->Memset((void *)p, v, sz);
}

static long hp_h2d(void *be, gd_dptr dst, const void *src, size_t sz, int async)
{
	struct gd_hip *h = be;

	return async
		   ? h->MemcpyAsync((void *)dst, src, sz, GD_HIP_H2D, h->stream)
		   : h->Memcpy((void *)dst, src, sz, GD_HIP_H2D);
}

static long hp_d2h(void *be, void *dst, gd_dptr src, size_t sz, int async)
{
	struct gd_hip *h = be;

	return async
		   ? h->MemcpyAsync(dst, (void *)src, sz, GD_HIP_D2H, h->stream)
		   : h->Memcpy(dst, (void *)src, sz, GD_HIP_D2H);
}

static long hp_d2d(void *be, gd_dptr dst, gd_dptr src, size_t sz)
{
	struct gd_hip *h = be;

	return h->MemcpyAsync((void *)dst, (void *)src, sz, GD_HIP_D2D,
			      h->stream);
}

static long hp_sync(void *be)
{
	struct gd_hip *h = be;

	return h->StreamSynchronize(h->stream);
}

/* The two events live as long as the device's stream (hip_device_ops). */
static long hp_timer_start(void *be)
{
	struct gd_hip *h = be;
	hipError_t e;

	if (!h->ev[0] && (e = h->EventCreate(&h->ev[0])))
		return e;
	if (!h->ev[1] && (e = h->EventCreate(&h->ev[1])))
		return e;
	return h->EventRecord(h->ev[0], h->stream);
}

static long hp_timer_stop(void *be, double *secs)
{
	struct gd_hip *h = be;
	float ms = 0;
	hipError_t e = h->EventRecord(h->ev[1], h->stream);

	if (!e)
		e = h->EventSynchronize(h->ev[1]);
	if (!e)
		e = h->EventElapsedTime(&ms, h->ev[0], h->ev[1]);
	*secs = ms * 1e-3;
	return e;
}

struct hp_kernel {
	hipModule_t mod;
	hipFunction_t fn;
};

static long hp_vadd_load(struct gd_pc *pc, void *be, void **k, char *how,
			 size_t cap)
{
	struct gd_hip *h = be;
	struct hp_kernel *hk = calloc(1, sizeof *hk);
	hipError_t e;

	*k = NULL;
	how[0] = '\0';
	if (!hk)
		return 2; /* hipErrorOutOfMemory */
	e = gd_hip_load_vector_add(pc, h, &hk->mod, &hk->fn, how, cap);
	if (e) {
		int why = how[0] && !hk->mod; /* hiprtc failed: its log */

		if (hk->mod)
			h->ModuleUnload(hk->mod);
		free(hk);
		return why ? GD_DEV_EWHY : e;
	}
	gd_fmt(how, cap, "hiprtc for %s", h->gfx);
	*k = hk;
	return 0;
}

static void hp_vadd_unload(void *be, void *k)
{
	struct gd_hip *h = be;
	struct hp_kernel *hk = k;

	if (hk->mod)
		h->ModuleUnload(hk->mod);
	free(hk);
}

static long hp_vadd_launch(void *be, void *k, gd_dptr a, gd_dptr b, gd_dptr c,
			   unsigned n)
{
	struct gd_hip *h = be;
	struct hp_kernel *hk = k;
	void *da = (void *)a, *db = (void *)b, *dc = (void *)c;
	void *args[] = {&da, &db, &dc, &n};
	unsigned block = n >= 256 ? 256 : 32;

	return h->ModuleLaunchKernel(hk->fn, (n + block - 1) / block, 1, 1,
				     block, 1, 1, 0, h->stream, args, NULL);
}

static void hp_err(void *be, long e, char *buf, size_t cap)
{
	gd_hip_err(be, (hipError_t)e, buf, cap);
}

/* One of HIP's own host/device allocations, written, then freed. */
static void hip_alloc_op(struct gd_pc *pc, struct gd_hip *h, int dev,
			 enum gd_op op)
{
	size_t sz = 64u << 20;
	void *p = NULL;
	int ext = op == GD_OP_ALLOC_EXT_FLAGS;
	const char *what =
	    ext ? "hipExtMallocWithFlags 64 MiB "
		  "hipDeviceMallocFinegrained"
		: "hipHostMalloc 64 MiB hipHostMallocNonCoherent";
	hipError_t e;
	char es[200];

	if (!gd_pc_begin(pc, dev, op))
		return;
	if (ext && !h->ExtMallocWithFlags) {
		gd_pc_end(pc, GD_PS_MISSING, 0,
			  "hipExtMallocWithFlags not exported");
		return;
	}
	gd_pc_phase(pc, "%s", what);
	e = ext ? h->ExtMallocWithFlags(&p, sz, GD_HIP_DEVICE_FINEGRAINED)
		: h->HostMalloc(&p, sz, GD_HIP_HOST_NONCOHERENT);
	if (!e && ext) {
		gd_pc_phase(pc, "hipMemset %s", what);
		e = h->Memset(p, 0, sz); /* make a lazy allocation real */
		if (e)
			h->Free(p);
	}
	if (e) {
		gd_hip_err(h, e, es, sizeof es);
		gd_pc_end(pc, GD_PS_ERROR, 0, "%s: %s", what, es);
		return;
	}
	if (!ext)
		memset(p, 0x5a, sz);
	gd_pc_end(pc, GD_PS_OK, 0, "%s", what);
	if (ext)
		h->Free(p);
	else
		h->HostFree(p);
}

static void hp_extra_allocs(struct gd_pc *pc, void *be, int dev)
{
	hip_alloc_op(pc, be, dev, GD_OP_ALLOC_NONCOHERENT);
	hip_alloc_op(pc, be, dev, GD_OP_ALLOC_EXT_FLAGS);
}

const struct gd_devops gd_hip_devops = {
    .alloc_name = "hipMalloc",
    .memset_name = "hipMemset",
    .host_name = "hipHostMalloc",
    .host_what = "page-locked",
    .h2d_name = "hipMemcpy H2D",
    .d2h_name = "hipMemcpy D2H",
    .h2d_async_name = "hipMemcpyAsync H2D",
    .d2h_async_name = "hipMemcpyAsync D2H",
    .d2d_name = "hipMemcpyAsync D2D",
    .sync_name = "hipStreamSynchronize",
    .launch_name = "hipModuleLaunchKernel of 1 block",
    .timer_name = "hipEvents",
    .d2d_bytes = (size_t)1 << 30,
    .warm = 2,
    .reps = 10,
    .alloc = hp_alloc,
    .free = hp_free,
    .host_alloc = hp_host_alloc,
    .host_free = hp_host_free,
    .memset = hp_memset,
    .h2d = hp_h2d,
    .d2h = hp_d2h,
    .d2d = hp_d2d,
    .sync = hp_sync,
    .timer_start = hp_timer_start,
    .timer_stop = hp_timer_stop,
    .vadd_load = hp_vadd_load,
    .vadd_unload = hp_vadd_unload,
    .vadd_launch = hp_vadd_launch,
    .err = hp_err,
    .extra_allocs = hp_extra_allocs,
};
