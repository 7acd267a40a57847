/* probe/backend_hip: the HIP/ROCm op matrix through libamdhip64 (.so.7,
 * .so.6, .so.5), dlopen'ed, laid out as the CUDA backend. Besides the
 * common ops it tries the host allocations the MIOpen report needed
 * (hipHostMalloc with hipHostMallocNonCoherent, hipExtMallocWithFlags)
 * and JIT-compiles the kernel with hiprtc (the COMGR path the reports
 * suspect). hipBLAS/rocBLAS: backend_hip_blas.c; MIOpen:
 * backend_hip_dnn.c; context cycle and figures: backend_hip_bench.c. */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "device.h"
#include "hip_api.h"

/* "hipErrorInvalidDevice (101): message"; some HIP versions return the
 * name again as the message, which is then left out. */
void gd_hip_err(const struct gd_hip *h, hipError_t e, char *buf, size_t cap)
{
	const char *name = h->GetErrorName ? h->GetErrorName(e) : NULL;
	const char *msg = h->GetErrorString ? h->GetErrorString(e) : NULL;

	if (!name)
		name = "hipError_t";
	if (msg && *msg && strcmp(msg, name))
		gd_fmt(buf, cap, "%s (%d): %s", name, e, msg);
	else
		gd_fmt(buf, cap, "%s (%d)", name, e);
}

/* hipRuntimeGetVersion's int is HIP_VERSION: major * 10000000 +
 * minor * 100000 + patch (50221153 = 5.2.21153). */
static void hip_version(int v, char *buf, size_t cap)
{
	if (v > 0)
		gd_fmt(buf, cap, "%d.%d.%d", v / 10000000, v / 100000 % 100,
		       v % 100000);
	else
		gd_fmt(buf, cap, "unknown");
}

static int hip_load(struct gd_pc *pc, struct gd_hip *h, char *lib, size_t lcap)
{
	/* one runtime per child where several majors sit side by side
	 * (Windows: amdhip64_7.dll, amdhip64_6.dll; libnames.h) */
	const char *one[2] = {pc->args->lib, NULL};
	const char *const *names =
	    pc->args->lib ? one : gd_lib_names(GD_LIB_HIP);
#define S(f, n, req)                                                           \
	{                                                                      \
		n, (void **)&h->f, req                                         \
	}
	const struct gd_sym syms[] = {
	    S(Init, "hipInit", 1),
	    S(GetDeviceCount, "hipGetDeviceCount", 1),
	    S(DriverGetVersion, "hipDriverGetVersion", 1),
	    S(RuntimeGetVersion, "hipRuntimeGetVersion", 1),
	    S(DeviceGetName, "hipDeviceGetName", 1),
	    S(DeviceTotalMem, "hipDeviceTotalMem", 1),
	    S(GetDeviceProperties, "hipGetDeviceProperties", 0),
	    S(GetErrorName, "hipGetErrorName", 1),
	    S(GetErrorString, "hipGetErrorString", 1),
	    S(SetDevice, "hipSetDevice", 1),
	    S(Malloc, "hipMalloc", 1),
	    S(Free, "hipFree", 1),
	    S(HostMalloc, "hipHostMalloc", 1),
	    S(HostFree, "hipHostFree", 1),
	    S(ExtMallocWithFlags, "hipExtMallocWithFlags", 0),
	    S(Memcpy, "hipMemcpy", 1),
	    S(MemcpyAsync, "hipMemcpyAsync", 1),
	    S(StreamCreate, "hipStreamCreate", 1),
	    S(StreamDestroy, "hipStreamDestroy", 1),
	    S(StreamSynchronize, "hipStreamSynchronize", 1),
	    S(DeviceSynchronize, "hipDeviceSynchronize", 1),
	    S(ModuleLoadData, "hipModuleLoadData", 1),
	    S(ModuleGetFunction, "hipModuleGetFunction", 1),
	    S(ModuleUnload, "hipModuleUnload", 1),
	    S(ModuleLaunchKernel, "hipModuleLaunchKernel", 1),
	    S(Memset, "hipMemset", 1),
	    S(DeviceReset, "hipDeviceReset", 1),
	    S(EventCreate, "hipEventCreate", 1),
	    S(EventRecord, "hipEventRecord", 1),
	    S(EventSynchronize, "hipEventSynchronize", 1),
	    S(EventElapsedTime, "hipEventElapsedTime", 1),
	    S(EventDestroy, "hipEventDestroy", 1),
	    {NULL, NULL, 0},
	};
#undef S
	char searched[700], missing[64];

	gd_pc_phase(pc, "dlopen libamdhip64");
	h->lib = gd_pc_dlopen(pc, names, gd_lib_dirs(GD_LIB_HIP), lib, lcap,
			      searched, sizeof searched);
	if (!h->lib) {
		gd_pc_end(pc, GD_PS_MISSING, 0, "HIP runtime not found: %s",
			  searched);
		return -1;
	}
	if (gd_pc_dlsym(h->lib, syms, missing, sizeof missing)) {
		gd_pc_end(pc, GD_PS_MISSING, 0, "%s lacks %s", lib, missing);
		return -1;
	}
	return 0;
}

