/* probe/backend_ze: oneAPI Level Zero, the runtime under PyTorch XPU, SYCL
 * (llama.cpp's SYCL backend) and OpenVINO on Intel GPUs. Through the
 * loader (libze_loader.so.1) opened at run time: zeInit, the drivers and
 * their GPUs, then the memory and copy ops on an immediate, synchronous
 * command list. No SPIR-V kernel or BLAS is probed: those rows are
 * reported as skipped so the matrix stays comparable across backends.
 * The loader with no GPU driver installed (Debian's libze1 alone) answers
 * zeInit with ZE_RESULT_ERROR_UNINITIALIZED: "no driver", a no_device. */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "device.h"
#include "ze_api.h"

const char *gd_ze_err(ze_result_t r)
{
	static const struct {
		ze_result_t c;
		const char *n;
	} t[] = {
	    {0x0, "ZE_RESULT_SUCCESS"},
	    {0x1, "ZE_RESULT_NOT_READY"},
	    {0x70000001, "ZE_RESULT_ERROR_DEVICE_LOST"},
	    {0x70000002, "ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY"},
	    {0x70000003, "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY"},
	    {0x70000006, "ZE_RESULT_ERROR_DEVICE_REQUIRES_RESET"},
	    {0x70000007, "ZE_RESULT_ERROR_DEVICE_IN_LOW_POWER_STATE"},
	    {0x70010000, "ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS"},
	    {0x70010001, "ZE_RESULT_ERROR_NOT_AVAILABLE"},
	    {0x70020000, "ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE"},
	    {0x78000001, "ZE_RESULT_ERROR_UNINITIALIZED"},
	    {0x78000002, "ZE_RESULT_ERROR_UNSUPPORTED_VERSION"},
	    {0x78000003, "ZE_RESULT_ERROR_UNSUPPORTED_FEATURE"},
	    {0x78000004, "ZE_RESULT_ERROR_INVALID_ARGUMENT"},
	    {0x78000008, "ZE_RESULT_ERROR_INVALID_SIZE"},
	    {0x7ffffffe, "ZE_RESULT_ERROR_UNKNOWN"},
	};

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (t[i].c == r)
			return t[i].n;
	return NULL;
}

static void ze_errstr(ze_result_t r, char *buf, size_t cap)
{
	const char *n = gd_ze_err(r);

	if (n)
		gd_fmt(buf, cap, "%s (0x%x)", n, r);
	else
		gd_fmt(buf, cap, "ze_result_t 0x%x", r);
}

static int ze_load(struct gd_pc *pc, struct gd_ze *z, char *loaded, size_t lcap)
{
#define S(n)                                                                   \
	{                                                                      \
		"ze" #n, (void **)&z->n, 1                                     \
	}
	const struct gd_sym syms[] = {
	    S(Init),
	    S(DriverGet),
	    S(DriverGetProperties),
	    S(DeviceGet),
	    S(DeviceGetProperties),
	    S(DeviceGetMemoryProperties),
	    S(ContextCreate),
	    S(ContextDestroy),
	    S(CommandListCreateImmediate),
	    S(CommandListDestroy),
	    S(CommandListAppendMemoryCopy),
	    S(CommandListAppendMemoryFill),
	    S(MemAllocDevice),
	    S(MemAllocHost),
	    S(MemFree),
	    {NULL, NULL, 0},
	};
#undef S
	char searched[600], missing[64];

	gd_pc_phase(pc, "dlopen libze_loader.so.1");
	z->lib = gd_pc_dlopen(pc, gd_lib_names(GD_LIB_LEVEL_ZERO), NULL, loaded,
			      lcap, searched, sizeof searched);
	if (!z->lib) {
		gd_pc_end(pc, GD_PS_MISSING, 0,
			  "Level Zero loader not found: %s", searched);
		return -1;
	}
	if (gd_pc_dlsym(z->lib, syms, missing, sizeof missing)) {
		gd_pc_end(pc, GD_PS_MISSING, 0, "%s lacks %s", loaded, missing);
		return -1;
	}
	return 0;
}

