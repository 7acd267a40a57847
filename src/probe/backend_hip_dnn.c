/* probe/backend_hip_dnn: one MIOpen forward convolution, checked against
 * the same CPU reference as cuDNN's (gd_pc_ref_conv). MIOpen needs a Find
 * step before the convolution; that is where the field reports saw it
 * hang (compiling kernels for an unsupported gfx1010), so it is its own
 * phase. MIOPEN_FIND_MODE comes from `--miopen-find-mode`: the parent puts
 * it in this child's environment before anything loads MIOpen. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hip_math_api.h"

enum {
	NB = GD_CONV_N,
	CH = GD_CONV_C,
	HW = GD_CONV_HW,
	K = GD_CONV_K,
	R = GD_CONV_R
};

static int mi_load(struct gd_pc *pc, struct gd_miopen *m, char *why, size_t cap)
{
	const char *const *names = gd_lib_names(GD_LIB_MIOPEN);
	const struct gd_sym syms[] = {
	    {"miopenCreate", (void **)&m->Create, 1},
	    {"miopenDestroy", (void **)&m->Destroy, 1},
	    {"miopenSetStream", (void **)&m->SetStream, 1},
	    {"miopenGetVersion", (void **)&m->GetVersion, 1},
	    {"miopenGetErrorString", (void **)&m->ErrStr, 1},
	    {"miopenCreateTensorDescriptor", (void **)&m->CreateTensor, 1},
	    {"miopenSet4dTensorDescriptor", (void **)&m->Set4dTensor, 1},
	    {"miopenDestroyTensorDescriptor", (void **)&m->DestroyTensor, 1},
	    {"miopenCreateConvolutionDescriptor", (void **)&m->CreateConv, 1},
	    {"miopenInitConvolutionDescriptor", (void **)&m->InitConv, 1},
	    {"miopenDestroyConvolutionDescriptor", (void **)&m->DestroyConv, 1},
	    {"miopenConvolutionForwardGetWorkSpaceSize", (void **)&m->FwdWsSize,
	     1},
	    {"miopenFindConvolutionForwardAlgorithm", (void **)&m->FindFwd, 1},
	    {"miopenConvolutionForward", (void **)&m->Forward, 1},
	    {NULL, NULL, 0}};
	char searched[700], missing[64];
	void *l;

	gd_pc_phase(pc, "dlopen libMIOpen");
	l = gd_pc_dlopen(pc, names, gd_lib_dirs(GD_LIB_MIOPEN), m->lib,
			 sizeof m->lib, searched, sizeof searched);
	if (!l) {
		gd_fmt(why, cap, "MIOpen not found: %s", searched);
		return -1;
	}
	if (gd_pc_dlsym(l, syms, missing, sizeof missing)) {
		gd_fmt(why, cap, "%s lacks %s", m->lib, missing);
		return -1;
	}
	return 0;
}

struct mi_run {
	miopenHandle_t h;
	miopenTensorDescriptor_t xd, wd, yd;
	miopenConvolutionDescriptor_t cd;
	void *x, *w, *y, *ws;
	size_t ws_size;
	int algo;
};

/* Handle and descriptors; returns the failing call's name, or NULL. */
static const char *mi_setup(struct gd_hip *hp, struct gd_miopen *m,
			    struct mi_run *c, int *st)
{
#define TRY(call, name)                                                        \
	if ((*st = (call)))                                                    \
		return name;
	TRY(m->Create(&c->h), "miopenCreate");
	TRY(m->SetStream(c->h, hp->stream), "miopenSetStream");
	TRY(m->CreateTensor(&c->xd), "miopenCreateTensorDescriptor");
	TRY(m->CreateTensor(&c->wd), "miopenCreateTensorDescriptor");
	TRY(m->CreateTensor(&c->yd), "miopenCreateTensorDescriptor");
	TRY(m->CreateConv(&c->cd), "miopenCreateConvolutionDescriptor");
	TRY(m->Set4dTensor(c->xd, GD_MIOPEN_FLOAT, NB, CH, HW, HW),
	    "miopenSet4dTensorDescriptor x");
	TRY(m->Set4dTensor(c->wd, GD_MIOPEN_FLOAT, K, CH, R, R),
	    "miopenSet4dTensorDescriptor w");
	TRY(m->Set4dTensor(c->yd, GD_MIOPEN_FLOAT, NB, K, HW, HW),
	    "miopenSet4dTensorDescriptor y");
	TRY(m->InitConv(c->cd, GD_MIOPEN_CONVOLUTION, 1, 1, 1, 1, 1, 1),
	    "miopenInitConvolutionDescriptor");
	TRY(m->FwdWsSize(c->h, c->wd, c->xd, c->cd, c->yd, &c->ws_size),
	    "miopenConvolutionForwardGetWorkSpaceSize");
#undef TRY
	return NULL;
}

/* Buffers, Find, Forward, read back. Returns the failing call or NULL;
 * *st gets MIOpen's status (0 when the failure was a HIP call). */
