/* probe/backend_hip_blas: hipBLAS and rocBLAS GEMMs on the HIP device,
 * each checked as the CUDA backend checks cuBLAS (A*I = A exactly, and
 * A*B against a CPU reference on random data), plus the GEMM rates of
 * `--bench`. The fp16 GEMM runs through both hipBLAS GemmEx ABIs as
 * separate ops, because the field reports met the difference: the v1
 * entry point (hipblasDatatype_t) accepted the wrong enum values silently
 * and failed at run time, the v2 one (hipDataType + hipblasComputeType_t)
 * worked. Types and enum values: hip_math_api.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "hip_math_api.h"

enum { K_SGEMM, K_EX_V1, K_EX_V2, K_ROC_SGEMM };

/* One way of running C = A*B (column-major n x n, alpha 1, beta 0). */
struct hgemm {
	int kind;
	int type;	/* element type, hipDataType numbering */
	const char *fn; /* for phases and details */
	gd_hipblas_gemmex_fn ex;
	struct gd_hipblas *hb;
	struct gd_rocblas *rb;
};

static void hb_status(const struct gd_hipblas *b, int st, char *buf, size_t cap)
{
	static const char *const names[] = {
	    "HIPBLAS_STATUS_SUCCESS",	     "HIPBLAS_STATUS_NOT_INITIALIZED",
	    "HIPBLAS_STATUS_ALLOC_FAILED",   "HIPBLAS_STATUS_INVALID_VALUE",
	    "HIPBLAS_STATUS_MAPPING_ERROR",  "HIPBLAS_STATUS_EXECUTION_FAILED",
	    "HIPBLAS_STATUS_INTERNAL_ERROR", "HIPBLAS_STATUS_NOT_SUPPORTED",
	    "HIPBLAS_STATUS_ARCH_MISMATCH",  "HIPBLAS_STATUS_HANDLE_IS_NULLPTR",
	    "HIPBLAS_STATUS_INVALID_ENUM",   "HIPBLAS_STATUS_UNKNOWN"};
	const char *n = st >= 0 && st < 12 ? names[st] : NULL;

	if (b && b->StatusToString && b->StatusToString(st))
		n = b->StatusToString(st);
	gd_fmt(buf, cap, "%s (%d)", n ? n : "hipblasStatus_t", st);
}

static void rb_status(const struct gd_rocblas *b, int st, char *buf, size_t cap)
{
	static const char *const names[] = {
	    "rocblas_status_success",
	    "rocblas_status_invalid_handle",
	    "rocblas_status_not_implemented",
	    "rocblas_status_invalid_pointer",
	    "rocblas_status_invalid_size",
	    "rocblas_status_memory_error",
	    "rocblas_status_internal_error",
	    "rocblas_status_perf_degraded",
	    "rocblas_status_size_query_mismatch",
	    "rocblas_status_size_increased",
	    "rocblas_status_size_unchanged",
	    "rocblas_status_invalid_value",
	    "rocblas_status_continue",
	    "rocblas_status_check_numerics_fail"};
	const char *n = st >= 0 && st < 14 ? names[st] : NULL;

	if (b->StatusToString && b->StatusToString(st))
		n = b->StatusToString(st);
	gd_fmt(buf, cap, "%s (%d)", n ? n : "rocblas_status", st);
}

/* "libhipblas.so.2" -> 2, through the symlink to the real file; 0 when the
 * name carries no version. */
static int so_major(const char *path)
{
	char real[4096];
	const char *p;

	if (!realpath(path, real))
		gd_strlcpy(real, path, sizeof real);
	p = strrchr(real, '/');
	p = strstr(p ? p : real, ".so.");
	return p ? atoi(p + 4) : 0;
}

/* Opens hipBLAS and makes a handle on the probe's stream. Returns a
 * status: OK, or MISSING/ERROR with why. */
