/* probe/backend_cuda_dnn: one cuDNN forward convolution (legacy API, cuDNN
 * 7-9: IMPLICIT_GEMM, always available) checked against a CPU reference. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_api.h"

typedef struct cudnnContext *cudnnHandle_t;
typedef void *cudnnDesc; /* tensor, filter and convolution descriptors */

struct gd_cudnn {
	int (*Create)(cudnnHandle_t *);
	int (*Destroy)(cudnnHandle_t);
	int (*SetStream)(cudnnHandle_t, CUstream);
	size_t (*GetVersion)(void);
	const char *(*ErrStr)(int);
	int (*CreateTensor)(cudnnDesc *);
	int (*SetTensor4d)(cudnnDesc, int, int, int, int, int, int);
	int (*DestroyTensor)(cudnnDesc);
	int (*CreateFilter)(cudnnDesc *);
	int (*SetFilter4d)(cudnnDesc, int, int, int, int, int, int);
	int (*DestroyFilter)(cudnnDesc);
	int (*CreateConv)(cudnnDesc *);
	int (*SetConv2d)(cudnnDesc, int, int, int, int, int, int, int, int);
	int (*DestroyConv)(cudnnDesc);
	int (*WsSize)(cudnnHandle_t, cudnnDesc, cudnnDesc, cudnnDesc, cudnnDesc,
		      int, size_t *);
	int (*Forward)(cudnnHandle_t, const void *, cudnnDesc, const void *,
		       cudnnDesc, const void *, cudnnDesc, int, void *, size_t,
		       const void *, cudnnDesc, void *);
};

enum {
	NB = GD_CONV_N,
	CH = GD_CONV_C,
	HW = GD_CONV_HW,
	K = GD_CONV_K,
	R = GD_CONV_R
}; /* pad 1, stride 1 */

static int dnn_load(struct gd_pc *pc, struct gd_cudnn *d, char *lib,
		    size_t lcap, char *why, size_t cap)
{
	const char *const *names = gd_lib_names(GD_LIB_CUDNN);
	const struct gd_sym syms[] = {
	    {"cudnnCreate", (void **)&d->Create, 1},
	    {"cudnnDestroy", (void **)&d->Destroy, 1},
	    {"cudnnSetStream", (void **)&d->SetStream, 1},
	    {"cudnnGetVersion", (void **)&d->GetVersion, 1},
	    {"cudnnGetErrorString", (void **)&d->ErrStr, 1},
	    {"cudnnCreateTensorDescriptor", (void **)&d->CreateTensor, 1},
	    {"cudnnSetTensor4dDescriptor", (void **)&d->SetTensor4d, 1},
	    {"cudnnDestroyTensorDescriptor", (void **)&d->DestroyTensor, 1},
	    {"cudnnCreateFilterDescriptor", (void **)&d->CreateFilter, 1},
	    {"cudnnSetFilter4dDescriptor", (void **)&d->SetFilter4d, 1},
	    {"cudnnDestroyFilterDescriptor", (void **)&d->DestroyFilter, 1},
	    {"cudnnCreateConvolutionDescriptor", (void **)&d->CreateConv, 1},
	    {"cudnnSetConvolution2dDescriptor", (void **)&d->SetConv2d, 1},
	    {"cudnnDestroyConvolutionDescriptor", (void **)&d->DestroyConv, 1},
	    {"cudnnGetConvolutionForwardWorkspaceSize", (void **)&d->WsSize, 1},
	    {"cudnnConvolutionForward", (void **)&d->Forward, 1},
	    {NULL, NULL, 0}};
	char searched[900], missing[64];
	void *h;

	gd_pc_phase(pc, "dlopen libcudnn");
	h = gd_pc_dlopen(pc, names, gd_lib_dirs(GD_LIB_CUDNN), lib, lcap,
			 searched, sizeof searched);
	if (!h) {
		gd_fmt(why, cap, "cuDNN not found: %s", searched);
		return -1;
	}
	if (gd_pc_dlsym(h, syms, missing, sizeof missing)) {
		gd_fmt(why, cap, "%s lacks %s", lib, missing);
		return -1;
	}
	return 0;
}

struct conv_run {
	cudnnHandle_t h;
	cudnnDesc xd, wd, cd, yd;
	CUdeviceptr x, w, y, ws;
	size_t ws_size;
};

