/* probe/hip_api: the HIP runtime entry points the probe uses, as exported
 * by libamdhip64 since HIP 4.2 (symbol version hip_4.2; hiprtc is inside
 * libamdhip64 up to ROCm 5.x and in libhiprtc from 6.0). Declared here so
 * no ROCm header is needed to build. hipError_t is an int; 0 = success. */
#ifndef GD_HIP_API_H
#define GD_HIP_API_H

#include <stddef.h>

#include "backend.h"

struct gd_devops;

typedef int hipError_t;
typedef struct ihipStream_t *hipStream_t;
typedef struct ihipModule_t *hipModule_t;
typedef struct ihipModuleSymbol_t *hipFunction_t;
typedef struct ihipEvent_t *hipEvent_t;
typedef struct _hiprtcProgram *hiprtcProgram;

#define GD_HIP_H2D 1			    /* hipMemcpyHostToDevice */
#define GD_HIP_D2H 2			    /* hipMemcpyDeviceToHost */
#define GD_HIP_D2D 3			    /* hipMemcpyDeviceToDevice */
#define GD_HIP_HOST_NONCOHERENT 0x80000000u /* hipHostMallocNonCoherent */
#define GD_HIP_DEVICE_FINEGRAINED 0x1u	    /* hipDeviceMallocFinegrained */

struct gd_hip {
	void *lib;
	hipError_t (*Init)(unsigned);
	hipError_t (*GetDeviceCount)(int *);
	hipError_t (*DriverGetVersion)(int *);
	hipError_t (*RuntimeGetVersion)(int *);
	hipError_t (*DeviceGetName)(char *, int, int);
	hipError_t (*DeviceTotalMem)(size_t *, int);
	hipError_t (*GetDeviceProperties)(void *, int);
	const char *(*GetErrorName)(hipError_t);
	const char *(*GetErrorString)(hipError_t);
	hipError_t (*SetDevice)(int);
	hipError_t (*Malloc)(void **, size_t);
	hipError_t (*Free)(void *);
	hipError_t (*HostMalloc)(void **, size_t, unsigned);
	hipError_t (*HostFree)(void *);
	hipError_t (*ExtMallocWithFlags)(void **, size_t, unsigned);
	hipError_t (*Memcpy)(void *, const void *, size_t, int);
	hipError_t (*MemcpyAsync)(void *, const void *, size_t, int,
				  hipStream_t);
	hipError_t (*StreamCreate)(hipStream_t *);
	hipError_t (*StreamDestroy)(hipStream_t);
	hipError_t (*StreamSynchronize)(hipStream_t);
	hipError_t (*DeviceSynchronize)(void);
	hipError_t (*ModuleLoadData)(hipModule_t *, const void *);
	hipError_t (*ModuleGetFunction)(hipFunction_t *, hipModule_t,
					const char *);
	hipError_t (*ModuleUnload)(hipModule_t);
	hipError_t (*Memset)(void *, int, size_t);
	hipError_t (*DeviceReset)(void);
	hipError_t (*EventCreate)(hipEvent_t *);
	hipError_t (*EventRecord)(hipEvent_t, hipStream_t);
	hipError_t (*EventSynchronize)(hipEvent_t);
	hipError_t (*EventElapsedTime)(float *, hipEvent_t, hipEvent_t);
	hipError_t (*EventDestroy)(hipEvent_t);
	hipError_t (*ModuleLaunchKernel)(hipFunction_t, unsigned, unsigned,
					 unsigned, unsigned, unsigned, unsigned,
					 unsigned, hipStream_t, void **,
					 void **);
	/* hiprtc (libamdhip64 <= 5.x, libhiprtc >= 6) */
	int (*RtcCreate)(hiprtcProgram *, const char *, const char *, int,
			 const char **, const char **);
	int (*RtcCompile)(hiprtcProgram, int, const char **);
	int (*RtcCodeSize)(hiprtcProgram, size_t *);
	int (*RtcCode)(hiprtcProgram, char *);
	int (*RtcLogSize)(hiprtcProgram, size_t *);
	int (*RtcLog)(hiprtcProgram, char *);
	int (*RtcDestroy)(hiprtcProgram *);
	const char *(*RtcErrStr)(int);
	hipStream_t stream;
	hipEvent_t ev[2]; /* the device timer of the primitives */
	int dev;
	char gfx[64];
};

/* "hipErrorNoDevice (100): no ROCm-capable device is detected" */
void gd_hip_err(const struct gd_hip *h, hipError_t e, char *buf, size_t cap);
/* vector_add compiled by hiprtc and loaded; how says which way. */
hipError_t gd_hip_load_vector_add(struct gd_pc *pc, struct gd_hip *h,
				  hipModule_t *mod, hipFunction_t *fn,
				  char *why, size_t cap);

/* backend_hip_blas.c: hipBLAS (gemm_fp32, gemm_fp16_ex_v1, gemm_fp16) and
 * rocBLAS (gemm_fp32_rocblas) checked GEMMs, and the GEMM rates. */
void gd_hip_gemm_ops(struct gd_pc *pc, struct gd_hip *h, int dev);
void gd_hip_gemm_bench(struct gd_pc *pc, struct gd_hip *h, int dev);
/* backend_hip_dnn.c: MIOpen forward convolution (conv_fwd). */
void gd_hip_conv_op(struct gd_pc *pc, struct gd_hip *h, int dev);
/* backend_hip_bench.c: the context cycle. */
void gd_hip_context_cycle(struct gd_pc *pc, struct gd_hip *h);
/* backend_hip_dev.c: the device primitives (device.h); be is the struct
 * gd_hip. */
extern const struct gd_devops gd_hip_devops;

#endif