static int hb_open(struct gd_pc *pc, struct gd_hip *h, struct gd_hipblas *b,
		   char *why, size_t cap)
{
	const char *const *names = gd_lib_names(GD_LIB_HIPBLAS);
	const struct gd_sym syms[] = {
	    {"hipblasCreate", (void **)&b->Create, 1},
	    {"hipblasDestroy", (void **)&b->Destroy, 1},
	    {"hipblasSetStream", (void **)&b->SetStream, 1},
	    {"hipblasSgemm", (void **)&b->Sgemm, 1},
	    {"hipblasGemmEx", (void **)&b->GemmEx, 0},
	    {"hipblasGemmEx_v2", (void **)&b->GemmExV2, 0},
	    {"hipblasStatusToString", (void **)&b->StatusToString, 0},
	    {NULL, NULL, 0}};
	char searched[700], missing[64], e[120];
	void *l;
	int st;

	memset(b, 0, sizeof *b);
	gd_pc_phase(pc, "dlopen libhipblas");
	l = gd_pc_dlopen(pc, names, gd_lib_dirs(GD_LIB_HIPBLAS), b->lib,
			 sizeof b->lib, searched, sizeof searched);
	if (!l) {
		gd_fmt(why, cap, "hipBLAS not found: %s", searched);
		return GD_PS_MISSING;
	}
	if (gd_pc_dlsym(l, syms, missing, sizeof missing)) {
		gd_fmt(why, cap, "%s lacks %s", b->lib, missing);
		return GD_PS_MISSING;
	}
	b->major = so_major(b->lib);
	gd_pc_phase(pc, "hipblasCreate");
	st = b->Create(&b->h);
	if (!st)
		st = b->SetStream(b->h, h->stream);
	if (st) {
		hb_status(b, st, e, sizeof e);
		gd_fmt(why, cap, "hipblasCreate/hipblasSetStream: %s; %s", e,
		       b->lib);
		return GD_PS_ERROR;
	}
	return GD_PS_OK;
}

static int rb_open(struct gd_pc *pc, struct gd_hip *h, struct gd_rocblas *b,
		   char *why, size_t cap)
{
	const char *const *names = gd_lib_names(GD_LIB_ROCBLAS);
	const struct gd_sym syms[] = {
	    {"rocblas_create_handle", (void **)&b->Create, 1},
	    {"rocblas_destroy_handle", (void **)&b->Destroy, 1},
	    {"rocblas_set_stream", (void **)&b->SetStream, 1},
	    {"rocblas_sgemm", (void **)&b->Sgemm, 1},
	    {"rocblas_status_to_string", (void **)&b->StatusToString, 0},
	    {"rocblas_get_version_string", (void **)&b->VersionString, 0},
	    {NULL, NULL, 0}};
	char searched[700], missing[64], e[120];
	void *l;
	int st;

	memset(b, 0, sizeof *b);
	gd_pc_phase(pc, "dlopen librocblas");
	l = gd_pc_dlopen(pc, names, gd_lib_dirs(GD_LIB_ROCBLAS), b->lib,
			 sizeof b->lib, searched, sizeof searched);
	if (!l) {
		gd_fmt(why, cap, "rocBLAS not found: %s", searched);
		return GD_PS_MISSING;
	}
	if (gd_pc_dlsym(l, syms, missing, sizeof missing)) {
		gd_fmt(why, cap, "%s lacks %s", b->lib, missing);
		return GD_PS_MISSING;
	}
	/* rocBLAS loads its Tensile kernels for the GPU here: a rocBLAS
	 * without kernels for this gfx fails (or aborts) in this call */
	gd_pc_phase(pc, "rocblas_create_handle (%s)", h->gfx);
	st = b->Create(&b->h);
	if (!st)
		st = b->SetStream(b->h, h->stream);
	if (st) {
		rb_status(b, st, e, sizeof e);
		gd_fmt(why, cap, "rocblas_create_handle/set_stream: %s; %s", e,
		       b->lib);
		return GD_PS_ERROR;
	}
	return GD_PS_OK;
}

