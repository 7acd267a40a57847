/* CUPTI route of libgpudoctor-trace.so (CUDA). gpudoctor sets
 * CUDA_INJECTION64_PATH to this library: the CUDA driver loads it during
 * cuInit and calls InitializeInjection() (CUPTI docs, "CUPTI injection";
 * NVIDIA's cupti injection samples). We then subscribe a callback to the
 * runtime-API domain (driver API too with GD_TRACE_M_DEEP) and record
 * every call the way the exported hooks do; those go quiet for CUDA so
 * nothing is counted twice. This sees static cudart and driver-API
 * callers, which exported-symbol hooks cannot.
 *
 * No CUPTI header is needed: the few types and values below are the
 * documented ones (CUPTI Callback API: CUpti_CallbackDomain DRIVER_API 1,
 * RUNTIME_API 2; CUpti_ApiCallbackSite ENTER 0, EXIT 1; CUpti_CallbackData
 * field order; CUptiResult 39 CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_-
 * SUPPORTED). libcupti is not part of the driver: it is dlopen'ed from
 * GPUDOCTOR_CUPTI_LIB, the loader path, or beside the libcudart /
 * libtorch_cuda this process has loaded (pip wheels: nvidia/cu13/lib,
 * nvidia/cuda_cupti/lib). When another tool holds CUPTI (Nsight, Kineto,
 * compute-sanitizer: one subscriber before CUPTI 13.3) we say so and
 * stay with the exported hooks. */
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shim.h"

typedef int CUptiResult;
typedef void *CUpti_SubscriberHandle;
typedef void (*CUpti_CallbackFunc)(void *, int, uint32_t, const void *);
enum { CB_DRIVER = 1, CB_RUNTIME = 2, CB_ENTER = 0, CB_EXIT = 1 };
#define CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED 39

typedef struct {
	int callbackSite;
	const char *functionName;
	const void *functionParams;
	void *functionReturnValue;
	const char *symbolName;
	void *context;
	uint32_t contextUid;
	uint64_t *correlationData;
	uint32_t correlationId;
} CUpti_CallbackData;

static CUptiResult (*p_subscribe)(CUpti_SubscriberHandle *, CUpti_CallbackFunc,
				  void *);
static CUptiResult (*p_enable_domain)(uint32_t, CUpti_SubscriberHandle, int);
static CUptiResult (*p_enable_cb)(uint32_t, CUpti_SubscriberHandle, int,
				  uint32_t);
static CUptiResult (*p_cb_name)(int, uint32_t, const char **);

/* Calls that return at once and never wait for the GPU are left out:
 * each enabled callback costs CUPTI's own ~125 ns, PyTorch makes several
 * of these per operator (cudaGetDevice, cudaGetLastError after every
 * launch, cudaStreamIsCapturing and cudaEventQuery in its allocator), and
 * none of them can be the call a program hangs in. Queries that poll
 * (cudaStreamQuery, cudaEventQuery) are among them: a poll loop shows as
 * running on the CPU in /proc, which is what it is. Prefixes of the names
 * cuptiGetCallbackName gives (e.g. "cudaGetDevice_v3020"). */
