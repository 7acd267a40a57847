/* probe/cuda_api: the few CUDA types and entry points the probe uses,
 * declared here so no CUDA header is needed to build (nvtop's way). Each
 * symbol is named with the exact versioned export, which libcuda keeps for
 * every old ABI: driver API of CUDA 4.0+ (_v2 names from CUDA 3.2/4.0,
 * cuGetErrorName 6.0), NVRTC 7.0+, cuBLAS 11.0+ (cublasGemmEx with
 * cublasComputeType_t), cuDNN 7-9 legacy convolution API, NVML 10.x+. */
#ifndef GD_CUDA_API_H
#define GD_CUDA_API_H

#include <stddef.h>

#include "backend.h"

struct gd_devops;

typedef int CUresult; /* 0 = CUDA_SUCCESS */
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef unsigned long long CUdeviceptr;

#define GD_CU_ATTR_CC_MAJOR                                                    \
	75 /* CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR */
#define GD_CU_ATTR_CC_MINOR 76
#define GD_CU_ERROR_NO_DEVICE 100

struct gd_cu {
	void *lib;
	CUresult (*Init)(unsigned);
	CUresult (*DriverGetVersion)(int *);
	CUresult (*DeviceGetCount)(int *);
	CUresult (*DeviceGet)(CUdevice *, int);
	CUresult (*DeviceGetName)(char *, int, CUdevice);
	CUresult (*DeviceTotalMem)(size_t *, CUdevice); /* _v2 */
	CUresult (*DeviceGetAttribute)(int *, int, CUdevice);
	CUresult (*PrimaryCtxRetain)(CUcontext *, CUdevice);
	CUresult (*PrimaryCtxRelease)(CUdevice); /* _v2 */
	CUresult (*CtxSetCurrent)(CUcontext);
	CUresult (*CtxCreate)(CUcontext *, unsigned, CUdevice); /* _v2 */
	CUresult (*CtxDestroy)(CUcontext);			/* _v2 */
	CUresult (*CtxSynchronize)(void);
	CUresult (*MemAlloc)(CUdeviceptr *, size_t); /* _v2 */
	CUresult (*MemFree)(CUdeviceptr);	     /* _v2 */
	CUresult (*MemAllocHost)(void **, size_t);   /* _v2 */
	CUresult (*MemFreeHost)(void *);
	CUresult (*MemcpyHtoD)(CUdeviceptr, const void *, size_t);
	CUresult (*MemcpyDtoH)(void *, CUdeviceptr, size_t);
	CUresult (*MemcpyHtoDAsync)(CUdeviceptr, const void *, size_t,
				    CUstream);
	CUresult (*MemcpyDtoHAsync)(void *, CUdeviceptr, size_t, CUstream);
	CUresult (*MemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
	CUresult (*MemsetD8)(CUdeviceptr, unsigned char, size_t);
	CUresult (*StreamCreate)(CUstream *, unsigned);
	CUresult (*StreamSynchronize)(CUstream);
	CUresult (*StreamDestroy)(CUstream); /* _v2 */
	CUresult (*EventCreate)(CUevent *, unsigned);
	CUresult (*EventRecord)(CUevent, CUstream);
	CUresult (*EventSynchronize)(CUevent);
	CUresult (*EventElapsedTime)(float *, CUevent, CUevent);
	CUresult (*EventDestroy)(CUevent); /* _v2 */
	CUresult (*ModuleLoadData)(CUmodule *, const void *);
	CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
	CUresult (*ModuleUnload)(CUmodule);
	CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned,
				 unsigned, unsigned, unsigned, unsigned,
				 CUstream, void **, void **);
	CUresult (*GetErrorName)(CUresult, const char **);
	CUresult (*GetErrorString)(CUresult, const char **);
	/* state of the device under test */
	CUdevice dev;
	CUcontext ctx;
	CUstream stream;
	CUevent ev[2]; /* the device timer of the primitives */
	int cc_major, cc_minor;
	int driver_version;
};

/* "CUDA_ERROR_NO_DEVICE (100): no CUDA-capable device is detected" */
void gd_cu_errstr(const struct gd_cu *cu, CUresult r, char *buf, size_t cap);

/* backend_cuda_dev.c: the device primitives (device.h); be is the
 * struct gd_cu. */
extern const struct gd_devops gd_cu_devops;
/* backend_cuda_kernel.c: vector_add through NVRTC (or PTX by the driver),
 * contexts from several threads. */
void gd_cu_context_cycle(struct gd_pc *pc, struct gd_cu *cu);
/* Loads vector_add for the current context: NVRTC when present, else the
 * built-in PTX. how gets "NVRTC 13.0" / "built-in PTX (NVRTC: ...)". */
CUresult gd_cu_load_vector_add(struct gd_pc *pc, struct gd_cu *cu,
			       CUmodule *mod, CUfunction *fn, char *how,
			       size_t cap);

/* cuBLAS and cuDNN ops (backend_cuda_blas.c); dev is the result index. */
void gd_cu_gemm_ops(struct gd_pc *pc, struct gd_cu *cu, int dev);
void gd_cu_conv_op(struct gd_pc *pc, struct gd_cu *cu, int dev);
void gd_cu_gemm_bench(struct gd_pc *pc, struct gd_cu *cu, int dev);

#endif
