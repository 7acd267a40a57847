/* probe/backend_cuda: the CUDA op matrix through the driver API (libcuda,
 * dlopen'ed), NVRTC for the run-time kernel (or hand-written PTX loaded by
 * the driver's own JIT when NVRTC is absent), NVML for the driver version.
 * cuBLAS and cuDNN live in backend_cuda_blas.c. Works on the device's
 * primary context, as the CUDA runtime (and so PyTorch) does. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_api.h"
#include "device.h"

void gd_cu_errstr(const struct gd_cu *cu, CUresult r, char *buf, size_t cap)
{
	const char *name = NULL, *msg = NULL;

	static const struct {
		CUresult r;
		const char *n;
	} known[] = {
	    {1, "CUDA_ERROR_INVALID_VALUE"},
	    {2, "CUDA_ERROR_OUT_OF_MEMORY"},
	    {3, "CUDA_ERROR_NOT_INITIALIZED"},
	    {34, "CUDA_ERROR_STUB_LIBRARY"},
	    {35, "CUDA_ERROR_INSUFFICIENT_DRIVER"},
	    {100, "CUDA_ERROR_NO_DEVICE"},
	    {209, "CUDA_ERROR_NO_BINARY_FOR_GPU"},
	    {218, "CUDA_ERROR_INVALID_PTX"},
	    {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"},
	    {700, "CUDA_ERROR_ILLEGAL_ADDRESS"},
	    {719, "CUDA_ERROR_LAUNCH_FAILED"},
	    {999, "CUDA_ERROR_UNKNOWN"},
	};

	if (cu->GetErrorName && cu->GetErrorName(r, &name))
		name = NULL;
	for (size_t i = 0; !name && i < sizeof known / sizeof known[0]; i++)
		if (known[i].r == r)
			name = known[i].n; /* the stub library names nothing */
	if (cu->GetErrorString && cu->GetErrorString(r, &msg))
		msg = NULL;
	gd_fmt(buf, cap, "%s (%d)%s%s", name ? name : "CUresult", r,
	       msg ? ": " : "", msg ? msg : "");
}