static const char *mi_exec(struct gd_pc *pc, struct gd_hip *hp,
			   struct gd_miopen *m, struct mi_run *c,
			   const float *x, const float *w, float *y, int *st)
{
	const float one = 1.0f, zero = 0.0f;
	gd_miopenConvAlgoPerf_t perf[4];
	int nperf = 0;
	const char *bad = mi_setup(hp, m, c, st);

	if (bad)
		return bad;
	*st = 0;
	if (hp->Malloc(&c->x, sizeof(float) * NB * CH * HW * HW) ||
	    hp->Malloc(&c->w, sizeof(float) * K * CH * R * R) ||
	    hp->Malloc(&c->y, sizeof(float) * NB * K * HW * HW) ||
	    (c->ws_size && hp->Malloc(&c->ws, c->ws_size)) ||
	    hp->Memcpy(c->x, x, sizeof(float) * NB * CH * HW * HW,
		       GD_HIP_H2D) ||
	    hp->Memcpy(c->w, w, sizeof(float) * K * CH * R * R, GD_HIP_H2D))
		return "hipMalloc/hipMemcpy";
	gd_pc_phase(pc, "miopenFindConvolutionForwardAlgorithm (%s)", hp->gfx);
	memset(perf, 0, sizeof perf);
	*st = m->FindFwd(c->h, c->xd, c->x, c->wd, c->w, c->cd, c->yd, c->y, 4,
			 &nperf, perf, c->ws, c->ws_size, false);
	if (*st)
		return "miopenFindConvolutionForwardAlgorithm";
	if (nperf < 1)
		return "miopenFindConvolutionForwardAlgorithm (no algorithm)";
	c->algo = perf[0].fwd_algo;
	gd_pc_phase(pc, "miopenConvolutionForward algo %d", c->algo);
	*st = m->Forward(c->h, &one, c->xd, c->x, c->wd, c->w, c->cd, c->algo,
			 &zero, c->yd, c->y, c->ws, c->ws_size);
	if (*st)
		return "miopenConvolutionForward";
	if (hp->StreamSynchronize(hp->stream) ||
	    hp->Memcpy(y, c->y, sizeof(float) * NB * K * HW * HW, GD_HIP_D2H))
		return "hipStreamSynchronize/hipMemcpy";
	return NULL;
}

static void mi_free(struct gd_hip *hp, struct gd_miopen *m, struct mi_run *c)
{
	if (c->xd)
		m->DestroyTensor(c->xd);
	if (c->wd)
		m->DestroyTensor(c->wd);
	if (c->yd)
		m->DestroyTensor(c->yd);
	if (c->cd)
		m->DestroyConv(c->cd);
	if (c->h)
		m->Destroy(c->h);
	if (c->x)
		hp->Free(c->x);
	if (c->w)
		hp->Free(c->w);
	if (c->y)
		hp->Free(c->y);
	if (c->ws)
		hp->Free(c->ws);
}

void gd_hip_conv_op(struct gd_pc *pc, struct gd_hip *hp, int dev)
{
	static float x[NB * CH * HW * HW], w[K * CH * R * R];
	static float y[NB * K * HW * HW], ref[NB * K * HW * HW];
	const char *mode = gd_ctx_getenv(pc->ctx, "MIOPEN_FIND_MODE");
	struct gd_miopen m;
	struct mi_run c;
	char why[1000], ver[48] = "?";
	const char *bad;
	size_t ma = 0, mi = 0, pa = 0;
	int st = 0;

	if (!gd_pc_begin(pc, dev, GD_OP_CONV_FWD))
		return;
	memset(&m, 0, sizeof m);
	memset(&c, 0, sizeof c);
	if (mi_load(pc, &m, why, sizeof why)) {
		gd_pc_end(pc, GD_PS_MISSING, 0, "%s; MIOPEN_FIND_MODE=%s", why,
			  mode ? mode : "(default)");
		return;
	}
	if (!m.GetVersion(&ma, &mi, &pa))
		gd_fmt(ver, sizeof ver, "%zu.%zu.%zu", ma, mi, pa);
	gd_pc_fill_random(x, sizeof x / 4, 5);
	gd_pc_fill_random(w, sizeof w / 4, 6);
	gd_pc_phase(pc, "miopenCreate + descriptors");
	bad = mi_exec(pc, hp, &m, &c, x, w, y, &st);
	if (bad) {
		gd_pc_end(pc, GD_PS_ERROR, 0,
			  "%s: %s (%d); MIOpen %s, "
			  "MIOPEN_FIND_MODE=%s, %s",
			  bad, st ? m.ErrStr(st) : "HIP error", st, ver,
			  mode ? mode : "(default)", m.lib);
	} else {
		double err;

		gd_pc_ref_conv(x, w, ref);
		err = gd_pc_max_rel_error(y, ref, sizeof y / 4);
		/* 1e-3, not cuDNN's 1e-4: Find may pick Winograd or FFT */
		gd_pc_end(pc, err <= 1e-3 ? GD_PS_OK : GD_PS_WRONG, err,
			  "NCHW %dx%dx%dx%d, %d filters %dx%d, algo %d found "
			  "by miopenFind, max rel err %.2g vs CPU (tolerance "
			  "1e-3); MIOpen %s, "
			  "MIOPEN_FIND_MODE=%s, %s",
			  NB, CH, HW, HW, K, R, R, c.algo, err, ver,
			  mode ? mode : "(default)", m.lib);
	}
	mi_free(hp, &m, &c);
}
