/* probe/trace_shm: the shared-memory layout between libgpudoctor-trace.so
 * (shim/, the writer, inside the traced program) and gpudoctor (the reader,
 * its parent). gpudoctor creates the region (memfd) and passes its fd in
 * GPUDOCTOR_TRACE_FD; the shim maps it MAP_SHARED. One slot per thread,
 * claimed with an atomic counter, given back when the thread ends and then
 * claimed again by compare-and-swap of owner; each slot is written by its
 * owning thread only,
 * under a seqlock (seq odd while writing; Boehm, MSPC 2012), so the reader
 * takes no lock and detects torn copies. The region is written by the
 * traced program: the reader trusts nothing in it (gd_trace_slot_decode
 * validates every field). Fixed layout, little-endian host order. */
#ifndef GD_TRACE_SHM_H
#define GD_TRACE_SHM_H

#include <stddef.h>
#include <stdint.h>

#define GD_TRACE_MAGIC 0x31525447u /* "GTR1" */
#define GD_TRACE_VERSION 2u
#define GD_TRACE_NSLOTS 256u
#define GD_TRACE_SLOT_SIZE 128u
#define GD_TRACE_HDR_SIZE 256u
#define GD_TRACE_REGION_SIZE                                                   \
	(GD_TRACE_HDR_SIZE + GD_TRACE_NSLOTS * GD_TRACE_SLOT_SIZE)
#define GD_TRACE_CALLER_MAX 48
#define GD_TRACE_SLOT_CALLER 32

/* GPUDOCTOR_TRACE_MODE bits (the shim reads them from the environment). */
enum {
	GD_TRACE_M_HANG = 1, /* in-flight slots only */
	GD_TRACE_M_LOG = 2,  /* + one log line per call (GPUDOCTOR_TRACE_LOG) */
	GD_TRACE_M_REWRITE = 4,	 /* + hipHostMalloc coherence rewrite */
	GD_TRACE_M_DEEP = 8,	 /* + CUPTI driver-API domain (CUDA) */
	GD_TRACE_M_NOCUPTI = 16, /* CUDA: exported-symbol hooks only */
};

enum gd_trace_state { GD_TRACE_IDLE = 0, GD_TRACE_IN_CALL = 1 };

/* API ids: the order of gd_trace_api_names[]; append only. */
/* clang-format off: one API a line (the formatter folds X-lists) */
#define GD_TRACE_APIS(X)                                                       \
	X(hipInit)                                                             \
	X(hipLaunchKernel)                                                     \
	X(hipModuleLaunchKernel)                                               \
	X(hipExtModuleLaunchKernel)                                            \
	X(__hipPushCallConfiguration)                                          \
	X(hipGraphLaunch)                                                      \
	X(hipMemcpy)                                                           \
	X(hipMemcpyAsync)                                                      \
	X(hipMemcpy2D)                                                         \
	X(hipMemcpy2DAsync)                                                    \
	X(hipMemcpyPeer)                                                       \
	X(hipMemcpyPeerAsync)                                                  \
	X(hipMemcpyWithStream)                                                 \
	X(hipMalloc)                                                           \
	X(hipHostMalloc)                                                       \
	X(hipExtMallocWithFlags)                                               \
	X(hipMallocManaged)                                                    \
	X(hipFree)                                                             \
	X(hipHostFree)                                                         \
	X(hipDeviceSynchronize)                                                \
	X(hipStreamSynchronize)                                                \
	X(hipEventSynchronize)                                                 \
	X(cudaLaunchKernel)                                                    \
	X(cudaMemcpy)                                                          \
	X(cudaMemcpyAsync)                                                     \
	X(cudaMalloc)                                                          \
	X(cudaMallocHost)                                                      \
	X(cudaDeviceSynchronize)                                               \
	X(cudaStreamSynchronize)                                               \
	X(cudaEventSynchronize)                                                \
	X(__cudaLaunchKernel)                                                  \
	X(__cudaLaunchKernel_ptsz)                                             \
	X(cudaLaunchKernel_ptsz)                                               \
	X(cudaLaunchKernelExC)                                                 \
	X(cudaMemcpyAsync_ptsz)                                                \
	X(cudaFree)                                                            \
	X(cudaHostAlloc)                                                       \
	X(cudaGraphLaunch)                                                     \
	X(cudaOther)                                                           \
	X(cuLaunchKernel)                                                      \
	X(cuLaunchKernelEx)                                                    \
	X(cuMemcpyHtoD)                                                        \
	X(cuMemcpyDtoH)                                                        \
	X(cuMemcpyHtoDAsync)                                                   \
	X(cuMemcpyDtoHAsync)                                                   \
	X(cuMemcpyAsync)                                                       \
	X(cuMemAlloc)                                                          \
	X(cuMemFree)                                                           \
	X(cuCtxSynchronize)                                                    \
	X(cuStreamSynchronize)                                                 \
	X(cuEventSynchronize)                                                  \
	X(cuOther)                                                             \
	X(hipGetDeviceCount)                                                   \
	X(hipSetDevice)                                                        \
	X(hipGetDeviceProperties)                                              \
	X(hipGetDevicePropertiesR0600)                                         \
	X(hipDeviceGet)                                                        \
	X(hipDevicePrimaryCtxRetain)                                           \
	X(hipCtxCreate)                                                        \
	X(cudaGetDeviceCount)                                                  \
	X(cudaSetDevice)                                                       \
	X(cudaGetDeviceProperties)                                             \
	X(cudaInitDevice)                                                      \
	X(cuInit)                                                              \
	X(cuDeviceGetCount)                                                    \
	X(cuDeviceGet)                                                         \
	X(cuCtxCreate)                                                         \
	X(cuDevicePrimaryCtxRetain)
