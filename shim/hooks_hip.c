/* HIP hooks of libgpudoctor-trace.so. Signatures from HIP's runtime API
 * header (all exported since the hip_4.2 version node, hipGraphLaunch
 * since hip_4.3; sources: docs/trace.md, "Sources").
 * The types are declared here, as src/probe/hip_api.h does: handles are
 * pointers, hipError_t and hipMemcpyKind are ints. This route misses
 * callers that use dlsym(handle) or hipGetProcAddress, and HIP's own
 * calls to its own exports; on ROCm >= 6.2 hip_table.c hooks the
 * dispatch table for those. */
#include <stddef.h>

#include "shim.h"

typedef int hipError_t;
typedef void *hipStream_t;
typedef struct {
	uint32_t x, y, z;
} dim3;

/* hipHostMallocCoherent / hipHostMallocNonCoherent (docs/trace.md) */
#define HIP_HOST_COHERENT 0x40000000u
#define HIP_HOST_NONCOHERENT 0x80000000u
/* hipMemcpyKind hipMemcpyDeviceToDevice, for peer copies */
#define HIP_D2D 3

SHIM_HOOK(hipError_t, hipInit, (unsigned f), (f), 0, f, NULL)
SHIM_HOOK(hipError_t, hipLaunchKernel,
	  (const void *f, dim3 g, dim3 b, void **a, size_t sh, hipStream_t s),
	  (f, g, b, a, sh, s), 0, 0, s)
SHIM_HOOK(hipError_t, hipModuleLaunchKernel,
	  (void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
	   unsigned by, unsigned bz, unsigned sh, hipStream_t s, void **p,
	   void **e),
	  (f, gx, gy, gz, bx, by, bz, sh, s, p, e), 0, 0, s)
SHIM_HOOK(hipError_t, hipExtModuleLaunchKernel,
	  (void *f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx,
	   uint32_t ly, uint32_t lz, size_t sh, hipStream_t s, void **p,
	   void **e, void *ev0, void *ev1, uint32_t fl),
	  (f, gx, gy, gz, lx, ly, lz, sh, s, p, e, ev0, ev1, fl), 0, fl, s)
SHIM_HOOK(hipError_t, __hipPushCallConfiguration,
	  (dim3 g, dim3 b, size_t sh, hipStream_t s), (g, b, sh, s), 0, 0, s)
SHIM_HOOK(hipError_t, hipGraphLaunch, (void *g, hipStream_t s), (g, s), 0, 0, s)
SHIM_HOOK(hipError_t, hipMemcpy, (void *d, const void *s, size_t n, int k),
	  (d, s, n, k), n, k, NULL)
SHIM_HOOK(hipError_t, hipMemcpyAsync,
	  (void *d, const void *s, size_t n, int k, hipStream_t st),
	  (d, s, n, k, st), n, k, st)
SHIM_HOOK(hipError_t, hipMemcpyWithStream,
	  (void *d, const void *s, size_t n, int k, hipStream_t st),
	  (d, s, n, k, st), n, k, st)
SHIM_HOOK(hipError_t, hipMemcpy2D,
	  (void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h,
	   int k),
	  (d, dp, s, sp, w, h, k), w *h, k, NULL)
SHIM_HOOK(hipError_t, hipMemcpy2DAsync,
	  (void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h,
	   int k, hipStream_t st),
	  (d, dp, s, sp, w, h, k, st), w *h, k, st)
SHIM_HOOK(hipError_t, hipMemcpyPeer,
	  (void *d, int dd, const void *s, int sd, size_t n), (d, dd, s, sd, n),
	  n, HIP_D2D, NULL)
SHIM_HOOK(hipError_t, hipMemcpyPeerAsync,
	  (void *d, int dd, const void *s, int sd, size_t n, hipStream_t st),
	  (d, dd, s, sd, n, st), n, HIP_D2D, st)
SHIM_HOOK(hipError_t, hipMalloc, (void **p, size_t n), (p, n), n, 0, NULL)
/* hipExtMallocWithFlags: the flags are an enumeration (clr compares them
 * with ==, docs/trace.md "Sources"): recorded, never rewritten or combined. */