static const char *const quiet_calls[] = {
    "cudaGet", "cudaPeekAtLastError", "cudaDeviceGetAttribute",
    "cudaDeviceGetLimit", "cudaDeviceGetStreamPriorityRange",
    "cudaDeviceCanAccessPeer", "cudaPointerGetAttributes",
    "cudaFuncGetAttributes", "cudaFuncSetAttribute", "cudaStreamIsCapturing",
    "cudaStreamGetCaptureInfo", "cudaThreadExchangeStreamCaptureMode",
    "cudaStreamQuery", "cudaEventQuery", "cudaEventElapsedTime",
    "cudaDriverGetVersion", "cudaRuntimeGetVersion", "cudaStreamGetPriority",
    "cudaStreamGetFlags", "cudaStreamGetId", "cudaStreamGetDevice",
    "cudaOccupancy",
    /* driver API (--trace=deep) */
    "cuCtxGet", "cuCtxSetCurrent", "cuCtxPushCurrent", "cuCtxPopCurrent",
    "cuDeviceGet", "cuDeviceCanAccessPeer", "cuDevicePrimaryCtxGetState",
    "cuDriverGetVersion", "cuGetProcAddress", "cuGetErrorString",
    "cuGetErrorName", "cuGetExportTable", "cuPointerGetAttribute",
    "cuStreamQuery", "cuEventQuery", "cuEventElapsedTime", "cuFuncGetAttribute",
    "cuFuncSetAttribute", "cuKernelGetAttribute", "cuStreamGetPriority",
    "cuStreamGetFlags", "cuStreamGetId", "cuStreamGetCtx", "cuStreamGetDevice",
    "cuStreamIsCapturing", "cuStreamGetCaptureInfo",
    "cuThreadExchangeStreamCaptureMode", "cuOccupancy"};

/* What a callback id means: our API id and where its arguments sit in
 * the functionParams struct (CUPTI's generated headers, docs/trace.md
 * "Sources": the parameters in order, natural alignment).
 * -1: not read. kind_const: a copy kind the name implies. */
struct api_info {
	const char *name; /* without _v<N> / _ptsz / _ptds */
	unsigned api;
	int bytes_off, kind_off, stream_off;
	unsigned kind_const;
};

#define A(n) GD_TRACE_API_##n
static const struct api_info rt_apis[] = {
    {"cudaLaunchKernel", A(cudaLaunchKernel), -1, -1, 48, 0},
    {"cudaLaunchKernelExC", A(cudaLaunchKernelExC), -1, -1, -1, 0},
    {"cudaGraphLaunch", A(cudaGraphLaunch), -1, -1, 8, 0},
    {"cudaMemcpy", A(cudaMemcpy), 16, 24, -1, 0},
    {"cudaMemcpyAsync", A(cudaMemcpyAsync), 16, 24, 32, 0},
    {"cudaMalloc", A(cudaMalloc), 8, -1, -1, 0},
    {"cudaMallocHost", A(cudaMallocHost), 8, -1, -1, 0},
    {"cudaHostAlloc", A(cudaHostAlloc), 8, 16, -1, 0},
    {"cudaFree", A(cudaFree), -1, -1, -1, 0},
    {"cudaDeviceSynchronize", A(cudaDeviceSynchronize), -1, -1, -1, 0},
    {"cudaStreamSynchronize", A(cudaStreamSynchronize), -1, -1, 0, 0},
    {"cudaEventSynchronize", A(cudaEventSynchronize), -1, -1, -1, 0},
    {"cudaGetDeviceCount", A(cudaGetDeviceCount), -1, -1, -1, 0},
    {"cudaSetDevice", A(cudaSetDevice), -1, 0, -1, 0},
    {"cudaGetDeviceProperties", A(cudaGetDeviceProperties), -1, 8, -1, 0},
    {"cudaInitDevice", A(cudaInitDevice), -1, 0, -1, 0},
};
/* Driver copies and allocations: only the _v2 entry points (64-bit
 * CUdeviceptr); cuLaunchKernel: 7 unsigned after f, then hStream. */
