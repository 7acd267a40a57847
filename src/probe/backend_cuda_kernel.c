/* probe/backend_cuda_kernel: the run-time compiled kernel (NVRTC, or PTX
 * handed to the driver's JIT), contexts from several threads, and the
 * copy/launch figures of `probe --bench`. */
#include <stdlib.h>
#include <string.h>

#include "cuda_api.h"

#define N_VEC (1 << 20)

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
	"  mov.u32 %%r3, %%ctaid.x; mov.u32 %%r4, %%ntid.x; mov.u32 %%r5, %%tid.x;\n"
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
	static const struct { int cc; const char *v; } t[] = {
		{75, "6.3"}, {80, "7.0"}, {86, "7.1"}, {87, "7.4"},
		{89, "7.8"}, {90, "7.8"}, {100, "8.6"}, {101, "8.6"},
		{120, "8.7"},
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
	static const char *const names[] = {"libnvrtc.so.13", "libnvrtc.so.12",
					    "libnvrtc.so.11.2", "libnvrtc.so",
					    NULL};
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
		{"nvrtcVersion", (void **)&n.Version, 1}, {NULL, NULL, 0}};
	char lib[256], searched[700], missing[64], opt[64], log[300] = "";
	const char *opts[1] = {opt};
	nvrtcProgram prog = NULL;
	char *ptx = NULL;
	size_t sz = 0;
	int ma = 0, mi = 0;
	nvrtcResult r;
	void *h;

	gd_pc_phase(pc, "dlopen libnvrtc");
	h = gd_pc_dlopen(pc, names, gd_cu_lib_dirs(), lib, sizeof lib,
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
		gd_fmt(why, cap, "NVRTC %d.%d: %s %s", ma, mi, n.ErrStr(r), log);
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

void gd_cu_vector_add(struct gd_pc *pc, struct gd_cu *cu)
{
	size_t sz = (size_t)N_VEC * 4;
	float *a = malloc(sz), *b = malloc(sz), *c = malloc(sz),
	      *want = malloc(sz);
	CUdeviceptr da = 0, db = 0, dc = 0;
	CUmodule mod = NULL;
	CUfunction fn;
	unsigned n = N_VEC;
	void *args[] = {&da, &db, &dc, &n};
	char how[500] = "", e[200];
	CUresult r = 2; /* CUDA_ERROR_OUT_OF_MEMORY */

	if (!a || !b || !c || !want)
		goto fail;
	gd_pc_fill_random(a, N_VEC, 1);
	gd_pc_fill_random(b, N_VEC, 2);
	for (int i = 0; i < N_VEC; i++)
		want[i] = a[i] + b[i];
	r = gd_cu_load_vector_add(pc, cu, &mod, &fn, how, sizeof how);
	if (r)
		goto fail;
	gd_pc_phase(pc, "launch vector_add");
	if ((r = cu->MemAlloc(&da, sz)) || (r = cu->MemAlloc(&db, sz)) ||
	    (r = cu->MemAlloc(&dc, sz)) || (r = cu->MemcpyHtoD(da, a, sz)) ||
	    (r = cu->MemcpyHtoD(db, b, sz)) || (r = cu->MemsetD8(dc, 0, sz)))
		goto fail;
	r = cu->LaunchKernel(fn, (N_VEC + 255) / 256, 1, 1, 256, 1, 1, 0,
			     cu->stream, args, NULL);
	if (!r) {
		gd_pc_phase(pc, "cuStreamSynchronize after vector_add");
		r = cu->StreamSynchronize(cu->stream);
	}
	if (!r)
		r = cu->MemcpyDtoH(c, dc, sz);
	if (r)
		goto fail;
	{
		double err = gd_pc_max_rel_error(c, want, N_VEC);

		gd_pc_end(pc, err == 0 ? GD_PS_OK : GD_PS_WRONG, err,
			  "%d elements checked; %s", N_VEC, how);
	}
	goto out;
fail:
	gd_cu_errstr(cu, r, e, sizeof e);
	gd_pc_end(pc, GD_PS_ERROR, 0, "%s%s%s", e, how[0] ? "; " : "", how);
out:
	if (da)
		cu->MemFree(da);
	if (db)
		cu->MemFree(db);
	if (dc)
		cu->MemFree(dc);
	if (mod)
		cu->ModuleUnload(mod);
	free(a);
	free(b);
	free(c);
	free(want);
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
	gd_pc_end(pc, GD_PS_OK, 0, "%d contexts created, used and destroyed "
		  "from 4 threads in %.1f s", c.cycles, c.seconds);
}

/* Median of reps async copies timed with events (after 2 warm-ups). */
static double cu_time_async(struct gd_cu *cu, int kind, CUdeviceptr dst,
			    CUdeviceptr src, void *host, size_t sz, int reps)
{
	double t[16];
	CUevent e0, e1;
	int ok = 1;

	if (cu->EventCreate(&e0, 0) || cu->EventCreate(&e1, 0))
		return -1;
	for (int i = -2; i < reps && ok; i++) {
		float ms = 0;
		CUresult r;

		cu->EventRecord(e0, cu->stream);
		r = kind == 0 ? cu->MemcpyDtoDAsync(dst, src, sz, cu->stream)
		    : kind == 1 ? cu->MemcpyHtoDAsync(dst, host, sz, cu->stream)
				: cu->MemcpyDtoHAsync(host, src, sz, cu->stream);
		cu->EventRecord(e1, cu->stream);
		ok = !r && !cu->EventSynchronize(e1) &&
		     !cu->EventElapsedTime(&ms, e0, e1);
		if (i >= 0)
			t[i] = ms * 1e-3;
	}
	cu->EventDestroy(e0);
	cu->EventDestroy(e1);
	return ok ? gd_pc_median(t, reps) : -1;
}

/* Pageable host -> device as PyTorch's tensor.copy_() does it: an async
 * copy (the driver stages it through its own pinned buffers) and a stream
 * synchronise, timed together on the wall clock; the pages are faulted in
 * first; 2 warm-ups, median of 10, as bench/torch_ref.py. */
static double cu_time_pageable(struct gd_cu *cu, CUdeviceptr dst, void *page,
			       size_t sz)
{
	double t[10];

	memset(page, 3, sz);
	for (int i = -2; i < 10; i++) {
		double t0 = gd_pc_now();

		if (cu->MemcpyHtoDAsync(dst, page, sz, cu->stream) ||
		    cu->StreamSynchronize(cu->stream))
			return -1;
		if (i >= 0)
			t[i] = gd_pc_now() - t0;
	}
	return gd_pc_median(t, 10);
}

static void cu_bench_copies(struct gd_pc *pc, struct gd_cu *cu, int dev)
{
	size_t big = 1ull << 30, hs = 256u << 20;
	CUdeviceptr a = 0, b = 0;
	void *pin = NULL, *page = NULL;
	double t;

	gd_pc_phase(pc, "bench: d2d 1 GiB");
	/* 64-byte aligned, as PyTorch's CPU allocator (c10 alloc_cpu) */
	if (posix_memalign(&page, 64, hs))
		page = NULL;
	if (cu->MemAlloc(&a, big) || cu->MemAlloc(&b, big) || !page)
		goto out;
	cu->MemsetD8(a, 1, big);
	t = cu_time_async(cu, 0, b, a, NULL, big, 10);
	if (t > 0)
		gd_pc_figure(pc, dev, "d2d_bandwidth", big / t / 1e9, "GB/s",
			     "cuMemcpyDtoDAsync 1 GiB, bytes counted once (memory traffic is 2x), CUDA events, median of 10");
	gd_pc_phase(pc, "bench: h2d/d2h pinned 256 MiB");
	if (!cu->MemAllocHost(&pin, hs)) {
		memset(pin, 2, hs);
		t = cu_time_async(cu, 1, a, 0, pin, hs, 10);
		if (t > 0)
			gd_pc_figure(pc, dev, "h2d_pinned", hs / t / 1e9, "GB/s",
				     "cuMemcpyHtoDAsync 256 MiB from cuMemAllocHost memory, CUDA events, median of 10");
		t = cu_time_async(cu, 2, 0, a, pin, hs, 10);
		if (t > 0)
			gd_pc_figure(pc, dev, "d2h_pinned", hs / t / 1e9, "GB/s",
				     "cuMemcpyDtoHAsync 256 MiB to cuMemAllocHost memory, CUDA events, median of 10");
	}
	gd_pc_phase(pc, "bench: h2d pageable 256 MiB");
	t = cu_time_pageable(cu, a, page, hs);
	if (t > 0)
		gd_pc_figure(pc, dev, "h2d_pageable", hs / t / 1e9, "GB/s",
			     "cuMemcpyHtoDAsync 256 MiB from pre-faulted malloc memory + cuStreamSynchronize, wall clock, median of 10");
out:
	if (a)
		cu->MemFree(a);
	if (b)
		cu->MemFree(b);
	if (pin)
		cu->MemFreeHost(pin);
	free(page);
}

/* Launch-to-completion: one tiny kernel, then cuStreamSynchronize. */
static void cu_bench_latency(struct gd_pc *pc, struct gd_cu *cu, int dev)
{
	CUmodule mod = NULL;
	CUfunction fn;
	CUdeviceptr p = 0;
	unsigned n = 1;
	void *args[] = {&p, &p, &p, &n};
	double t[200];
	char how[500];

	gd_pc_phase(pc, "bench: launch latency");
	if (gd_cu_load_vector_add(pc, cu, &mod, &fn, how, sizeof how) ||
	    cu->MemAlloc(&p, 4096))
		goto out;
	for (int i = -20; i < 200; i++) {
		double t0 = gd_pc_now();

		if (cu->LaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, cu->stream,
				     args, NULL) ||
		    cu->StreamSynchronize(cu->stream))
			goto out;
		if (i >= 0)
			t[i] = (gd_pc_now() - t0) * 1e6;
	}
	gd_pc_figure(pc, dev, "launch_latency", gd_pc_median(t, 200), "us",
		     "cuLaunchKernel of 1 block + cuStreamSynchronize (driver API, no framework dispatch), wall clock, median of 200");
out:
	if (p)
		cu->MemFree(p);
	if (mod)
		cu->ModuleUnload(mod);
}

void gd_cu_bench(struct gd_pc *pc, struct gd_cu *cu, int dev)
{
	cu_bench_copies(pc, cu, dev);
	cu_bench_latency(pc, cu, dev);
}