/* One device's state for the primitives (device.h). */
struct ze_dev {
	struct gd_ze *z;
	ze_device_handle_t dev;
	ze_context_handle_t ctx;
	ze_command_list_handle_t cl;
};

static long zd_alloc(void *be, size_t sz, gd_dptr *out)
{
	struct ze_dev *d = be;
	ze_device_mem_alloc_desc_t desc = {ZE_STYPE_DEVICE_MEM_ALLOC_DESC, NULL,
					   0, 0};
	void *p = NULL;
	ze_result_t r = d->z->MemAllocDevice(d->ctx, &desc, sz, 64, d->dev, &p);

	*out = (gd_dptr)p;
	return r;
}

static void zd_free(void *be, gd_dptr p)
{
	struct ze_dev *d = be;

	d->z->MemFree(d->ctx, (void *)p);
}

static long zd_host_alloc(void *be, size_t sz, void **p, void **handle)
{
	struct ze_dev *d = be;
	ze_host_mem_alloc_desc_t desc = {ZE_STYPE_HOST_MEM_ALLOC_DESC, NULL, 0};

	*handle = NULL;
	*p = NULL;
	return d->z->MemAllocHost(d->ctx, &desc, sz, 64, p);
}

static void zd_host_free(void *be, void *p, void *handle)
{
	struct ze_dev *d = be;

	(void)handle;
	d->z->MemFree(d->ctx, p);
}

static long zd_memset(void *be, gd_dptr p, int v, size_t sz)
{
	struct ze_dev *d = be;
	unsigned char pat = (unsigned char)v;

	return d->z->CommandListAppendMemoryFill(d->cl, (void *)p, &pat, 1, sz,
						 NULL, 0, NULL);
}

/* The list is synchronous: each append returns when the copy is done,
 * async copies included. */
static long zd_h2d(void *be, gd_dptr dst, const void *src, size_t sz, int async)
{
	struct ze_dev *d = be;

	(void)async;
	return d->z->CommandListAppendMemoryCopy(d->cl, (void *)dst, src, sz,
						 NULL, 0, NULL);
}

static long zd_d2h(void *be, void *dst, gd_dptr src, size_t sz, int async)
{
	struct ze_dev *d = be;

	(void)async;
	return d->z->CommandListAppendMemoryCopy(d->cl, dst, (void *)src, sz,
						 NULL, 0, NULL);
}

static long zd_d2d(void *be, gd_dptr dst, gd_dptr src, size_t sz)
{
	return zd_h2d(be, dst, (const void *)src, sz, 0);
}

static long zd_sync(void *be)
{
	(void)be;
	return 0;
}

/* No device timer without event pools: figures are not measured. */
static long zd_no_timer(void *be)
{
	(void)be;
	return (long)0x78000003u;
}

static long zd_timer_stop(void *be, double *secs)
{
	*secs = 0;
	return zd_no_timer(be);
}

static long zd_vadd_load(struct gd_pc *pc, void *be, void **k, char *how,
			 size_t cap)
{
	(void)pc, (void)be;
	*k = NULL;
	gd_fmt(how, cap, "no SPIR-V kernel is probed on Level Zero");
	return GD_DEV_EWHY;
}

static void zd_vadd_unload(void *be, void *k)
{
	(void)be, (void)k;
}

static long zd_vadd_launch(void *be, void *k, gd_dptr a, gd_dptr b, gd_dptr c,
			   unsigned n)
{
	(void)be, (void)k, (void)a, (void)b, (void)c, (void)n;
	return (long)0x78000003u;
}

static void zd_err(void *be, long e, char *buf, size_t cap)
{
	(void)be;
	ze_errstr((ze_result_t)e, buf, cap);
}