/* hipDeviceProp_t changed layout between releases (R0600 in 6.0): rather
 * than hard-code an offset, find gcnArchName ("gfx1010:xnack-...") in
 * the filled buffer. */
static void hip_gfx(struct gd_hip *h, int dev, char *out, size_t cap)
{
	char *buf = calloc(1, 16384);

	out[0] = '\0';
	if (!buf || !h->GetDeviceProperties ||
	    h->GetDeviceProperties(buf, dev)) {
		free(buf);
		return;
	}
	for (size_t i = 256; i + 8 < 16384; i++)
		if (!memcmp(buf + i, "gfx", 3) && buf[i + 3] >= '0' &&
		    buf[i + 3] <= '9' && memchr(buf + i, '\0', 64)) {
			gd_strlcpy(out, buf + i, cap);
			break;
		}
	free(buf);
}

#define GD_HIP_ERROR_NO_DEVICE 100 /* hipErrorNoDevice */

/* Init failed (e1 from hipInit, 0 when it passed) or found no device:
 * hipErrorNoDevice, or a count of 0, is the runtime's own "no device". */
static void hip_init_fail(struct gd_pc *pc, struct gd_hip *h, hipError_t e1,
			  hipError_t e2, int n, const char *rts,
			  const char *lib)
{
	char s1[200] = "", s2[200];
	int none = e1 == GD_HIP_ERROR_NO_DEVICE ||
		   e2 == GD_HIP_ERROR_NO_DEVICE || (!e2 && n <= 0);

	if (e1)
		gd_hip_err(h, e1, s1, sizeof s1);
	if (e2)
		gd_hip_err(h, e2, s2, sizeof s2);
	else
		gd_fmt(s2, sizeof s2, "%d devices", n);
	gd_pc_end(pc, none ? GD_PS_NODEVICE : GD_PS_ERROR, 0,
		  "%s%s%shipGetDeviceCount: %s; HIP runtime %s, %s",
		  e1 ? "hipInit: " : "", s1, e1 ? "; " : "", s2, rts, lib);
}

static int hip_init(struct gd_pc *pc, struct gd_hip *h, const char *lib)
{
	int n = 0, drv = 0, rt = 0;
	char rts[32];
	hipError_t e, e1;

	gd_pc_phase(pc, "hipInit");
	e1 = h->Init(0);
	h->RuntimeGetVersion(&rt);
	hip_version(rt, rts, sizeof rts);
	gd_pc_phase(pc, "hipGetDeviceCount");
	e = h->GetDeviceCount(&n);
	if (e || n <= 0) { /* a failed hipInit alone is not fatal */
		hip_init_fail(pc, h, e1, e, n, rts, lib);
		return 0;
	}
	h->DriverGetVersion(&drv);
	for (int i = 0; i < n && i < 16; i++) {
		struct gd_probe_device d;
		size_t mem = 0;

		memset(&d, 0, sizeof d);
		d.index = i;
		gd_pc_phase(pc, "hipGetDeviceProperties %d", i);
		h->DeviceGetName(d.name, sizeof d.name - 1, i);
		h->DeviceTotalMem(&mem, i);
		d.mem_bytes = mem;
		hip_gfx(h, i, d.isa, sizeof d.isa);
		gd_fmt(d.driver, sizeof d.driver, "%d", drv);
		gd_fmt(d.runtime, sizeof d.runtime, "HIP %s", rts);
		gd_strlcpy(d.library, lib, sizeof d.library);
		gd_pc_device(pc, &d);
	}
	gd_pc_end(pc, GD_PS_OK, 0, "%d device(s); HIP runtime %s; %s", n, rts,
		  lib);
	return n < 16 ? n : 16;
}

static const char vadd_hip[] =
    "extern \"C\" __global__ void vector_add(const float *a, const float *b,\n"
    "                                        float *c, unsigned n)\n"
    "{ unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) c[i] = a[i] + b[i]; }\n";

/* hiprtc lives in libamdhip64 up to 5.x, in libhiprtc from 6.0. */
static int hip_rtc_load(struct gd_pc *pc, struct gd_hip *h, char *why,
			size_t cap)
{
	const char *const *names = gd_lib_names(GD_LIB_HIPRTC);
	const struct gd_sym syms[] = {
	    {"hiprtcCreateProgram", (void **)&h->RtcCreate, 1},
	    {"hiprtcCompileProgram", (void **)&h->RtcCompile, 1},
	    {"hiprtcGetCodeSize", (void **)&h->RtcCodeSize, 1},
	    {"hiprtcGetCode", (void **)&h->RtcCode, 1},
	    {"hiprtcGetProgramLogSize", (void **)&h->RtcLogSize, 1},
	    {"hiprtcGetProgramLog", (void **)&h->RtcLog, 1},
	    {"hiprtcDestroyProgram", (void **)&h->RtcDestroy, 1},
	    {"hiprtcGetErrorString", (void **)&h->RtcErrStr, 1},
	    {NULL, NULL, 0}};
	char lib[256], searched[600], missing[64];
	void *l;

	if (!gd_pc_dlsym(h->lib, syms, missing, sizeof missing))
		return 0;
	l = gd_pc_dlopen(pc, names, gd_lib_dirs(GD_LIB_HIPRTC), lib, sizeof lib,
			 searched, sizeof searched);
	if (l && !gd_pc_dlsym(l, syms, missing, sizeof missing))
		return 0;
	gd_fmt(why, cap, "hiprtc not in libamdhip64 and %s",
	       l ? missing : searched);
	return -1;
}

