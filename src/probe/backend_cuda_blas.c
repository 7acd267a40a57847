/* probe/backend_cuda_blas: cuBLAS GEMM (checked with A*I = A and against a
 * CPU reference on random data), the GEMM rate of `--bench`, and a cuDNN
 * forward convolution checked against a CPU reference. cuBLAS 11+ API
 * (cublasGemmEx with cublasComputeType_t); cuDNN 7-9 legacy conv API. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_api.h"
#include "device.h"

typedef struct cublasContext *cublasHandle_t;
enum { GD_R_32F = 0, GD_R_16F = 2, GD_R_16BF = 14 }; /* cudaDataType */
#define GD_CUBLAS_COMPUTE_32F 68
#define GD_CUBLAS_GEMM_DEFAULT (-1)

struct gd_cublas {
	int (*Create)(cublasHandle_t *);
	int (*Destroy)(cublasHandle_t);
	int (*SetStream)(cublasHandle_t, CUstream);
	int (*GetVersion)(cublasHandle_t, int *);
	int (*Sgemm)(cublasHandle_t, int, int, int, int, int, const float *,
		     const float *, int, const float *, int, const float *,
		     float *, int);
	int (*GemmEx)(cublasHandle_t, int, int, int, int, int, const void *,
		      const void *, int, int, const void *, int, int,
		      const void *, void *, int, int, int, int);
	const char *(*StatusName)(int); /* cuBLAS 11.4+, optional */
	cublasHandle_t h;
	char lib[256];
	int version;
};

static void blas_err(const struct gd_cublas *b, int st, char *buf, size_t cap)
{
	gd_fmt(buf, cap, "%s (%d)",
	       b->StatusName ? b->StatusName(st) : "cublasStatus_t", st);
}

/* Opens cuBLAS and makes a handle; on failure ends (or skips) the op. */
static int blas_open(struct gd_pc *pc, struct gd_cu *cu, struct gd_cublas *b,
		     char *why, size_t cap)
{
	const char *const *names = gd_lib_names(GD_LIB_CUBLAS);
	const struct gd_sym syms[] = {
	    {"cublasCreate_v2", (void **)&b->Create, 1},
	    {"cublasDestroy_v2", (void **)&b->Destroy, 1},
	    {"cublasSetStream_v2", (void **)&b->SetStream, 1},
	    {"cublasGetVersion_v2", (void **)&b->GetVersion, 1},
	    {"cublasSgemm_v2", (void **)&b->Sgemm, 1},
	    {"cublasGemmEx", (void **)&b->GemmEx, 1},
	    {"cublasGetStatusName", (void **)&b->StatusName, 0},
	    {NULL, NULL, 0}};
	char searched[900], missing[64];
	void *h;
	int st;

	memset(b, 0, sizeof *b);
	gd_pc_phase(pc, "dlopen libcublas");
	h = gd_pc_dlopen(pc, names, gd_lib_dirs(GD_LIB_CUBLAS), b->lib,
			 sizeof b->lib, searched, sizeof searched);
	if (!h) {
		gd_fmt(why, cap, "cuBLAS not found: %s", searched);
		return GD_PS_MISSING;
	}
	if (gd_pc_dlsym(h, syms, missing, sizeof missing)) {
		gd_fmt(why, cap, "%s lacks %s", b->lib, missing);
		return GD_PS_MISSING;
	}
	gd_pc_phase(pc, "cublasCreate_v2");
	st = b->Create(&b->h);
	if (!st)
		st = b->SetStream(b->h, cu->stream);
	if (st) {
		char e[120];

		blas_err(b, st, e, sizeof e);
		gd_fmt(why, cap, "cublasCreate: %s; %s", e, b->lib);
		return GD_PS_ERROR;
	}
	b->GetVersion(b->h, &b->version);
	return GD_PS_OK;
}

