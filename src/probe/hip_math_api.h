/* probe/hip_math_api: the few hipBLAS, rocBLAS and MIOpen types, enum
 * values and entry points the HIP probe calls, declared here so no ROCm
 * header is needed to build. Every library is dlopen'ed; every enum is a
 * plain int at the ABI level. The headers and versions they come from
 * (values checked against them): docs/probe.md, "Sources".
 *
 *  - hipBLAS, ROCm 5.x-6.x (hipBLAS 0.x-2.x):
 *    hipblasStatus_t 0..11, hipblasOperation_t HIPBLAS_OP_N = 111,
 *    hipblasDatatype_t HIPBLAS_R_16F = 150, HIPBLAS_R_32F = 151,
 *    HIPBLAS_R_16B = 168, hipblasGemmAlgo_t HIPBLAS_GEMM_DEFAULT = 160;
 *    hipblasComputeType_t (added in hipBLAS 2.0, ROCm 6.0)
 *    HIPBLAS_COMPUTE_32F = 2.
 *  - HIP (HIP 5.x-7.x): hipDataType HIP_R_32F = 0,
 *    HIP_R_16F = 2, HIP_R_16BF = 14 (the cudaDataType values).
 *  - The two GemmEx ABIs. hipBLAS 2.x (libhipblas.so.2, ROCm 6.x) exports
 *    hipblasGemmEx with hipblasDatatype_t for the matrices and the compute
 *    type ("v1"), and hipblasGemmEx_v2 with hipDataType and
 *    hipblasComputeType_t; the header maps hipblasGemmEx to the _v2 only
 *    under -DHIPBLAS_V2. hipBLAS 3.0 (libhipblas.so.3, ROCm 7.0) removed
 *    hipblasDatatype_t and the _v2 names: its hipblasGemmEx has the v2
 *    signature (hipBLAS docs, "Deprecations by version", Removed in 3.0).
 *    hipBLAS 1.x and older (ROCm 5.x) have only v1.
 *  - rocBLAS (rocBLAS 2.x-4.x):
 *    rocblas_operation_none = 111, rocblas_status 0..13; rocblas_int is
 *    int32_t (LP64 build, the one ROCm ships).
 *  - MIOpen (MIOpen 2.x-3.x): miopenStatus_t
 *    0..10, miopenDataType_t miopenFloat = 1, miopenConvolutionMode_t
 *    miopenConvolution = 0 (cross-correlation); miopenConvAlgoPerf_t is
 *    { union of int enums; float time; size_t memory; }. The filter is a
 *    4-d tensor descriptor (K, C, R, S). */
#ifndef GD_HIP_MATH_API_H
#define GD_HIP_MATH_API_H

#include <stdbool.h>
#include <stddef.h>

#include "hip_api.h"

/* ---- hipBLAS ---- */
typedef void *hipblasHandle_t;
#define GD_HIPBLAS_OP_N 111
#define GD_HIPBLAS_R_16F 150 /* hipblasDatatype_t (v1) */
#define GD_HIPBLAS_R_32F 151
#define GD_HIPBLAS_R_16B 168
#define GD_HIPBLAS_GEMM_DEFAULT 160
#define GD_HIP_R_32F 0 /* hipDataType (v2) */
#define GD_HIP_R_16F 2
#define GD_HIP_R_16BF 14
#define GD_HIPBLAS_COMPUTE_32F 2 /* hipblasComputeType_t (v2) */

/* hipblasGemmEx (v1) and hipblasGemmEx_v2 / hipBLAS 3 hipblasGemmEx have
 * the same shape: every enum is an int. */
typedef int (*gd_hipblas_gemmex_fn)(hipblasHandle_t, int, int, int, int, int,
				    const void *, const void *, int, int,
				    const void *, int, int, const void *,
				    void *, int, int, int, int);

struct gd_hipblas {
	int (*Create)(hipblasHandle_t *);
	int (*Destroy)(hipblasHandle_t);
	int (*SetStream)(hipblasHandle_t, hipStream_t);
	int (*Sgemm)(hipblasHandle_t, int, int, int, int, int, const float *,
		     const float *, int, const float *, int, const float *,
		     float *, int);
	gd_hipblas_gemmex_fn GemmEx;	    /* the symbol "hipblasGemmEx" */
	gd_hipblas_gemmex_fn GemmExV2;	    /* the symbol "hipblasGemmEx_v2" */
	const char *(*StatusToString)(int); /* optional */
	hipblasHandle_t h;
	int major; /* soname major: 3 = ROCm 7 ABI, 0 = unknown */
	char lib[256];
};

/* ---- rocBLAS ---- */
typedef struct _rocblas_handle *rocblas_handle;
#define GD_ROCBLAS_OP_NONE 111

struct gd_rocblas {
	int (*Create)(rocblas_handle *);
	int (*Destroy)(rocblas_handle);
	int (*SetStream)(rocblas_handle, hipStream_t);
	int (*Sgemm)(rocblas_handle, int, int, int, int, int, const float *,
		     const float *, int, const float *, int, const float *,
		     float *, int);
	const char *(*StatusToString)(int);   /* optional */
	int (*VersionString)(char *, size_t); /* optional */
	rocblas_handle h;
	char lib[256];
};

/* ---- MIOpen ---- */
typedef struct miopenHandle *miopenHandle_t;
typedef struct miopenTensorDescriptor *miopenTensorDescriptor_t;
typedef struct miopenConvolutionDescriptor *miopenConvolutionDescriptor_t;
#define GD_MIOPEN_FLOAT 1
#define GD_MIOPEN_CONVOLUTION 0

typedef struct {
	int fwd_algo; /* union with the backward algorithm enums */
	float time;
	size_t memory;
} gd_miopenConvAlgoPerf_t;

struct gd_miopen {
	int (*Create)(miopenHandle_t *);
	int (*Destroy)(miopenHandle_t);
	int (*SetStream)(miopenHandle_t, hipStream_t);
	int (*GetVersion)(size_t *, size_t *, size_t *);
	const char *(*ErrStr)(int);
	int (*CreateTensor)(miopenTensorDescriptor_t *);
	int (*Set4dTensor)(miopenTensorDescriptor_t, int, int, int, int, int);
	int (*DestroyTensor)(miopenTensorDescriptor_t);
	int (*CreateConv)(miopenConvolutionDescriptor_t *);
	int (*InitConv)(miopenConvolutionDescriptor_t, int, int, int, int, int,
			int, int);
	int (*DestroyConv)(miopenConvolutionDescriptor_t);
	/* (handle, wDesc, xDesc, convDesc, yDesc, &size): w before x */
	int (*FwdWsSize)(miopenHandle_t, miopenTensorDescriptor_t,
			 miopenTensorDescriptor_t,
			 miopenConvolutionDescriptor_t,
			 miopenTensorDescriptor_t, size_t *);
	int (*FindFwd)(miopenHandle_t, miopenTensorDescriptor_t, const void *,
		       miopenTensorDescriptor_t, const void *,
		       miopenConvolutionDescriptor_t, miopenTensorDescriptor_t,
		       void *, int, int *, gd_miopenConvAlgoPerf_t *, void *,
		       size_t, bool);
	int (*Forward)(miopenHandle_t, const void *, miopenTensorDescriptor_t,
		       const void *, miopenTensorDescriptor_t, const void *,
		       miopenConvolutionDescriptor_t, int, const void *,
		       miopenTensorDescriptor_t, void *, void *, size_t);
	char lib[256];
};

#endif