static const struct api_info drv_apis[] = {
    {"cuLaunchKernel", A(cuLaunchKernel), -1, -1, 40, 0},
    {"cuLaunchKernelEx", A(cuLaunchKernelEx), -1, -1, -1, 0},
    {"cuMemcpyHtoD_v2", A(cuMemcpyHtoD), 16, -1, -1, 1},
    {"cuMemcpyDtoH_v2", A(cuMemcpyDtoH), 16, -1, -1, 2},
    {"cuMemcpyHtoDAsync_v2", A(cuMemcpyHtoDAsync), 16, -1, 24, 1},
    {"cuMemcpyDtoHAsync_v2", A(cuMemcpyDtoHAsync), 16, -1, 24, 2},
    {"cuMemcpyAsync", A(cuMemcpyAsync), 16, -1, 24, 4},
    {"cuMemAlloc_v2", A(cuMemAlloc), 8, -1, -1, 0},
    {"cuMemFree_v2", A(cuMemFree), -1, -1, -1, 0},
    {"cuCtxSynchronize", A(cuCtxSynchronize), -1, -1, -1, 0},
    {"cuStreamSynchronize", A(cuStreamSynchronize), -1, -1, 0, 0},
    {"cuEventSynchronize", A(cuEventSynchronize), -1, -1, -1, 0},
    {"cuDeviceGetCount", A(cuDeviceGetCount), -1, -1, -1, 0},
    {"cuDeviceGet", A(cuDeviceGet), -1, 8, -1, 0},
    {"cuCtxCreate_v2", A(cuCtxCreate), -1, 12, -1, 0},
    {"cuCtxCreate_v3", A(cuCtxCreate), -1, -1, -1, 0},
    {"cuCtxCreate_v4", A(cuCtxCreate), -1, -1, -1, 0},
    {"cuDevicePrimaryCtxRetain", A(cuDevicePrimaryCtxRetain), -1, 8, -1, 0},
};
#undef A

/* Callback id -> index into the table + 2 (1: not ours; 0: not seen). */
#define MAX_CBID 2048
static uint8_t rt_map[MAX_CBID], drv_map[MAX_CBID];

static __thread struct {
	struct shim_call outer;
	int depth;
} cb_tls __attribute__((tls_model("initial-exec")));

/* "cudaMemcpyAsync_ptsz_v7000" -> "cudaMemcpyAsync" (runtime names);
 * driver names are compared whole but for _ptsz / _ptds. */
static size_t base_len(const char *n, int runtime)
{
	size_t l = strlen(n), k = l;

	while (runtime && k && n[k - 1] >= '0' && n[k - 1] <= '9')
		k--;
	if (runtime && k < l && k >= 2 && n[k - 1] == 'v' && n[k - 2] == '_')
		l = k - 2;
	if (l > 5 && (!strncmp(n + l - 5, "_ptsz", 5) ||
		      !strncmp(n + l - 5, "_ptds", 5)))
		l -= 5;
	return l;
}

static const struct api_info *lookup(int domain, uint32_t cbid,
				     const char *name)
{
	const struct api_info *t = domain == CB_RUNTIME ? rt_apis : drv_apis;
	size_t nt = domain == CB_RUNTIME ? sizeof rt_apis / sizeof *rt_apis
					 : sizeof drv_apis / sizeof *drv_apis;
	uint8_t *map = domain == CB_RUNTIME ? rt_map : drv_map;
	uint8_t m =
	    cbid < MAX_CBID ? __atomic_load_n(&map[cbid], __ATOMIC_RELAXED) : 1;
	size_t l;

	if (m)
		return m >= 2 ? &t[m - 2] : NULL;
	m = 1;
	l = name ? base_len(name, domain == CB_RUNTIME) : 0;
	for (size_t i = 0; i < nt && l; i++)
		if (strlen(t[i].name) == l && !strncmp(t[i].name, name, l))
			m = (uint8_t)(i + 2);
	__atomic_store_n(&map[cbid], m, __ATOMIC_RELAXED);
	return m >= 2 ? &t[m - 2] : NULL;
}

static uint64_t param_at(const void *params, int off, size_t size)
{
	uint64_t v = 0;

	if (params && off >= 0)
		memcpy(&v, (const char *)params + off, size);
	return v;
}

