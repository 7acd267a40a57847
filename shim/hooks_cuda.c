/* CUDA runtime hooks of libgpudoctor-trace.so: exported-symbol
 * interposition on a shared libcudart (cuda_runtime_api.h signatures).
 * This is the fallback route: when CUPTI's runtime domain is subscribed
 * (cupti.c) these hooks only forward, so no call is counted twice.
 * Misses: static cudart (nvcc's default) and driver-API callers
 * (cuGetProcAddress); CUPTI sees those.
 *
 * `<<<>>>` launches: since CUDA 12.4 the nvcc stub calls the internal
 * export __cudaLaunchKernel(cudaKernel_t, dim3, dim3, void **, size_t,
 * cudaStream_t) (CUDA 13.0's headers, docs/trace.md "Sources"), not
 * cudaLaunchKernel: an nvcc 13 program imports only
 * __cudaLaunchKernel@libcudart.so.13; with --default-stream per-thread
 * the _ptsz variants. cudaKernel_t and the host stub pointer are both one
 * pointer: the hook only passes it on. */
#include <stddef.h>

#include "shim.h"

typedef int cudaError_t;
typedef void *cudaStream_t;
typedef struct {
	unsigned x, y, z;
} cuda_dim3;

#define CUDA_HOOK(...) SHIM_HOOK_FAM(SHIM_FAM_CUDA, __VA_ARGS__)
#define LAUNCH_PARAMS                                                          \
	(const void *f, cuda_dim3 g, cuda_dim3 b, void **a, size_t sh,         \
	 cudaStream_t s)

CUDA_HOOK(cudaError_t, cudaLaunchKernel, LAUNCH_PARAMS, (f, g, b, a, sh, s), 0,
	  0, s)
CUDA_HOOK(cudaError_t, cudaLaunchKernel_ptsz, LAUNCH_PARAMS,
	  (f, g, b, a, sh, s), 0, 0, s)
CUDA_HOOK(cudaError_t, __cudaLaunchKernel, LAUNCH_PARAMS, (f, g, b, a, sh, s),
	  0, 0, s)
CUDA_HOOK(cudaError_t, __cudaLaunchKernel_ptsz, LAUNCH_PARAMS,
	  (f, g, b, a, sh, s), 0, 0, s)
/* cudaLaunchConfig_t: gridDim, blockDim, dynamicSmemBytes, stream, ...
 * (docs/trace.md, "Sources"); only the stream is read, at its documented
 * offset. */
struct cuda_launch_config {
	cuda_dim3 grid, block;
	size_t smem;
	cudaStream_t stream;
};
CUDA_HOOK(cudaError_t, cudaLaunchKernelExC,
	  (const struct cuda_launch_config *cfg, const void *f, void **a),
	  (cfg, f, a), 0, 0, cfg ? cfg->stream : NULL)
CUDA_HOOK(cudaError_t, cudaGraphLaunch, (void *g, cudaStream_t s), (g, s), 0, 0,
	  s)
CUDA_HOOK(cudaError_t, cudaMemcpy, (void *d, const void *s, size_t n, int k),
	  (d, s, n, k), n, k, NULL)
CUDA_HOOK(cudaError_t, cudaMemcpyAsync,
	  (void *d, const void *s, size_t n, int k, cudaStream_t st),
	  (d, s, n, k, st), n, k, st)
CUDA_HOOK(cudaError_t, cudaMemcpyAsync_ptsz,
	  (void *d, const void *s, size_t n, int k, cudaStream_t st),
	  (d, s, n, k, st), n, k, st)
CUDA_HOOK(cudaError_t, cudaMalloc, (void **p, size_t n), (p, n), n, 0, NULL)
CUDA_HOOK(cudaError_t, cudaMallocHost, (void **p, size_t n), (p, n), n, 0, NULL)
CUDA_HOOK(cudaError_t, cudaHostAlloc, (void **p, size_t n, unsigned f),
	  (p, n, f), n, f, NULL)
CUDA_HOOK(cudaError_t, cudaFree, (void *p), (p), 0, 0, NULL)
CUDA_HOOK(cudaError_t, cudaDeviceSynchronize, (void), (), 0, 0, NULL)
CUDA_HOOK(cudaError_t, cudaStreamSynchronize, (cudaStream_t s), (s), 0, 0, s)
CUDA_HOOK(cudaError_t, cudaEventSynchronize, (void *e), (e), 0, 0, NULL)

/* Runtime start and device enumeration (the device index as the kind):
 * with CUPTI the runtime ones go quiet as above, but the call that runs
 * cuInit (and so loads CUPTI) is recorded here. cudaGetDeviceProperties
 * is cudaGetDeviceProperties_v2 in CUDA 12's header. */
CUDA_HOOK(cudaError_t, cudaGetDeviceCount, (int *n), (n), 0, 0, NULL)
CUDA_HOOK(cudaError_t, cudaSetDevice, (int d), (d), 0, d, NULL)
CUDA_HOOK(cudaError_t, cudaGetDeviceProperties, (void *p, int d), (p, d), 0, d,
	  NULL)
SHIM_HOOK_API(SHIM_FAM_CUDA, GD_TRACE_API_cudaGetDeviceProperties, cudaError_t,
	      cudaGetDeviceProperties_v2, (void *p, int d), (p, d), 0, d, NULL)
CUDA_HOOK(cudaError_t, cudaInitDevice, (int d, unsigned df, unsigned f),
	  (d, df, f), 0, d, NULL)

/* Driver API exports (cuda.h), for programs linked with libcuda: the
 * runtime reaches the driver through cuGetProcAddress, not these. The
 * _v2 names are what cuda.h maps cuCtxCreate to (CUDA 12 adds _v3,
 * CUDA 13 _v4: other signatures, not hooked). */
typedef int CUresult;
#define CU_HOOK(...) SHIM_HOOK_API(SHIM_FAM_CU, __VA_ARGS__)
CU_HOOK(GD_TRACE_API_cuInit, CUresult, cuInit, (unsigned f), (f), 0, 0, NULL)
CU_HOOK(GD_TRACE_API_cuDeviceGetCount, CUresult, cuDeviceGetCount, (int *n),
	(n), 0, 0, NULL)
CU_HOOK(GD_TRACE_API_cuDeviceGet, CUresult, cuDeviceGet, (int *dev, int d),
	(dev, d), 0, d, NULL)
CU_HOOK(GD_TRACE_API_cuCtxCreate, CUresult, cuCtxCreate_v2,
	(void **c, unsigned f, int d), (c, f, d), 0, d, NULL)
CU_HOOK(GD_TRACE_API_cuDevicePrimaryCtxRetain, CUresult,
	cuDevicePrimaryCtxRetain, (void **c, int d), (c, d), 0, d, NULL)