/* Returns the failing call's name, or NULL; *st gets its status. */
static const char *conv_exec(struct gd_cu *cu, struct gd_cudnn *d,
			     struct conv_run *c, const float *x, const float *w,
			     float *y, int *st)
{
	const float one = 1.0f, zero = 0.0f;

#define TRY(call, name)                                                        \
	if ((*st = (call)))                                                    \
		return name;
	TRY(d->Create(&c->h), "cudnnCreate");
	TRY(d->SetStream(c->h, cu->stream), "cudnnSetStream");
	TRY(d->CreateTensor(&c->xd), "cudnnCreateTensorDescriptor");
	TRY(d->CreateTensor(&c->yd), "cudnnCreateTensorDescriptor");
	TRY(d->CreateFilter(&c->wd), "cudnnCreateFilterDescriptor");
	TRY(d->CreateConv(&c->cd), "cudnnCreateConvolutionDescriptor");
	TRY(d->SetTensor4d(c->xd, 0, 0, NB, CH, HW, HW),
	    "cudnnSetTensor4dDescriptor");
	TRY(d->SetTensor4d(c->yd, 0, 0, NB, K, HW, HW),
	    "cudnnSetTensor4dDescriptor");
	TRY(d->SetFilter4d(c->wd, 0, 0, K, CH, R, R),
	    "cudnnSetFilter4dDescriptor");
	TRY(d->SetConv2d(c->cd, 1, 1, 1, 1, 1, 1, 1, 0),
	    "cudnnSetConvolution2dDescriptor");
	TRY(d->WsSize(c->h, c->xd, c->wd, c->cd, c->yd, 0, &c->ws_size),
	    "cudnnGetConvolutionForwardWorkspaceSize");
#undef TRY
	*st = 0;
	if (cu->MemAlloc(&c->x, sizeof(float) * NB * CH * HW * HW) ||
	    cu->MemAlloc(&c->w, sizeof(float) * K * CH * R * R) ||
	    cu->MemAlloc(&c->y, sizeof(float) * NB * K * HW * HW) ||
	    (c->ws_size && cu->MemAlloc(&c->ws, c->ws_size)) ||
	    cu->MemcpyHtoD(c->x, x, sizeof(float) * NB * CH * HW * HW) ||
	    cu->MemcpyHtoD(c->w, w, sizeof(float) * K * CH * R * R))
		return "cuMemAlloc/cuMemcpyHtoD";
	*st = d->Forward(c->h, &one, c->xd, (void *)(uintptr_t)c->x, c->wd,
			 (void *)(uintptr_t)c->w, c->cd, 0,
			 (void *)(uintptr_t)c->ws, c->ws_size, &zero, c->yd,
			 (void *)(uintptr_t)c->y);
	if (*st)
		return "cudnnConvolutionForward";
	if (cu->StreamSynchronize(cu->stream) ||
	    cu->MemcpyDtoH(y, c->y, sizeof(float) * NB * K * HW * HW))
		return "cuStreamSynchronize/cuMemcpyDtoH";
	return NULL;
}

static void conv_free(struct gd_cu *cu, struct gd_cudnn *d, struct conv_run *c)
{
	if (c->xd)
		d->DestroyTensor(c->xd);
	if (c->yd)
		d->DestroyTensor(c->yd);
	if (c->wd)
		d->DestroyFilter(c->wd);
	if (c->cd)
		d->DestroyConv(c->cd);
	if (c->h)
		d->Destroy(c->h);
	if (c->x)
		cu->MemFree(c->x);
	if (c->w)
		cu->MemFree(c->w);
	if (c->y)
		cu->MemFree(c->y);
	if (c->ws)
		cu->MemFree(c->ws);
}

void gd_cu_conv_op(struct gd_pc *pc, struct gd_cu *cu, int dev)
{
	static float x[NB * CH * HW * HW], w[K * CH * R * R];
	static float y[NB * K * HW * HW], ref[NB * K * HW * HW];
	struct gd_cudnn d;
	struct conv_run c;
	char lib[256], why[1000];
	const char *bad;
	int st = 0;

	if (!gd_pc_begin(pc, dev, GD_OP_CONV_FWD))
		return;
	memset(&d, 0, sizeof d);
	memset(&c, 0, sizeof c);
	if (dnn_load(pc, &d, lib, sizeof lib, why, sizeof why)) {
		gd_pc_end(pc, GD_PS_MISSING, 0, "%s", why);
		return;
	}
	gd_pc_fill_random(x, sizeof x / 4, 5);
	gd_pc_fill_random(w, sizeof w / 4, 6);
	gd_pc_phase(pc, "cudnnConvolutionForward %dx%dx%dx%d k%d r%d", NB, CH,
		    HW, HW, K, R);
	bad = conv_exec(cu, &d, &c, x, w, y, &st);
	if (bad) {
		gd_pc_end(pc, GD_PS_ERROR, 0, "%s: %s (%d); cuDNN %zu, %s", bad,
			  st ? d.ErrStr(st) : "CUDA error", st, d.GetVersion(),
			  lib);
	} else {
		double err;

		gd_pc_ref_conv(x, w, ref);
		err = gd_pc_max_rel_error(y, ref, sizeof y / 4);
		gd_pc_end(pc, err <= 1e-4 ? GD_PS_OK : GD_PS_WRONG, err,
			  "NCHW %dx%dx%dx%d, %d filters %dx%d, IMPLICIT_GEMM, "
			  "max rel err %.2g vs CPU; cuDNN %zu, %s",
			  NB, CH, HW, HW, K, R, R, err, d.GetVersion(), lib);
	}
	conv_free(cu, &d, &c);
}