static void on_enter(int domain, uint32_t cbid, const CUpti_CallbackData *d)
{
	const struct api_info *a = lookup(domain, cbid, d->functionName);
	unsigned api, kind;
	uint64_t bytes = 0, stream = 0;

	if (a) {
		api = a->api;
		bytes = param_at(d->functionParams, a->bytes_off, 8);
		kind = a->kind_off >= 0 ? (unsigned)param_at(d->functionParams,
							     a->kind_off, 4)
					: a->kind_const;
		stream = param_at(d->functionParams, a->stream_off, 8);
	} else {
		api = domain == CB_RUNTIME ? GD_TRACE_API_cudaOther
					   : GD_TRACE_API_cuOther;
		kind = cbid;
	}
	shim_enter(&cb_tls.outer, api, shim_pc_get(), bytes, kind,
		   (const void *)(uintptr_t)stream);
}

static void callback(void *ud, int domain, uint32_t cbid, const void *cbdata)
{
	const CUpti_CallbackData *d = cbdata;
	struct shim_call inner = {0};

	(void)ud;
	if (domain != CB_RUNTIME && domain != CB_DRIVER)
		return;
	if (d->callbackSite == CB_ENTER) {
		/* A driver call inside a runtime call: counted as nested
		 * (shim_enter's depth), the runtime call stays in the slot. */
		if (cb_tls.depth++)
			shim_enter(&inner, 0, NULL, 0, 0, NULL);
		else
			on_enter(domain, cbid, d);
	} else if (cb_tls.depth > 0) {
		/* An exit whose enter we never saw (the call that ran cuInit
		 * and so loaded us) has depth 0 and is skipped. */
		int r =
		    d->functionReturnValue ? *(int *)d->functionReturnValue : 0;

		if (--cb_tls.depth)
			shim_exit(&inner, r);
		else
			shim_exit(&cb_tls.outer, r);
	}
}

/* Beside a loaded library whose name starts with one of these. */
struct find {
	char dir[4][512];
	int n;
};

static int find_dirs(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct find *f = arg;
	const char *slash =
	    info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;

	(void)size;
	if (!slash || f->n >= 4)
		return 0;
	if (!strncmp(slash + 1, "libcudart.so", 12) ||
	    !strncmp(slash + 1, "libtorch_cuda.so", 16))
		snprintf(f->dir[f->n++], sizeof f->dir[0], "%.*s",
			 (int)(slash - info->dlpi_name), info->dlpi_name);
	return 0;
}

static void *open_cupti(char *path, size_t cap)
{
	static const char *const names[] = {"libcupti.so", "libcupti.so.13",
					    "libcupti.so.12"};
	static const char *const rel[] = {
	    "", "/../../nvidia/cu13/lib", "/../../cuda_cupti/lib",
	    "/../../nvidia/cuda_cupti/lib", "/../extras/CUPTI/lib64"};
	const char *env = getenv("GPUDOCTOR_CUPTI_LIB");
	struct find f = {.n = 0};
	void *h;

	if (env && env[0] && (h = dlopen(env, RTLD_NOW | RTLD_LOCAL)) != NULL)
		return snprintf(path, cap, "%s", env), h;
	for (size_t i = 0; i < 3; i++)
		if ((h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL)) != NULL)
			return snprintf(path, cap, "%s", names[i]), h;
	dl_iterate_phdr(find_dirs, &f);
	snprintf(f.dir[f.n < 4 ? f.n++ : 3], sizeof f.dir[0],
		 "/usr/local/cuda/lib64");
	for (int d = 0; d < f.n; d++)
		for (size_t r = 0; r < sizeof rel / sizeof *rel; r++)
			for (size_t i = 1; i < 3; i++) {
				snprintf(path, cap, "%s%s/%s", f.dir[d], rel[r],
					 names[i]);
				h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
				if (h)
					return h;
			}
	path[0] = '\0';
	return NULL;
}