/* clang-format on */

#define GD_TRACE_ENUM(n) GD_TRACE_API_##n,
enum gd_trace_api { GD_TRACE_APIS(GD_TRACE_ENUM) GD_TRACE_API_COUNT };
#undef GD_TRACE_ENUM

/* Header: written once by gpudoctor, except the counters (shim, atomic). */
struct gd_trace_hdr {
	uint32_t magic, version, slot_size, nslots;
	uint64_t next_slot;  /* slots never used start here */
	uint64_t unrecorded; /* threads that found no slot free (now) */
	uint64_t released;   /* slots given back by threads that ended */
	uint8_t pad[GD_TRACE_HDR_SIZE - 40];
};

/* gd_trace_slot_raw.owner: claimed by compare-and-swap, outside the
 * seqlock (a FREE slot has pid and tid 0: the reader skips it). */
enum {
	GD_TRACE_OWNER_NEW = 0,
	GD_TRACE_OWNER_LIVE = 1,
	GD_TRACE_OWNER_FREE = 2
};

/* One slot. seq first; every other field is payload under the seqlock.
 * kind: copy kind (hipMemcpyKind / cudaMemcpyKind) or allocation flags;
 * for cudaOther / cuOther the CUPTI callback id. */
struct gd_trace_slot_raw {
	uint64_t seq;
	uint32_t pid, tid;
	uint32_t state, api;
	uint64_t t_enter_ns; /* CLOCK_MONOTONIC or _COARSE (same origin) */
	uint64_t caller_pc;  /* return address; the reader names its library */
	uint64_t bytes;
	uint64_t stream;
	uint64_t calls_done;
	uint32_t kind;
	int32_t last_result;
	uint32_t last_api;
	uint32_t owner;	 /* GD_TRACE_OWNER_* */
	uint64_t thread; /* the owner's pthread_self(): Python's "Thread 0x" */
	uint64_t spare;
	/* Basename of the calling library, or "" when the reader is to find
	 * it from caller_pc in /proc/PID/maps (the hot path does no dladdr). */
	char caller[GD_TRACE_SLOT_CALLER];
};

_Static_assert(sizeof(struct gd_trace_hdr) == GD_TRACE_HDR_SIZE, "hdr");
_Static_assert(sizeof(struct gd_trace_slot_raw) == GD_TRACE_SLOT_SIZE, "slot");

#endif