static int hgemm_call(const struct hgemm *g, int n, const void *A,
		      const void *B, void *C)
{
	const float one = 1.0f, zero = 0.0f;
	int t = g->type, v1 = t == GD_HIP_R_32F	  ? GD_HIPBLAS_R_32F
			      : t == GD_HIP_R_16F ? GD_HIPBLAS_R_16F
						  : GD_HIPBLAS_R_16B;

	switch (g->kind) {
	case K_SGEMM:
		return g->hb->Sgemm(g->hb->h, GD_HIPBLAS_OP_N, GD_HIPBLAS_OP_N,
				    n, n, n, &one, A, n, B, n, &zero, C, n);
	case K_EX_V1: /* hipblasDatatype_t everywhere, compute R_32F */
		return g->ex(g->hb->h, GD_HIPBLAS_OP_N, GD_HIPBLAS_OP_N, n, n,
			     n, &one, A, v1, n, B, v1, n, &zero, C, v1, n,
			     GD_HIPBLAS_R_32F, GD_HIPBLAS_GEMM_DEFAULT);
	case K_EX_V2: /* hipDataType, hipblasComputeType_t */
		return g->ex(g->hb->h, GD_HIPBLAS_OP_N, GD_HIPBLAS_OP_N, n, n,
			     n, &one, A, t, n, B, t, n, &zero, C, t, n,
			     GD_HIPBLAS_COMPUTE_32F, GD_HIPBLAS_GEMM_DEFAULT);
	default:
		return g->rb->Sgemm(g->rb->h, GD_ROCBLAS_OP_NONE,
				    GD_ROCBLAS_OP_NONE, n, n, n, &one, A, n, B,
				    n, &zero, C, n);
	}
}

static void hgemm_status(const struct hgemm *g, int st, char *buf, size_t cap)
{
	if (g->kind == K_ROC_SGEMM)
		rb_status(g->rb, st, buf, cap);
	else
		hb_status(g->hb, st, buf, cap);
}

/* The vendor's element type as the shared helpers name it. */
static enum gd_pc_elem elem_of(int type)
{
	return type == GD_HIP_R_32F   ? GD_PC_F32
	       : type == GD_HIP_R_16F ? GD_PC_F16
				      : GD_PC_BF16;
}

struct gemm_bufs {
	struct gd_pc_gemm_host h;
	void *da, *did, *db, *dc;
};

static void gemm_bufs_free(struct gd_hip *h, struct gemm_bufs *g)
{
	gd_pc_gemm_host_free(&g->h);
	if (g->da)
		h->Free(g->da);
	if (g->did)
		h->Free(g->did);
	if (g->db)
		h->Free(g->db);
	if (g->dc)
		h->Free(g->dc);
}

/* Random A, B and the identity on the host and the device. */
static hipError_t gemm_bufs_make(struct gd_hip *h, struct gemm_bufs *g, int n,
				 int type)
{
	size_t bytes;
	hipError_t e;

	if (gd_pc_gemm_host_make(&g->h, n, elem_of(type)) < 0)
		return 2; /* hipErrorOutOfMemory */
	bytes = g->h.nn * g->h.es;
	if ((e = h->Malloc(&g->da, bytes)) || (e = h->Malloc(&g->did, bytes)) ||
	    (e = h->Malloc(&g->db, bytes)) || (e = h->Malloc(&g->dc, bytes)) ||
	    (e = h->Memcpy(g->da, g->h.ta, bytes, GD_HIP_H2D)) ||
	    (e = h->Memcpy(g->did, g->h.tid, bytes, GD_HIP_H2D)))
		return e;
	return h->Memcpy(g->db, g->h.tb, bytes, GD_HIP_H2D);
}

/* C = X*Y on the device, then back to the host as floats in h.c. */
static int gemm_run(struct gd_hip *h, const struct hgemm *gm,
		    struct gemm_bufs *g, void *X, void *Y, hipError_t *he)
{
	int st = hgemm_call(gm, g->h.n, X, Y, g->dc);

	*he = 0;
	if (!st && !(*he = h->StreamSynchronize(h->stream)) &&
	    !(*he = h->Memcpy(g->h.tc, g->dc, g->h.nn * g->h.es, GD_HIP_D2H)))
		gd_pc_from_elem(g->h.tc, g->h.c, g->h.nn, g->h.t);
	return st;
}