/* hiprtc -> code object, or NULL with why (the compiler log). */
static char *hip_rtc(struct gd_pc *pc, struct gd_hip *h, char *why, size_t cap)
{
	char opt[96], log[300] = "";
	const char *opts[1] = {opt};
	hiprtcProgram prog = NULL;
	char *code = NULL;
	size_t sz = 0;
	int r;

	if (hip_rtc_load(pc, h, why, cap))
		return NULL;
	gd_fmt(opt, sizeof opt, "--gpu-architecture=%s", h->gfx);
	if (strchr(opt, ':')) /* "gfx1010:xnack-" -> "gfx1010" */
		*strchr(opt, ':') = '\0';
	gd_pc_phase(pc, "hiprtcCompileProgram vector_add (%s)", opt + 19);
	r = h->RtcCreate(&prog, vadd_hip, "vector_add.hip", 0, NULL, NULL);
	if (!r)
		r = h->RtcCompile(prog, h->gfx[0] ? 1 : 0, opts);
	if (r) {
		size_t ls = 0;

		if (prog && !h->RtcLogSize(prog, &ls) && ls && ls < sizeof log)
			h->RtcLog(prog, log);
		gd_fmt(why, cap, "hiprtcCompileProgram: %s %s", h->RtcErrStr(r),
		       log);
	} else if (!h->RtcCodeSize(prog, &sz) && sz && (code = malloc(sz))) {
		if (h->RtcCode(prog, code)) {
			free(code);
			code = NULL;
		}
	}
	if (prog)
		h->RtcDestroy(&prog);
	return code;
}

hipError_t gd_hip_load_vector_add(struct gd_pc *pc, struct gd_hip *h,
				  hipModule_t *mod, hipFunction_t *fn,
				  char *why, size_t cap)
{
	char *code = hip_rtc(pc, h, why, cap);
	hipError_t e;

	*mod = NULL;
	if (!code)
		return 218; /* hipErrorInvalidKernelFile: why says more */
	gd_pc_phase(pc, "hipModuleLoadData");
	e = h->ModuleLoadData(mod, code);
	free(code);
	if (!e)
		e = h->ModuleGetFunction(fn, *mod, "vector_add");
	return e;
}

static void hip_device_ops(struct gd_pc *pc, struct gd_hip *h, int dev)
{
	hipError_t e;

	h->stream = NULL;
	h->ev[0] = h->ev[1] = NULL;
	h->dev = dev;
	gd_pc_phase(pc, "hipSetDevice %d", dev);
	e = h->SetDevice(dev);
	if (!e)
		e = h->StreamCreate(&h->stream);
	if (e) {
		char e2[200];

		gd_hip_err(h, e, e2, sizeof e2);
		gd_pc_setup_failed(pc, dev, "%s", e2);
		return;
	}
	hip_gfx(h, dev, h->gfx, sizeof h->gfx);
	gd_dev_memory_ops(pc, &gd_hip_devops, h, dev);
	if (gd_pc_begin(pc, dev, GD_OP_KERNEL_VECTOR_ADD))
		gd_dev_vector_add(pc, &gd_hip_devops, h);
	gd_hip_gemm_ops(pc, h, dev);
	gd_hip_conv_op(pc, h, dev);
	if (gd_pc_begin(pc, dev, GD_OP_CONTEXT_CYCLE))
		gd_hip_context_cycle(pc, h); /* may replace h->stream */
	if (gd_pc_bench_begin(pc, dev)) {
		if (h->stream) {
			gd_dev_bench(pc, &gd_hip_devops, h, dev);
			gd_hip_gemm_bench(pc, h, dev);
		}
		gd_pc_bench_end(pc);
	}
	for (int i = 0; i < 2; i++)
		if (h->ev[i])
			h->EventDestroy(h->ev[i]);
	if (h->stream)
		h->StreamDestroy(h->stream);
}

static int hip_run(struct gd_pc *pc)
{
	struct gd_hip h;
	char lib[256];
	int n;

	memset(&h, 0, sizeof h);
	gd_pc_begin_always(pc, -1, GD_OP_INIT);
	if (hip_load(pc, &h, lib, sizeof lib))
		return 0;
	n = hip_init(pc, &h, lib);
	for (int i = 0; i < n; i++)
		hip_device_ops(pc, &h, i);
	return 0;
}

const struct gd_backend gd_backend_hip = {
    .name = "hip",
    .title = "HIP",
    .run = hip_run,
};