SHIM_HOOK(hipError_t, hipExtMallocWithFlags, (void **p, size_t n, unsigned f),
	  (p, n, f), n, f, NULL)
SHIM_HOOK(hipError_t, hipMallocManaged, (void **p, size_t n, unsigned f),
	  (p, n, f), n, f, NULL)
SHIM_HOOK(hipError_t, hipFree, (void *p), (p), 0, 0, NULL)
SHIM_HOOK(hipError_t, hipHostFree, (void *p), (p), 0, 0, NULL)
SHIM_HOOK(hipError_t, hipDeviceSynchronize, (void), (), 0, 0, NULL)
SHIM_HOOK(hipError_t, hipStreamSynchronize, (hipStream_t s), (s), 0, 0, s)
SHIM_HOOK(hipError_t, hipEventSynchronize, (void *e), (e), 0, 0, NULL)

/* Rewrite (opt-in, GD_TRACE_M_REWRITE): a pinned host allocation that
 * asks for neither coherence gets NonCoherent (coarse-grained). With
 * flags 0 clr always picks fine-grained memory (ihipHostMalloc), which
 * HIP_HOST_COHERENT cannot change; the RDNA1 field report needed
 * non-coherent staging buffers (MIOpen patch). gpudoctor sets the mode
 * only when asked; every rewrite is logged with old and new flags. */
unsigned shim_hip_host_flags(unsigned f) SHIM_HIDDEN;
unsigned shim_hip_host_flags(unsigned f)
{
	unsigned nf = f;

	if ((shim_mode() & GD_TRACE_M_REWRITE) &&
	    !(f & (HIP_HOST_COHERENT | HIP_HOST_NONCOHERENT))) {
		nf = f | HIP_HOST_NONCOHERENT;
		shim_log_rewrite(GD_TRACE_API_hipHostMalloc, f, nf);
	}
	return nf;
}

SHIM_EXPORT hipError_t hipHostMalloc(void **p, size_t n, unsigned f);
SHIM_EXPORT hipError_t hipHostMalloc(void **p, size_t n, unsigned f)
{
	hipError_t (*fn)(void **, size_t, unsigned) = NULL;
	struct shim_call c;
	unsigned nf;
	hipError_t r;

	SHIM_REAL(fn, "hipHostMalloc");
	if (!fn)
		return SHIM_ENOSYM; /* as SHIM_HOOK_API */
	nf = shim_hip_host_flags(f);
	shim_enter(&c, GD_TRACE_API_hipHostMalloc, __builtin_return_address(0),
		   n, nf, NULL);
	r = fn(p, n, nf);
	shim_exit(&c, r);
	return r;
}

/* Runtime start and device enumeration: the first calls of a program,
 * where a runtime that cannot reach its device hangs (firmware, KFD).
 * The device index is recorded as the kind. Attribute getters are not
 * hooked: frameworks call them per operator, and they return at once.
 * hipGetDeviceProperties: HIP 6 exports the 6.0 layout as
 * hipGetDevicePropertiesR0600 (the header maps the name to it); the struct is
 * only passed on. */
SHIM_HOOK(hipError_t, hipGetDeviceCount, (int *n), (n), 0, 0, NULL)
SHIM_HOOK(hipError_t, hipSetDevice, (int d), (d), 0, d, NULL)
SHIM_HOOK(hipError_t, hipGetDeviceProperties, (void *p, int d), (p, d), 0, d,
	  NULL)
SHIM_HOOK(hipError_t, hipGetDevicePropertiesR0600, (void *p, int d), (p, d), 0,
	  d, NULL)
SHIM_HOOK(hipError_t, hipDeviceGet, (int *dev, int d), (dev, d), 0, d, NULL)
SHIM_HOOK(hipError_t, hipDevicePrimaryCtxRetain, (void **c, int d), (c, d), 0,
	  d, NULL)
SHIM_HOOK(hipError_t, hipCtxCreate, (void **c, unsigned f, int d), (c, f, d), 0,
	  d, NULL)