/* One checked GEMM op: A*I = A (exact) and A*B against the CPU. */
static void gemm_check(struct gd_pc *pc, struct gd_hip *h,
		       const struct hgemm *gm, const char *lib)
{
	const int n = 256;
	struct gemm_bufs g;
	hipError_t he;
	double e_id;
	char e[200];
	int st;

	memset(&g, 0, sizeof g);
	if ((he = gemm_bufs_make(h, &g, n, gm->type))) {
		gd_hip_err(h, he, e, sizeof e);
		gd_pc_end(pc, GD_PS_ERROR, 0, "buffers: %s", e);
		goto out;
	}
	gd_pc_phase(pc, "%s %d (A*I)", gm->fn, n);
	st = gemm_run(h, gm, &g, g.da, g.did, &he);
	e_id = gd_pc_max_rel_error(g.h.c, g.h.a, g.h.nn);
	gd_pc_phase(pc, "%s %d (A*B)", gm->fn, n);
	if (!st && !he)
		st = gemm_run(h, gm, &g, g.da, g.db, &he);
	if (st || he) {
		if (st)
			hgemm_status(gm, st, e, sizeof e);
		else
			gd_hip_err(h, he, e, sizeof e);
		gd_pc_end(pc, GD_PS_ERROR, 0, "%s: %s; %s", gm->fn, e, lib);
		goto out;
	}
	gd_pc_gemm_verdict(pc, &g.h, e_id, gm->fn, lib);
out:
	gemm_bufs_free(h, &g);
}

/* Which GemmEx entry point takes which types (hip_math_api.h): NULL
 * with why when this hipBLAS has none for the ABI asked. */
static gd_hipblas_gemmex_fn hb_ex(const struct gd_hipblas *b, int v2, char *why,
				  size_t cap)
{
	if (!v2 && b->major >= 3) {
		gd_fmt(why, cap,
		       "hipBLAS %d (ROCm 7+) removed the "
		       "hipblasDatatype_t API: its hipblasGemmEx takes "
		       "hipDataType and is probed as gemm_fp16; %s",
		       b->major, b->lib);
		return NULL;
	}
	if (v2 && b->GemmExV2)
		return b->GemmExV2;
	if (v2 && b->major >= 3 && b->GemmEx)
		return b->GemmEx;
	if (!v2 && b->GemmEx)
		return b->GemmEx;
	gd_fmt(why, cap, "%s has no %s%s", b->lib,
	       v2 ? "hipblasGemmEx_v2" : "hipblasGemmEx",
	       v2 ? " (hipBLAS before 2.0 / ROCm 6.0 has only the "
		    "hipblasDatatype_t API: see gemm_fp16_ex_v1)"
		  : "");
	return NULL;
}

/* gemm_fp32_rocblas: rocBLAS on its own, below hipBLAS. */
static void hip_rocblas_op(struct gd_pc *pc, struct gd_hip *h, int dev)
{
	struct gd_rocblas rb;
	char why[1000], lib[300], ver[64] = "";
	int opened;
	struct hgemm gm = {K_ROC_SGEMM, GD_HIP_R_32F, "rocblas_sgemm",
			   NULL,	NULL,	      &rb};

	if (!gd_pc_begin(pc, dev, GD_OP_GEMM_FP32_ROCBLAS))
		return;
	opened = rb_open(pc, h, &rb, why, sizeof why);
	if (opened != GD_PS_OK) {
		gd_pc_end(pc, (enum gd_probe_status)opened, 0, "%s", why);
		return;
	}
	if (rb.VersionString)
		rb.VersionString(ver, sizeof ver);
	gd_fmt(lib, sizeof lib, "rocBLAS %s, %s", ver[0] ? ver : "?", rb.lib);
	gemm_check(pc, h, &gm, lib);
	rb.Destroy(rb.h);
}