static const struct gd_devops ze_devops = {
    .alloc_name = "zeMemAllocDevice",
    .memset_name = "zeCommandListAppendMemoryFill",
    .host_name = "zeMemAllocHost",
    .host_what = "host USM, written",
    .h2d_name = "zeCommandListAppendMemoryCopy (synchronous list)",
    .d2h_name = "zeCommandListAppendMemoryCopy (synchronous list)",
    .h2d_async_name = "zeCommandListAppendMemoryCopy from host USM",
    .d2h_async_name = "zeCommandListAppendMemoryCopy to host USM",
    .d2d_name = "zeCommandListAppendMemoryCopy device to device",
    .sync_name = "(synchronous immediate list)",
    .launch_name = "(none)",
    .timer_name = "(none)",
    .d2d_bytes = (size_t)256 << 20,
    .warm = 1,
    .reps = 5,
    .alloc = zd_alloc,
    .free = zd_free,
    .host_alloc = zd_host_alloc,
    .host_free = zd_host_free,
    .memset = zd_memset,
    .h2d = zd_h2d,
    .d2h = zd_d2h,
    .d2d = zd_d2d,
    .sync = zd_sync,
    .timer_start = zd_no_timer,
    .timer_stop = zd_timer_stop,
    .vadd_load = zd_vadd_load,
    .vadd_unload = zd_vadd_unload,
    .vadd_launch = zd_vadd_launch,
    .err = zd_err,
};

static void ze_describe(struct gd_ze *z, ze_driver_handle_t drv,
			ze_device_handle_t dev, int idx, const char *lib,
			struct gd_probe_device *pd)
{
	ze_device_properties_t p;
	ze_driver_properties_t dp;
	ze_device_memory_properties_t mp[4];
	uint32_t nm = 4;

	memset(pd, 0, sizeof *pd);
	memset(&p, 0, sizeof p);
	memset(&dp, 0, sizeof dp);
	memset(mp, 0, sizeof mp);
	p.stype = ZE_STYPE_DEVICE_PROPERTIES;
	dp.stype = ZE_STYPE_DRIVER_PROPERTIES;
	for (int i = 0; i < 4; i++)
		mp[i].stype = ZE_STYPE_DEVICE_MEMORY_PROPERTIES;
	pd->index = idx;
	if (!z->DeviceGetProperties(dev, &p)) {
		p.name[sizeof p.name - 1] = '\0';
		gd_strlcpy(pd->name, p.name, sizeof pd->name);
		gd_fmt(pd->isa, sizeof pd->isa, "pci 8086:%04x",
		       p.deviceId & 0xffff);
	}
	if (!z->DriverGetProperties(drv, &dp))
		gd_fmt(pd->driver, sizeof pd->driver, "%u", dp.driverVersion);
	if (!z->DeviceGetMemoryProperties(dev, &nm, mp))
		for (uint32_t i = 0; i < nm && i < 4; i++)
			pd->mem_bytes += mp[i].totalSize;
	gd_strlcpy(pd->runtime, "Level Zero", sizeof pd->runtime);
	gd_strlcpy(pd->library, lib, sizeof pd->library);
}

