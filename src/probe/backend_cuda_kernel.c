/* probe/backend_cuda_kernel: the run-time compiled kernel (NVRTC, or PTX
 * handed to the driver's JIT) and contexts from several threads. The
 * vector_add op and the copy/launch figures run it through the device
 * primitives (backend_cuda_dev.c, device.c). */
#include <stdlib.h>
#include <string.h>

#include "cuda_api.h"

static const char vadd_cu[] =
    "extern \"C\" __global__ void vector_add(const float *a, const float *b,\n"
    "                                        float *c, unsigned n)\n"
    "{\n"
    "  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) c[i] = a[i] + b[i];\n"
    "}\n";

/* Hand-written PTX of the same kernel; %s: .version, %s: .target. */
static const char vadd_ptx[] =
    ".version %s\n.target %s\n.address_size 64\n"
    ".visible .entry vector_add(.param .u64 pa, .param .u64 pb,\n"
    "    .param .u64 pc, .param .u32 pn)\n{\n"
    "  .reg .pred %%p<2>; .reg .b32 %%r<6>; .reg .f32 %%f<4>;\n"
    "  .reg .b64 %%rd<11>;\n"
    "  ld.param.u64 %%rd1, [pa]; ld.param.u64 %%rd2, [pb];\n"
    "  ld.param.u64 %%rd3, [pc]; ld.param.u32 %%r2, [pn];\n"
    "  mov.u32 %%r3, %%ctaid.x; mov.u32 %%r4, %%ntid.x; mov.u32 %%r5, "
    "%%tid.x;\n"
    "  mad.lo.s32 %%r1, %%r3, %%r4, %%r5;\n"
    "  setp.ge.u32 %%p1, %%r1, %%r2;\n"
    "  @%%p1 bra DONE;\n"
    "  cvta.to.global.u64 %%rd4, %%rd1; cvta.to.global.u64 %%rd5, %%rd2;\n"
    "  cvta.to.global.u64 %%rd6, %%rd3;\n"
    "  mul.wide.u32 %%rd7, %%r1, 4;\n"
    "  add.s64 %%rd8, %%rd4, %%rd7; add.s64 %%rd9, %%rd5, %%rd7;\n"
    "  add.s64 %%rd10, %%rd6, %%rd7;\n"
    "  ld.global.f32 %%f1, [%%rd8]; ld.global.f32 %%f2, [%%rd9];\n"
    "  add.f32 %%f3, %%f1, %%f2;\n"
    "  st.global.f32 [%%rd10], %%f3;\n"
    "DONE:\n  ret;\n}\n";

/* The PTX ISA version that introduced each target (PTX ISA docs, "PTX ISA
 * version" table); unknown devices get sm_75 PTX, which the driver JITs
 * forward to newer GPUs. */
static void cu_ptx_target(int ma, int mi, char *ver, char *target)
{
	static const struct {
		int cc;
		const char *v;
	} t[] = {
	    {75, "6.3"}, {80, "7.0"},  {86, "7.1"},  {87, "7.4"},  {89, "7.8"},
	    {90, "7.8"}, {100, "8.6"}, {101, "8.6"}, {120, "8.7"},
	};
	int cc = ma * 10 + mi;

	strcpy(ver, "6.3");
	strcpy(target, "sm_75");
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (t[i].cc == cc) {
			strcpy(ver, t[i].v);
			gd_fmt(target, 16, "sm_%d", cc);
		}
}

typedef int nvrtcResult;
typedef struct _nvrtcProgram *nvrtcProgram;

struct gd_nvrtc {
	nvrtcResult (*Create)(nvrtcProgram *, const char *, const char *, int,
			      const char *const *, const char *const *);
	nvrtcResult (*Compile)(nvrtcProgram, int, const char *const *);
	nvrtcResult (*PTXSize)(nvrtcProgram, size_t *);
	nvrtcResult (*PTX)(nvrtcProgram, char *);
	nvrtcResult (*LogSize)(nvrtcProgram, size_t *);
	nvrtcResult (*Log)(nvrtcProgram, char *);
	nvrtcResult (*Destroy)(nvrtcProgram *);
	const char *(*ErrStr)(nvrtcResult);
	nvrtcResult (*Version)(int *, int *);
};