void gd_hip_gemm_ops(struct gd_pc *pc, struct gd_hip *h, int dev)
{
	static const struct {
		enum gd_op op;
		const char *fn;
		int kind, type;
	} ops[] = {
	    {GD_OP_GEMM_FP32, "hipblasSgemm", K_SGEMM, GD_HIP_R_32F},
	    {GD_OP_GEMM_FP16_EX_V1, "hipblasGemmEx fp16 (hipblasDatatype_t)",
	     K_EX_V1, GD_HIP_R_16F},
	    {GD_OP_GEMM_FP16, "hipblasGemmEx_v2 fp16 (hipDataType)", K_EX_V2,
	     GD_HIP_R_16F},
	    {GD_OP_GEMM_BF16, "hipblasGemmEx_v2 bf16 (hipDataType)", K_EX_V2,
	     GD_HIP_R_16BF},
	};
	struct gd_hipblas b;
	char why[1000];
	int opened = -1;

	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		struct hgemm gm = {ops[i].kind, ops[i].type, ops[i].fn,
				   NULL,	&b,	     NULL};

		if (!gd_pc_begin(pc, dev, ops[i].op))
			continue;
		if (opened < 0)
			opened = hb_open(pc, h, &b, why, sizeof why);
		if (opened != GD_PS_OK) {
			gd_pc_end(pc, (enum gd_probe_status)opened, 0, "%s",
				  why);
			continue;
		}
		if (gm.kind != K_SGEMM &&
		    !(gm.ex = hb_ex(&b, gm.kind == K_EX_V2, why, sizeof why))) {
			gd_pc_end(pc,
				  b.major >= 3 ? GD_PS_SKIPPED : GD_PS_MISSING,
				  0, "%s", why);
			continue;
		}
		if (gm.kind == K_EX_V2 && !b.GemmExV2)
			gm.fn =
			    ops[i].type == GD_HIP_R_16F
				? "hipblasGemmEx fp16 (hipBLAS 3, hipDataType)"
				: "hipblasGemmEx bf16 (hipBLAS 3, hipDataType)";
		gemm_check(pc, h, &gm, b.lib);
	}
	if (opened == GD_PS_OK)
		b.Destroy(b.h);
	hip_rocblas_op(pc, h, dev);
}

struct hgemm_bench {
	const struct hgemm *gm;
	int n;
	void *A, *B, *C;
};

static int hgemm_once(void *arg)
{
	struct hgemm_bench *x = arg;

	return hgemm_call(x->gm, x->n, x->A, x->B, x->C);
}

/* GEMM rate at n = 4096 (consumer GPUs: a 8192 fp32 GEMM would take the
 * whole 2 s budget), hipEvents, median of 10 after 3 warm-ups. */
void gd_hip_gemm_bench(struct gd_pc *pc, struct gd_hip *h, int dev)
{
	static const struct {
		const char *name;
		int type;
	} t[] = {
	    {"gemm_fp32_rate", GD_HIP_R_32F},
	    {"gemm_fp16_rate", GD_HIP_R_16F},
	    {"gemm_bf16_rate", GD_HIP_R_16BF},
	};
	struct hgemm_bench x = {NULL, 4096, NULL, NULL, NULL};
	size_t bytes = (size_t)x.n * x.n * 4;
	struct gd_hipblas b;
	char why[1000], note[160];

	if (hb_open(pc, h, &b, why, sizeof why) != GD_PS_OK)
		return;
	if (h->Malloc(&x.A, bytes) || h->Malloc(&x.B, bytes) ||
	    h->Malloc(&x.C, bytes))
		goto out;
	h->Memset(x.A, 0x3c, bytes); /* small finite values in every type */
	h->Memset(x.B, 0x3c, bytes);
	for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
		struct hgemm gm = {t[k].type == GD_HIP_R_32F ? K_SGEMM
							     : K_EX_V2,
				   t[k].type,
				   t[k].name,
				   NULL,
				   &b,
				   NULL};
		double s;

		if (gm.kind == K_EX_V2 &&
		    !(gm.ex = hb_ex(&b, 1, why, sizeof why)))
			continue;
		gd_pc_phase(pc, "bench: %s %d", t[k].name, x.n);
		x.gm = &gm;
		s = gd_dev_time(&gd_hip_devops, h, hgemm_once, &x, 3, 10);
		if (s <= 0)
			continue;
		gd_fmt(note, sizeof note,
		       "%s n=%d, 2n^3 flops, compute 32F, "
		       "hipEvents, median of 10",
		       gm.kind == K_SGEMM ? "hipblasSgemm"
					  : "hipblasGemmEx(_v2)",
		       x.n);
		gd_pc_figure(pc, dev, t[k].name,
			     2.0 * x.n * x.n * (double)x.n / s / 1e12,
			     "TFLOP/s", note);
	}
out:
	if (x.A)
		h->Free(x.A);
	if (x.B)
		h->Free(x.B);
	if (x.C)
		h->Free(x.C);
	b.Destroy(b.h);
}