/* The vendor's element type as the shared helpers name it. */
static enum gd_pc_elem elem_of(int type)
{
	return type == GD_R_32F	  ? GD_PC_F32
	       : type == GD_R_16F ? GD_PC_F16
				  : GD_PC_BF16;
}

static int gemm_call(struct gd_cublas *b, int type, int n, CUdeviceptr A,
		     CUdeviceptr B, CUdeviceptr C)
{
	const float one = 1.0f, zero = 0.0f;

	if (type == GD_R_32F)
		return b->Sgemm(b->h, 0, 0, n, n, n, &one,
				(const float *)(uintptr_t)A, n,
				(const float *)(uintptr_t)B, n, &zero,
				(float *)(uintptr_t)C, n);
	return b->GemmEx(b->h, 0, 0, n, n, n, &one, (const void *)(uintptr_t)A,
			 type, n, (const void *)(uintptr_t)B, type, n, &zero,
			 (void *)(uintptr_t)C, type, n, GD_CUBLAS_COMPUTE_32F,
			 GD_CUBLAS_GEMM_DEFAULT);
}

struct gemm_bufs {
	struct gd_pc_gemm_host h;
	CUdeviceptr da, did, db, dc;
};

static void gemm_bufs_free(struct gd_cu *cu, struct gemm_bufs *g)
{
	gd_pc_gemm_host_free(&g->h);
	if (g->da)
		cu->MemFree(g->da);
	if (g->did)
		cu->MemFree(g->did);
	if (g->db)
		cu->MemFree(g->db);
	if (g->dc)
		cu->MemFree(g->dc);
}

/* C = X*Y on the device, back to the host as floats in h.c. */
static int gemm_run(struct gd_cu *cu, struct gd_cublas *b, int type,
		    struct gemm_bufs *g, CUdeviceptr X, CUdeviceptr Y)
{
	int st = gemm_call(b, type, g->h.n, X, Y, g->dc);

	if (!st && !cu->StreamSynchronize(cu->stream) &&
	    !cu->MemcpyDtoH(g->h.tc, g->dc, g->h.nn * g->h.es))
		gd_pc_from_elem(g->h.tc, g->h.c, g->h.nn, g->h.t);
	return st;
}

/* One checked GEMM op: A*I = A (exact) and A*B against the CPU. */
static void gemm_check(struct gd_pc *pc, struct gd_cu *cu, struct gd_cublas *b,
		       int type, const char *fn)
{
	struct gemm_bufs g;
	size_t bytes;
	char e[200];
	double e_id;
	CUresult r;
	int st;

	memset(&g, 0, sizeof g);
	if (gd_pc_gemm_host_make(&g.h, 256, elem_of(type)) < 0) {
		gd_pc_end(pc, GD_PS_ERROR, 0, "buffers: out of host memory");
		goto out;
	}
	bytes = g.h.nn * g.h.es;
	if ((r = cu->MemAlloc(&g.da, bytes)) ||
	    (r = cu->MemAlloc(&g.did, bytes)) ||
	    (r = cu->MemAlloc(&g.db, bytes)) ||
	    (r = cu->MemAlloc(&g.dc, bytes)) ||
	    (r = cu->MemcpyHtoD(g.da, g.h.ta, bytes)) ||
	    (r = cu->MemcpyHtoD(g.did, g.h.tid, bytes)) ||
	    (r = cu->MemcpyHtoD(g.db, g.h.tb, bytes))) {
		gd_cu_errstr(cu, r, e, sizeof e);
		gd_pc_end(pc, GD_PS_ERROR, 0, "buffers: %s", e);
		goto out;
	}
	gd_pc_phase(pc, "%s %d (A*I)", fn, g.h.n);
	st = gemm_run(cu, b, type, &g, g.da, g.did);
	e_id = gd_pc_max_rel_error(g.h.c, g.h.a, g.h.nn);
	gd_pc_phase(pc, "%s %d (A*B)", fn, g.h.n);
	if (!st)
		st = gemm_run(cu, b, type, &g, g.da, g.db);
	if (st) {
		blas_err(b, st, e, sizeof e);
		gd_pc_end(pc, GD_PS_ERROR, 0, "%s: %s; %s", fn, e, b->lib);
		goto out;
	}
	gd_fmt(e, sizeof e, "cuBLAS %d, %s", b->version, b->lib);
	gd_pc_gemm_verdict(pc, &g.h, e_id, fn, e);
out:
	gemm_bufs_free(cu, &g);
}