static int cu_load(struct gd_pc *pc, struct gd_cu *cu, char *lib, size_t lcap)
{
	const char *const *names = gd_lib_names(GD_LIB_CUDA);
	const char *const *dirs = gd_lib_dirs(GD_LIB_CUDA);
#define S(f, n)                                                                \
	{                                                                      \
		n, (void **)&cu->f, 1                                          \
	}
	const struct gd_sym syms[] = {
	    S(Init, "cuInit"),
	    S(DriverGetVersion, "cuDriverGetVersion"),
	    S(DeviceGetCount, "cuDeviceGetCount"),
	    S(DeviceGet, "cuDeviceGet"),
	    S(DeviceGetName, "cuDeviceGetName"),
	    S(DeviceTotalMem, "cuDeviceTotalMem_v2"),
	    S(DeviceGetAttribute, "cuDeviceGetAttribute"),
	    S(PrimaryCtxRetain, "cuDevicePrimaryCtxRetain"),
	    S(PrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"),
	    S(CtxSetCurrent, "cuCtxSetCurrent"),
	    S(CtxCreate, "cuCtxCreate_v2"),
	    S(CtxDestroy, "cuCtxDestroy_v2"),
	    S(CtxSynchronize, "cuCtxSynchronize"),
	    S(MemAlloc, "cuMemAlloc_v2"),
	    S(MemFree, "cuMemFree_v2"),
	    S(MemAllocHost, "cuMemAllocHost_v2"),
	    S(MemFreeHost, "cuMemFreeHost"),
	    S(MemcpyHtoD, "cuMemcpyHtoD_v2"),
	    S(MemcpyDtoH, "cuMemcpyDtoH_v2"),
	    S(MemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2"),
	    S(MemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2"),
	    S(MemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2"),
	    S(MemsetD8, "cuMemsetD8_v2"),
	    S(StreamCreate, "cuStreamCreate"),
	    S(StreamSynchronize, "cuStreamSynchronize"),
	    S(StreamDestroy, "cuStreamDestroy_v2"),
	    S(EventCreate, "cuEventCreate"),
	    S(EventRecord, "cuEventRecord"),
	    S(EventSynchronize, "cuEventSynchronize"),
	    S(EventElapsedTime, "cuEventElapsedTime"),
	    S(EventDestroy, "cuEventDestroy_v2"),
	    S(ModuleLoadData, "cuModuleLoadData"),
	    S(ModuleGetFunction, "cuModuleGetFunction"),
	    S(ModuleUnload, "cuModuleUnload"),
	    S(LaunchKernel, "cuLaunchKernel"),
	    S(GetErrorName, "cuGetErrorName"),
	    S(GetErrorString, "cuGetErrorString"),
	    {NULL, NULL, 0},
	};
#undef S
	char searched[700], missing[64];

	gd_pc_phase(pc, "dlopen libcuda.so.1");
	cu->lib =
	    gd_pc_dlopen(pc, names, dirs, lib, lcap, searched, sizeof searched);
	if (!cu->lib) {
		gd_pc_end(
		    pc, GD_PS_SKIPPED, 0,
		    "skipped: no NVIDIA GPU (no NVIDIA driver library: %s)",
		    searched);
		return -1;
	}
	if (gd_pc_dlsym(cu->lib, syms, missing, sizeof missing)) {
		gd_pc_end(pc, GD_PS_MISSING, 0, "%s lacks %s (driver too old?)",
			  lib, missing);
		return -1;
	}
	return 0;
}

/* "580.65.06" from NVML when it is there; the driver API only knows the
 * CUDA version it supports. */
static void cu_nvml_driver(struct gd_pc *pc, char *out, size_t cap)
{
	const char *const *names = gd_lib_names(GD_LIB_NVML);
	int (*init)(void) = NULL, (*shut)(void) = NULL;
	int (*ver)(char *, unsigned) = NULL;
	const struct gd_sym syms[] = {
	    {"nvmlInit_v2", (void **)&init, 1},
	    {"nvmlSystemGetDriverVersion", (void **)&ver, 1},
	    {"nvmlShutdown", (void **)&shut, 1},
	    {NULL, NULL, 0}};
	char lib[256], searched[400], missing[64];
	void *h;

	out[0] = '\0';
	gd_pc_phase(pc, "nvmlInit_v2");
	h = gd_pc_dlopen(pc, names, NULL, lib, sizeof lib, searched,
			 sizeof searched);
	if (!h || gd_pc_dlsym(h, syms, missing, sizeof missing))
		return;
	if (init() == 0) {
		char v[96] = "";

		if (ver(v, sizeof v) == 0)
			gd_strlcpy(out, v, cap);
		shut();
	}
}

/* CUDA_ERROR_NO_DEVICE is the driver's own "no device": its status. */
static void cu_init_fail(struct gd_pc *pc, const struct gd_cu *cu,
			 const char *what, CUresult r)
{
	char e[200];

	gd_cu_errstr(cu, r, e, sizeof e);
	gd_pc_end(pc, r == GD_CU_ERROR_NO_DEVICE ? GD_PS_NODEVICE : GD_PS_ERROR,
		  0, "%s: %s", what, e);
}

static int cu_init(struct gd_pc *pc, struct gd_cu *cu, const char *lib)
{
	char nvml[64];
	int n = 0;
	CUresult r;

	gd_pc_phase(pc, "cuInit");
	r = cu->Init(0);
	if (r) {
		cu_init_fail(pc, cu, "cuInit", r);
		return 0;
	}
	cu->DriverGetVersion(&cu->driver_version);
	r = cu->DeviceGetCount(&n);
	if (r || n <= 0) {
		cu_init_fail(pc, cu, "cuDeviceGetCount",
			     r ? r : GD_CU_ERROR_NO_DEVICE);
		return 0;
	}
	cu_nvml_driver(pc, nvml, sizeof nvml);
	for (int i = 0; i < n && i < 16; i++) {
		struct gd_probe_device d;
		CUdevice dv;
		size_t mem = 0;
		int ma = 0, mi = 0;

		memset(&d, 0, sizeof d);
		d.index = i;
		gd_pc_phase(pc, "cuDeviceGet %d", i);
		if (cu->DeviceGet(&dv, i))
			continue;
		cu->DeviceGetName(d.name, sizeof d.name - 1, dv);
		cu->DeviceTotalMem(&mem, dv);
		cu->DeviceGetAttribute(&ma, GD_CU_ATTR_CC_MAJOR, dv);
		cu->DeviceGetAttribute(&mi, GD_CU_ATTR_CC_MINOR, dv);
		d.mem_bytes = mem;
		gd_fmt(d.isa, sizeof d.isa, "sm_%d%d", ma, mi);
		gd_strlcpy(d.driver, nvml[0] ? nvml : "?", sizeof d.driver);
		gd_fmt(d.runtime, sizeof d.runtime, "CUDA %d.%d (driver API)",
		       cu->driver_version / 1000,
		       cu->driver_version % 1000 / 10);
		gd_strlcpy(d.library, lib, sizeof d.library);
		gd_pc_device(pc, &d);
	}
	gd_pc_end(
	    pc, GD_PS_OK, 0, "%d device(s), driver supports CUDA %d.%d; %s", n,
	    cu->driver_version / 1000, cu->driver_version % 1000 / 10, lib);
	return n < 16 ? n : 16;
}

static void cu_device_ops(struct gd_pc *pc, struct gd_cu *cu, int dev)
{
	CUresult r;

	cu->ctx = NULL;
	cu->stream = NULL;
	cu->ev[0] = cu->ev[1] = NULL;
	gd_pc_phase(pc, "cuDevicePrimaryCtxRetain %d", dev);
	r = cu->DeviceGet(&cu->dev, dev);
	if (!r)
		r = cu->PrimaryCtxRetain(&cu->ctx, cu->dev);
	if (!r)
		r = cu->CtxSetCurrent(cu->ctx);
	if (!r)
		r = cu->StreamCreate(&cu->stream, 1 /* non-blocking */);
	if (r) {
		char e[200];

		gd_cu_errstr(cu, r, e, sizeof e);
		gd_pc_setup_failed(pc, dev, "context/stream: %s", e);
		goto out;
	}
	cu->DeviceGetAttribute(&cu->cc_major, GD_CU_ATTR_CC_MAJOR, cu->dev);
	cu->DeviceGetAttribute(&cu->cc_minor, GD_CU_ATTR_CC_MINOR, cu->dev);
	gd_dev_memory_ops(pc, &gd_cu_devops, cu, dev);
	if (gd_pc_begin(pc, dev, GD_OP_KERNEL_VECTOR_ADD))
		gd_dev_vector_add(pc, &gd_cu_devops, cu);
	gd_cu_gemm_ops(pc, cu, dev);
	gd_cu_conv_op(pc, cu, dev);
	if (gd_pc_begin(pc, dev, GD_OP_CONTEXT_CYCLE))
		gd_cu_context_cycle(pc, cu);
	if (gd_pc_bench_begin(pc, dev)) {
		gd_dev_bench(pc, &gd_cu_devops, cu, dev);
		gd_cu_gemm_bench(pc, cu, dev);
		gd_pc_bench_end(pc);
	}
out:
	for (int i = 0; i < 2; i++)
		if (cu->ev[i])
			cu->EventDestroy(cu->ev[i]);
	if (cu->stream)
		cu->StreamDestroy(cu->stream);
	if (cu->ctx)
		cu->PrimaryCtxRelease(cu->dev);
}

static int cuda_run(struct gd_pc *pc)
{
	struct gd_cu cu;
	char lib[256];
	int n;

	memset(&cu, 0, sizeof cu);
	gd_pc_begin_always(pc, -1, GD_OP_INIT);
	if (cu_load(pc, &cu, lib, sizeof lib))
		return 0;
	n = cu_init(pc, &cu, lib);
	for (int i = 0; i < n; i++)
		cu_device_ops(pc, &cu, i);
	return 0;
}

const struct gd_backend gd_backend_cuda = {
    .name = "cuda",
    .title = "CUDA",
    .run = cuda_run,
};
