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
#include "hip_api.h"

#define N_VEC (1 << 20)

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

#define HIP_FAIL(what, e)                                                      \
	do {                                                                   \
		char e_[200];                                                  \
		gd_hip_err(h, (e), e_, sizeof e_);                                \
		gd_pc_end(pc, GD_PS_ERROR, 0, "%s: %s", (what), e_);           \
	} while (0)

const char *const gd_hip_lib_dirs[] = {"/opt/rocm/lib", "/opt/rocm/lib64",
				       NULL};

static int hip_load(struct gd_pc *pc, struct gd_hip *h, char *lib, size_t lcap)
{
	static const char *const names[] = {"libamdhip64.so.7", "libamdhip64.so.6",
					    "libamdhip64.so.5", "libamdhip64.so",
					    NULL};
#define S(f, n, req) {n, (void **)&h->f, req}
	const struct gd_sym syms[] = {
		S(Init, "hipInit", 1), S(GetDeviceCount, "hipGetDeviceCount", 1),
		S(DriverGetVersion, "hipDriverGetVersion", 1),
		S(RuntimeGetVersion, "hipRuntimeGetVersion", 1),
		S(DeviceGetName, "hipDeviceGetName", 1),
		S(DeviceTotalMem, "hipDeviceTotalMem", 1),
		S(GetDeviceProperties, "hipGetDeviceProperties", 0),
		S(GetErrorName, "hipGetErrorName", 1),
		S(GetErrorString, "hipGetErrorString", 1),
		S(SetDevice, "hipSetDevice", 1), S(Malloc, "hipMalloc", 1),
		S(Free, "hipFree", 1), S(HostMalloc, "hipHostMalloc", 1),
		S(HostFree, "hipHostFree", 1),
		S(ExtMallocWithFlags, "hipExtMallocWithFlags", 0),
		S(Memcpy, "hipMemcpy", 1), S(MemcpyAsync, "hipMemcpyAsync", 1),
		S(StreamCreate, "hipStreamCreate", 1),
		S(StreamDestroy, "hipStreamDestroy", 1),
		S(StreamSynchronize, "hipStreamSynchronize", 1),
		S(DeviceSynchronize, "hipDeviceSynchronize", 1),
		S(ModuleLoadData, "hipModuleLoadData", 1),
		S(ModuleGetFunction, "hipModuleGetFunction", 1),
		S(ModuleUnload, "hipModuleUnload", 1),
		S(ModuleLaunchKernel, "hipModuleLaunchKernel", 1),
		S(Memset, "hipMemset", 1), S(DeviceReset, "hipDeviceReset", 1),
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
	h->lib = gd_pc_dlopen(pc, names, gd_hip_lib_dirs, lib, lcap, searched,
			      sizeof searched);
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

static int hip_init(struct gd_pc *pc, struct gd_hip *h, const char *lib)
{
	int n = 0, drv = 0, rt = 0;
	char rts[32];
	hipError_t e;

	gd_pc_phase(pc, "hipInit");
	e = h->Init(0);
	h->RuntimeGetVersion(&rt);
	hip_version(rt, rts, sizeof rts);
	if (e) {
		char e2[200];

		gd_hip_err(h, e, e2, sizeof e2);
		gd_pc_phase(pc, "hipGetDeviceCount");
		e = h->GetDeviceCount(&n);
		if (e || !n) {
			char e3[200];

			gd_hip_err(h, e, e3, sizeof e3);
			gd_pc_end(pc, GD_PS_ERROR, 0,
				  "hipInit: %s; hipGetDeviceCount: %s; HIP "
				  "runtime %s, %s", e2, e3, rts, lib);
			return 0;
		}
	}
	gd_pc_phase(pc, "hipGetDeviceCount");
	e = h->GetDeviceCount(&n);
	if (e || n <= 0) {
		HIP_FAIL("hipGetDeviceCount", e);
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

/* One allocation op: device, pinned, non-coherent host, ext flags. */
static void hip_alloc_op(struct gd_pc *pc, struct gd_hip *h, int dev,
			 const char *op, int kind)
{
	size_t sz = 64u << 20;
	void *p = NULL;
	hipError_t e;
	static const char *const what[] = {
		"hipMalloc 64 MiB", "hipHostMalloc 64 MiB",
		"hipHostMalloc 64 MiB hipHostMallocNonCoherent",
		"hipExtMallocWithFlags 64 MiB hipDeviceMallocFinegrained"};

	if (!gd_pc_begin(pc, dev, op))
		return;
	if (kind == 3 && !h->ExtMallocWithFlags) {
		gd_pc_end(pc, GD_PS_MISSING, 0, "hipExtMallocWithFlags not exported");
		return;
	}
	gd_pc_phase(pc, "%s", what[kind]);
	e = kind == 0 ? h->Malloc(&p, sz)
	    : kind == 1 ? h->HostMalloc(&p, sz, 0)
	    : kind == 2 ? h->HostMalloc(&p, sz, GD_HIP_HOST_NONCOHERENT)
			: h->ExtMallocWithFlags(&p, sz, GD_HIP_DEVICE_FINEGRAINED);
	if (!e && (kind == 0 || kind == 3)) {
		gd_pc_phase(pc, "hipMemset %s", what[kind]);
		e = h->Memset(p, 0, sz); /* make a lazy allocation real */
		if (e)
			h->Free(p);
	}
	if (e) {
		HIP_FAIL(what[kind], e);
		return;
	}
	if (kind == 1 || kind == 2)
		memset(p, 0x5a, sz);
	gd_pc_end(pc, GD_PS_OK, 0, "%s", what[kind]);
	if (kind == 1 || kind == 2)
		h->HostFree(p);
	else
		h->Free(p);
}

static void hip_copy_ops(struct gd_pc *pc, struct gd_hip *h, int dev)
{
	size_t sz = 64u << 20;
	unsigned char *a = malloc(sz), *b = malloc(sz);
	void *d = NULL;
	hipError_t e;

	if (!a || !b || h->Malloc(&d, sz))
		goto out;
	for (size_t i = 0; i < sz; i++)
		a[i] = (unsigned char)(i * 7 + 1);
	if (gd_pc_begin(pc, dev, "copy_h2d")) {
		gd_pc_phase(pc, "hipMemcpy H2D 64 MiB pageable");
		if ((e = h->Memcpy(d, a, sz, GD_HIP_H2D)))
			HIP_FAIL("hipMemcpy H2D", e);
		else
			gd_pc_end(pc, GD_PS_OK, 0, "64 MiB pageable");
	}
	if (gd_pc_begin(pc, dev, "copy_d2h")) {
		gd_pc_phase(pc, "hipMemcpy D2H 64 MiB pageable");
		if ((e = h->Memcpy(b, d, sz, GD_HIP_D2H)))
			HIP_FAIL("hipMemcpy D2H", e);
		else
			gd_pc_end(pc, memcmp(a, b, sz) ? GD_PS_WRONG : GD_PS_OK,
				  0, "64 MiB, checked");
	}
	if (!pc->args->quick && gd_pc_begin(pc, dev, "copy_h2d_async")) {
		gd_pc_phase(pc, "hipMemcpyAsync + hipStreamSynchronize");
		a[12345] ^= 0xff;
		e = h->MemcpyAsync(d, a, sz, GD_HIP_H2D, h->stream);
		if (!e)
			e = h->MemcpyAsync(b, d, sz, GD_HIP_D2H, h->stream);
		if (!e)
			e = h->StreamSynchronize(h->stream);
		if (e)
			HIP_FAIL("hipMemcpyAsync", e);
		else
			gd_pc_end(pc, memcmp(a, b, sz) ? GD_PS_WRONG : GD_PS_OK,
				  0, "64 MiB, checked");
	}
out:
	if (d)
		h->Free(d);
	free(a);
	free(b);
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
	static const char *const names[] = {"libhiprtc.so.7", "libhiprtc.so.6",
					    "libhiprtc.so", NULL};
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
	l = gd_pc_dlopen(pc, names, gd_hip_lib_dirs, lib, sizeof lib, searched,
			 sizeof searched);
	if (l && !gd_pc_dlsym(l, syms, missing, sizeof missing))
		return 0;
	gd_fmt(why, cap, "hiprtc not in libamdhip64 and %s", l ? missing : searched);
	return -1;
}

/* hiprtc -> code object, or NULL with why (the compiler log). */
static char *hip_rtc(struct gd_pc *pc, struct gd_hip *h, char *why,
		     size_t cap)
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

static void hip_vector_add(struct gd_pc *pc, struct gd_hip *h)
{
	size_t sz = (size_t)N_VEC * 4;
	float *a = malloc(sz), *b = malloc(sz), *c = malloc(sz), *w = malloc(sz);
	void *da = NULL, *db = NULL, *dc = NULL;
	hipModule_t mod = NULL;
	hipFunction_t fn;
	unsigned n = N_VEC;
	void *args[] = {&da, &db, &dc, &n};
	char why[500] = "";
	hipError_t e;

	if (!a || !b || !c || !w) {
		gd_pc_end(pc, GD_PS_SKIPPED, 0, "out of memory");
		goto out;
	}
	gd_pc_fill_random(a, N_VEC, 1);
	gd_pc_fill_random(b, N_VEC, 2);
	for (int i = 0; i < N_VEC; i++)
		w[i] = a[i] + b[i];
	e = gd_hip_load_vector_add(pc, h, &mod, &fn, why, sizeof why);
	if (e && why[0] && !mod) {
		gd_pc_end(pc, GD_PS_ERROR, 0, "%s", why);
		goto out;
	}
	if (e || (e = h->Malloc(&da, sz)) || (e = h->Malloc(&db, sz)) ||
	    (e = h->Malloc(&dc, sz)) || (e = h->Memcpy(da, a, sz, GD_HIP_H2D)) ||
	    (e = h->Memcpy(db, b, sz, GD_HIP_H2D))) {
		HIP_FAIL("module/buffers", e);
		goto out;
	}
	gd_pc_phase(pc, "launch vector_add");
	e = h->ModuleLaunchKernel(fn, (N_VEC + 255) / 256, 1, 1, 256, 1, 1, 0,
				  h->stream, args, NULL);
	if (!e)
		e = h->StreamSynchronize(h->stream);
	if (!e)
		e = h->Memcpy(c, dc, sz, GD_HIP_D2H);
	if (e) {
		HIP_FAIL("hipModuleLaunchKernel", e);
		goto out;
	}
	{
		double err = gd_pc_max_rel_error(c, w, N_VEC);

		gd_pc_end(pc, err == 0 ? GD_PS_OK : GD_PS_WRONG, err,
			  "%d elements checked; hiprtc for %s", N_VEC, h->gfx);
	}
out:
	if (da)
		h->Free(da);
	if (db)
		h->Free(db);
	if (dc)
		h->Free(dc);
	if (mod)
		h->ModuleUnload(mod);
	free(a);
	free(b);
	free(c);
	free(w);
}

static void hip_device_ops(struct gd_pc *pc, struct gd_hip *h, int dev)
{
	hipError_t e;

	h->stream = NULL;
	h->dev = dev;
	gd_pc_phase(pc, "hipSetDevice %d", dev);
	e = h->SetDevice(dev);
	if (!e)
		e = h->StreamCreate(&h->stream);
	if (e) {
		char e2[200];

		gd_hip_err(h, e, e2, sizeof e2);
		gd_pc_skip(pc, dev, "alloc_device", GD_PS_ERROR, "%s", e2);
		return;
	}
	hip_gfx(h, dev, h->gfx, sizeof h->gfx);
	hip_alloc_op(pc, h, dev, "alloc_device", 0);
	if (!pc->args->quick) {
		hip_alloc_op(pc, h, dev, "alloc_pinned", 1);
		hip_alloc_op(pc, h, dev, "alloc_noncoherent", 2);
		hip_alloc_op(pc, h, dev, "alloc_ext_flags", 3);
	}
	hip_copy_ops(pc, h, dev);
	if (gd_pc_begin(pc, dev, "kernel_vector_add"))
		hip_vector_add(pc, h);
	gd_hip_gemm_ops(pc, h, dev);
	if (!pc->args->quick) {
		gd_hip_conv_op(pc, h, dev);
		if (gd_pc_begin(pc, dev, "context_cycle"))
			gd_hip_context_cycle(pc, h);
	}
	if (gd_pc_bench_begin(pc, dev)) {
		if (h->stream)
			gd_hip_bench(pc, h, dev);
		gd_pc_bench_end(pc);
	}
	if (h->stream)
		h->StreamDestroy(h->stream);
}

static int hip_run(struct gd_pc *pc)
{
	struct gd_hip h;
	char lib[256];
	int n;

	memset(&h, 0, sizeof h);
	gd_pc_begin_always(pc, -1, "init");
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