/* NVRTC -> PTX text (malloc'd), or NULL with why. */
static char *cu_nvrtc(struct gd_pc *pc, const struct gd_cu *cu, char *why,
		      size_t cap)
{
	const char *const *names = gd_lib_names(GD_LIB_NVRTC);
	struct gd_nvrtc n;
	const struct gd_sym syms[] = {
	    {"nvrtcCreateProgram", (void **)&n.Create, 1},
	    {"nvrtcCompileProgram", (void **)&n.Compile, 1},
	    {"nvrtcGetPTXSize", (void **)&n.PTXSize, 1},
	    {"nvrtcGetPTX", (void **)&n.PTX, 1},
	    {"nvrtcGetProgramLogSize", (void **)&n.LogSize, 1},
	    {"nvrtcGetProgramLog", (void **)&n.Log, 1},
	    {"nvrtcDestroyProgram", (void **)&n.Destroy, 1},
	    {"nvrtcGetErrorString", (void **)&n.ErrStr, 1},
	    {"nvrtcVersion", (void **)&n.Version, 1},
	    {NULL, NULL, 0}};
	char lib[256], searched[700], missing[64], opt[64], log[300] = "";
	const char *opts[1] = {opt};
	nvrtcProgram prog = NULL;
	char *ptx = NULL;
	size_t sz = 0;
	int ma = 0, mi = 0;
	nvrtcResult r;
	void *h;

	gd_pc_phase(pc, "dlopen libnvrtc");
	h = gd_pc_dlopen(pc, names, gd_lib_dirs(GD_LIB_NVRTC), lib, sizeof lib,
			 searched, sizeof searched);
	if (!h || gd_pc_dlsym(h, syms, missing, sizeof missing)) {
		gd_fmt(why, cap, "NVRTC %s", h ? "lacks symbols" : "not found");
		return NULL;
	}
	n.Version(&ma, &mi);
	gd_fmt(opt, sizeof opt, "--gpu-architecture=compute_%d%d", cu->cc_major,
	       cu->cc_minor);
	gd_pc_phase(pc, "nvrtcCompileProgram vector_add (%s)", opt + 21);
	r = n.Create(&prog, vadd_cu, "vector_add.cu", 0, NULL, NULL);
	if (!r)
		r = n.Compile(prog, 1, opts);
	if (r) {
		size_t ls = 0;

		if (prog && !n.LogSize(prog, &ls) && ls && ls < sizeof log)
			n.Log(prog, log);
		gd_fmt(why, cap, "NVRTC %d.%d: %s %s", ma, mi, n.ErrStr(r),
		       log);
	} else if (!n.PTXSize(prog, &sz) && sz && (ptx = malloc(sz + 1))) {
		if (n.PTX(prog, ptx)) {
			free(ptx);
			ptx = NULL;
		} else {
			ptx[sz] = '\0';
			gd_fmt(why, cap, "NVRTC %d.%d (%s)", ma, mi, lib);
		}
	}
	if (prog)
		n.Destroy(&prog);
	return ptx;
}

CUresult gd_cu_load_vector_add(struct gd_pc *pc, struct gd_cu *cu,
			       CUmodule *mod, CUfunction *fn, char *how,
			       size_t cap)
{
	char why[400], ver[8], target[16], ptxbuf[2048];
	char *ptx = cu_nvrtc(pc, cu, why, sizeof why);
	CUresult r;

	if (ptx) {
		gd_pc_phase(pc, "cuModuleLoadData (NVRTC PTX)");
		r = cu->ModuleLoadData(mod, ptx);
		free(ptx);
		gd_strlcpy(how, why, cap);
		if (!r)
			return cu->ModuleGetFunction(fn, *mod, "vector_add");
		gd_fmt(why, sizeof why, "NVRTC PTX refused by the driver");
	}
	cu_ptx_target(cu->cc_major, cu->cc_minor, ver, target);
	gd_fmt(ptxbuf, sizeof ptxbuf, vadd_ptx, ver, target);
	gd_pc_phase(pc, "cuModuleLoadData (built-in PTX %s %s)", ver, target);
	gd_fmt(how, cap, "built-in PTX %s for %s, JIT by the driver (%s)", ver,
	       target, why);
	r = cu->ModuleLoadData(mod, ptxbuf);
	if (!r)
		r = cu->ModuleGetFunction(fn, *mod, "vector_add");
	return r;
}

/* One cycle of the "model switch": a context of our own, created, used
 * and destroyed on this thread. */
static long cu_cycle_once(struct gd_pc_cycle_thread *t, void *arg)
{
	struct gd_cu *cu = arg;
	CUcontext ctx;
	CUdeviceptr p;
	CUresult r;

	gd_pc_cycle_step(t, "cuCtxCreate_v2");
	if ((r = cu->CtxCreate(&ctx, 0, cu->dev)))
		return r;
	gd_pc_cycle_step(t, "cuMemAlloc in a new context");
	r = cu->MemAlloc(&p, 1 << 20);
	if (!r) {
		gd_pc_cycle_step(t, "cuMemsetD8 + cuCtxSynchronize");
		r = cu->MemsetD8(p, 1, 1 << 20);
		if (!r)
			r = cu->CtxSynchronize();
		cu->MemFree(p);
	}
	gd_pc_cycle_step(t, "cuCtxDestroy_v2");
	if (r) {
		cu->CtxDestroy(ctx);
		return r;
	}
	return cu->CtxDestroy(ctx);
}

/* The "model switch": contexts created, used and destroyed from 4
 * threads at once, for about 2 s (at least one cycle each). */
void gd_cu_context_cycle(struct gd_pc *pc, struct gd_cu *cu)
{
	struct gd_pc_cycler c;
	char e[200];

	memset(&c, 0, sizeof c);
	c.pc = pc;
	c.cycle = cu_cycle_once;
	c.arg = cu;
	c.budget_s = 2.0;
	c.nthreads = 4;
	gd_pc_cycle_run(&c);
	cu->CtxSetCurrent(cu->ctx);
	if (c.err_thread >= 0) {
		gd_cu_errstr(cu, (CUresult)c.err, e, sizeof e);
		gd_pc_end(pc, GD_PS_ERROR, 0, "thread %d cycle %d, %s: %s",
			  c.err_thread, c.err_cycle, c.err_what, e);
		return;
	}
	gd_pc_end(pc, GD_PS_OK, 0,
		  "%d contexts created, used and destroyed "
		  "from 4 threads in %.1f s",
		  c.cycles, c.seconds);
}