static void ze_device_ops(struct gd_pc *pc, struct gd_ze *z,
			  ze_driver_handle_t drv, ze_device_handle_t dev, int i)
{
	ze_context_desc_t cd = {ZE_STYPE_CONTEXT_DESC, NULL, 0};
	ze_command_queue_desc_t qd = {
	    ZE_STYPE_COMMAND_QUEUE_DESC,       NULL, 0, 0, 0,
	    ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS, 0};
	struct ze_dev d = {z, dev, NULL, NULL};
	ze_result_t r;
	char es[96];

	gd_pc_phase(pc, "zeContextCreate");
	r = z->ContextCreate(drv, &cd, &d.ctx);
	if (!r) {
		gd_pc_phase(pc, "zeCommandListCreateImmediate");
		r = z->CommandListCreateImmediate(d.ctx, dev, &qd, &d.cl);
	}
	if (r) {
		ze_errstr(r, es, sizeof es);
		gd_pc_setup_failed(pc, i,
				   "zeContextCreate/"
				   "CommandListCreateImmediate: %s",
				   es);
		goto out;
	}
	gd_dev_memory_ops(pc, &ze_devops, &d, i);
	if (!pc->args->quick) {
		gd_pc_skip(pc, i, GD_OP_KERNEL_VECTOR_ADD, GD_PS_SKIPPED,
			   "no SPIR-V kernel is probed on Level Zero");
		gd_pc_skip(pc, i, GD_OP_GEMM_FP32, GD_PS_SKIPPED,
			   "no oneMKL/oneDNN library is probed");
	}
out:
	if (d.cl)
		z->CommandListDestroy(d.cl);
	if (d.ctx)
		z->ContextDestroy(d.ctx);
}

enum { ZE_MAXD = 8 };

static int ze_run(struct gd_pc *pc)
{
	struct gd_ze z;
	ze_driver_handle_t drv[ZE_MAXD];
	ze_device_handle_t devs[ZE_MAXD];
	ze_driver_handle_t dev_drv[ZE_MAXD];
	uint32_t ndrv = 0;
	int nd = 0;
	ze_result_t r;
	char lib[256], es[96];

	memset(&z, 0, sizeof z);
	gd_pc_begin_always(pc, -1, GD_OP_INIT);
	if (ze_load(pc, &z, lib, sizeof lib))
		return 0;
	gd_pc_phase(pc, "zeInit");
	r = z.Init(ZE_INIT_FLAG_GPU_ONLY);
	if (r == ZE_RESULT_ERROR_UNINITIALIZED) { /* the loader: no driver */
		gd_pc_end(pc, GD_PS_NODEVICE, 0,
			  "zeInit: ZE_RESULT_ERROR_UNINITIALIZED (0x%x): no "
			  "Level Zero GPU driver loaded (libze_intel_gpu.so.1 "
			  "missing, or no Intel GPU it drives)",
			  r);
		return 0;
	}
	if (!r) {
		gd_pc_phase(pc, "zeDriverGet");
		r = z.DriverGet(&ndrv, NULL);
		if (ndrv > ZE_MAXD)
			ndrv = ZE_MAXD;
		if (!r && ndrv)
			r = z.DriverGet(&ndrv, drv);
	}
	if (r) {
		ze_errstr(r, es, sizeof es);
		gd_pc_end(pc, GD_PS_ERROR, 0, "zeInit/zeDriverGet: %s", es);
		return 0;
	}
	for (uint32_t k = 0; k < ndrv && nd < ZE_MAXD; k++) {
		uint32_t n = (uint32_t)(ZE_MAXD - nd);

		gd_pc_phase(pc, "zeDeviceGet driver %u", k);
		if (z.DeviceGet(drv[k], &n, devs + nd))
			continue;
		for (uint32_t j = 0; j < n && nd < ZE_MAXD; j++, nd++) {
			struct gd_probe_device pd;

			dev_drv[nd] = drv[k];
			ze_describe(&z, drv[k], devs[nd], nd, lib, &pd);
			gd_pc_device(pc, &pd);
		}
	}
	if (!nd) {
		gd_pc_end(pc, GD_PS_NODEVICE, 0,
			  "%u Level Zero driver(s) but no GPU device", ndrv);
		return 0;
	}
	gd_pc_end(pc, GD_PS_OK, 0, "%u driver(s), %d device(s); %s", ndrv, nd,
		  lib);
	for (int i = 0; i < nd; i++)
		ze_device_ops(pc, &z, dev_drv[i], devs[i], i);
	return 0;
}

const struct gd_backend gd_backend_levelzero = {
    .name = "levelzero",
    .title = "Level Zero",
    .run = ze_run,
};
