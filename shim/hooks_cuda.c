/* CUDA runtime hooks of libgpudoctor-trace.so: exported-symbol
 * interposition on a shared libcudart (cuda_runtime_api.h signatures).
 * Misses: static cudart (nvcc's default), `<<<>>>` launches, which CUDA 12+
 * routes through the internal __cudaLaunchKernel, and driver-API callers
 * (cuGetProcAddress). The CUPTI injection route
 * (CUDA_INJECTION64_PATH) that catches those is not built yet. */
#include <stddef.h>

#include "shim.h"

typedef int cudaError_t;
typedef void *cudaStream_t;
typedef struct {
	unsigned x, y, z;
} cuda_dim3;

SHIM_HOOK(cudaError_t, cudaLaunchKernel,
	  (const void *f, cuda_dim3 g, cuda_dim3 b, void **a, size_t sh,
	   cudaStream_t s),
	  (f, g, b, a, sh, s), 0, 0, s)
SHIM_HOOK(cudaError_t, cudaMemcpy, (void *d, const void *s, size_t n, int k),
	  (d, s, n, k), n, k, NULL)
SHIM_HOOK(cudaError_t, cudaMemcpyAsync,
	  (void *d, const void *s, size_t n, int k, cudaStream_t st),
	  (d, s, n, k, st), n, k, st)
SHIM_HOOK(cudaError_t, cudaMalloc, (void **p, size_t n), (p, n), n, 0, NULL)
SHIM_HOOK(cudaError_t, cudaMallocHost, (void **p, size_t n), (p, n), n, 0, NULL)
SHIM_HOOK(cudaError_t, cudaDeviceSynchronize, (void), (), 0, 0, NULL)
SHIM_HOOK(cudaError_t, cudaStreamSynchronize, (cudaStream_t s), (s), 0, 0, s)
SHIM_HOOK(cudaError_t, cudaEventSynchronize, (void *e), (e), 0, 0, NULL)