static int bind_cupti(void *h)
{
	void *s = dlsym(h, "cuptiSubscribe"),
	     *e = dlsym(h, "cuptiEnableDomain"),
	     *c = dlsym(h, "cuptiEnableCallback"),
	     *n = dlsym(h, "cuptiGetCallbackName");

	memcpy(&p_subscribe, &s, sizeof s);
	memcpy(&p_enable_domain, &e, sizeof e);
	memcpy(&p_enable_cb, &c, sizeof c);
	memcpy(&p_cb_name, &n, sizeof n);
	return s && e ? 0 : -1;
}

static int quiet(const char *name)
{
	for (size_t i = 0; i < sizeof quiet_calls / sizeof *quiet_calls; i++)
		if (!strncmp(name, quiet_calls[i], strlen(quiet_calls[i])))
			return 1;
	return 0;
}

/* Every callback of the domain but the quiet ones; the whole domain when
 * this CUPTI cannot name its callbacks (cuptiGetCallbackName, CUPTI 11+).
 * Ids without a name are gaps or past the domain's end. Returns the
 * number left out, or -1 when nothing could be enabled. */
static int enable(CUpti_SubscriberHandle sub, int domain)
{
	int on = 0, off = 0;

	if (!p_enable_cb || !p_cb_name)
		return p_enable_domain(1, sub, domain) == 0 ? 0 : -1;
	for (uint32_t id = 1; id < MAX_CBID; id++) {
		const char *name = NULL;

		if (p_cb_name(domain, id, &name) != 0 || !name)
			continue;
		if (quiet(name))
			off++;
		else if (p_enable_cb(1, sub, domain, id) == 0)
			on++;
	}
	if (on)
		return off;
	return p_enable_domain(1, sub, domain) == 0 ? 0 : -1;
}

/* Called by the CUDA driver (CUDA_INJECTION64_PATH). 1: loaded. */
SHIM_EXPORT int InitializeInjection(void);
SHIM_EXPORT int InitializeInjection(void)
{
	static int done;
	CUpti_SubscriberHandle sub;
	char path[600], msg[800];
	void *h;
	int r, quiet_rt, quiet_drv;

	if (done++ || !shim_recording() || (shim_mode() & GD_TRACE_M_NOCUPTI))
		return 1;
	h = open_cupti(path, sizeof path);
	if (!h || bind_cupti(h) < 0) {
		shim_note("cuda route: exported-symbol hooks on libcudart "
			  "(libcupti not found: set GPUDOCTOR_CUPTI_LIB; "
			  "static cudart and driver-API calls are not seen)",
			  1);
		return 1;
	}
	r = p_subscribe(&sub, callback, NULL);
	if (r != 0) {
		snprintf(msg, sizeof msg,
			 "cuda route: exported-symbol hooks on libcudart "
			 "(CUPTI %s: cuptiSubscribe error %d%s)",
			 path, r,
			 r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
			     ? ", CUPTI is already taken by another tool "
			       "(Nsight, a profiler, compute-sanitizer)"
			     : "");
		shim_note(msg, 1);
		return 1;
	}
	quiet_rt = enable(sub, CB_RUNTIME);
	if (quiet_rt < 0) {
		shim_note("cuda route: exported-symbol hooks on libcudart "
			  "(CUPTI runtime domain refused)",
			  1);
		return 1;
	}
	shim_families &= ~SHIM_FAM_CUDA;
	quiet_drv =
	    (shim_mode() & GD_TRACE_M_DEEP) ? enable(sub, CB_DRIVER) : -1;
	if (quiet_drv >= 0)
		snprintf(msg, sizeof msg,
			 "cuda route: CUPTI callbacks (%s), runtime and driver "
			 "API (left out: %d runtime and %d driver calls that "
			 "never wait for the GPU)",
			 path, quiet_rt, quiet_drv);
	else
		snprintf(msg, sizeof msg,
			 "cuda route: CUPTI callbacks (%s), runtime API (left "
			 "out: %d calls that never wait for the GPU)",
			 path, quiet_rt);
	shim_note(msg, 0);
	return 1;
}