void gd_cu_gemm_ops(struct gd_pc *pc, struct gd_cu *cu, int dev)
{
	static const struct {
		enum gd_op op;
		const char *fn;
		int type;
	} ops[] = {
	    {GD_OP_GEMM_FP32, "cublasSgemm_v2", GD_R_32F},
	    {GD_OP_GEMM_FP16, "cublasGemmEx fp16", GD_R_16F},
	    {GD_OP_GEMM_BF16, "cublasGemmEx bf16", GD_R_16BF},
	};
	struct gd_cublas b;
	char why[1000];
	int opened = -1;

	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		if (!gd_pc_begin(pc, dev, ops[i].op))
			continue;
		if (opened < 0)
			opened = blas_open(pc, cu, &b, why, sizeof why);
		if (opened != GD_PS_OK) {
			gd_pc_end(pc, (enum gd_probe_status)opened, 0, "%s",
				  why);
			continue;
		}
		gemm_check(pc, cu, &b, ops[i].type, ops[i].fn);
	}
	if (opened == GD_PS_OK)
		b.Destroy(b.h);
}

struct gemm_bench {
	struct gd_cublas *b;
	int type, n;
	CUdeviceptr A, B, C;
};

static int gemm_once(void *arg)
{
	struct gemm_bench *x = arg;

	return gemm_call(x->b, x->type, x->n, x->A, x->B, x->C);
}

/* GEMM rate at n = 8192, CUDA events (the device timer of the
 * primitives), median of 10 after 3 warm-ups. */
void gd_cu_gemm_bench(struct gd_pc *pc, struct gd_cu *cu, int dev)
{
	static const struct {
		const char *name;
		int type;
	} t[] = {
	    {"gemm_fp32_rate", GD_R_32F},
	    {"gemm_fp16_rate", GD_R_16F},
	    {"gemm_bf16_rate", GD_R_16BF},
	};
	struct gd_cublas b;
	struct gemm_bench x = {&b, 0, 8192, 0, 0, 0};
	size_t bytes = (size_t)x.n * x.n * 4;
	char why[1000], note[160];

	if (blas_open(pc, cu, &b, why, sizeof why) != GD_PS_OK)
		return;
	if (cu->MemAlloc(&x.A, bytes) || cu->MemAlloc(&x.B, bytes) ||
	    cu->MemAlloc(&x.C, bytes))
		goto out;
	cu->MemsetD8(x.A, 0x3c, bytes); /* 0x3c3c...: small finite values in */
	cu->MemsetD8(x.B, 0x3c, bytes); /* fp32, fp16 (1.06) and bf16 (0.011) */
	for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
		double s;

		gd_pc_phase(pc, "bench: %s %d", t[k].name, x.n);
		x.type = t[k].type;
		s = gd_dev_time(&gd_cu_devops, cu, gemm_once, &x, 3, 10);
		if (s <= 0)
			continue;
		gd_fmt(note, sizeof note,
		       "%s n=%d, 2n^3 flops, compute 32F, "
		       "CUDA events, median of 10",
		       t[k].type == GD_R_32F ? "cublasSgemm" : "cublasGemmEx",
		       x.n);
		gd_pc_figure(pc, dev, t[k].name,
			     2.0 * x.n * x.n * (double)x.n / s / 1e12,
			     "TFLOP/s", note);
	}
out:
	if (x.A)
		cu->MemFree(x.A);
	if (x.B)
		cu->MemFree(x.B);
	if (x.C)
		cu->MemFree(x.C);
	b.Destroy(b.h);
}
