/* inventory/: installed software, found by reading files (never loading
 * them): ROCm/HIP installs, rocBLAS kernel coverage, CUDA driver and
 * toolkits, Vulkan and OpenCL ICDs. Every path goes through ctx->fs. */
#ifndef GD_INVENTORY_H
#define GD_INVENTORY_H

#include <stddef.h>

#include "../core/ctx.h"
#include "../core/facts.h"

/* One library of an install: "rocblas", "hipblas", "hipblaslt", "miopen",
 * "amd_comgr", "hiprtc", "amdhip64" (ROCm) or "cudart", "cublas", "cudnn",
 * "nvrtc" (CUDA). */
struct gd_lib {
	char name[32];
	char path[512];     /* the file found */
	char version[64];   /* from the file name (libfoo.so.X.Y.Z), "" if none */
	unsigned so_major;  /* soname major, 0 when unknown */
};

struct gd_rocm_install {
	char path[512];     /* "/opt/rocm-6.2.4", "/usr/lib/x86_64-linux-gnu" */
	char found_by[64];  /* "/opt/rocm", "ROCM_PATH", "HIP_PATH", "LD_LIBRARY_PATH", "multiarch" */
	gd_text version;    /* .info/version or the libamdhip64 file version */
	gd_text hip_version;/* libamdhip64 file version */
	unsigned hip_major; /* libamdhip64.so.N, 0 when no HIP runtime */
	struct gd_lib *libs;
	size_t n_libs;
};

enum gd_rocblas_kind {
	GD_ROCBLAS_TENSILE_LAZY,   /* TensileLibrary_lazy_gfxN.dat + code objects */
	GD_ROCBLAS_TENSILE_SINGLE, /* TensileLibrary.dat + TensileLibrary_gfxN.co */
	GD_ROCBLAS_FALLBACK_ONLY,  /* Kernels.so-000-gfxN.hsaco, no Tensile: slow generic GEMM */
};

struct gd_rocblas_target {
	char gfx[16];   /* "gfx1010" */
	char xnack[8];  /* "", "+", "-" */
	enum gd_rocblas_kind kind;
};

struct gd_rocblas_dir {
	char path[512];    /* the .../rocblas/library directory */
	char found_by[64]; /* install path or "ROCBLAS_TENSILE_LIBPATH" */
	struct gd_rocblas_target *targets;
	size_t n_targets;
};

struct gd_cuda_toolkit {
	char path[512];
	gd_text version; /* version.json / version.txt */
	struct gd_lib *libs;
	size_t n_libs;
};

struct gd_cuda_check {
	char lib[32];       /* "cudart" */
	char version[64];   /* "12.4" */
	char min_driver[32];/* from the kb, "" when unknown */
	int driver_ok;      /* 1 ok, 0 too old, -1 unknown */
	char why[200];
};

struct gd_icd {
	char manifest[512];   /* the .json or .icd file */
	char found_by[64];    /* directory or env var */
	gd_text library;      /* library path or soname as written */
	gd_text api_version;  /* Vulkan: "1.3.238"; OpenCL: "" */
	int library_found;    /* the library exists (or is a bare soname found in ld dirs) */
	int software;         /* llvmpipe / lavapipe / swiftshader / PoCL: the CPU, not a GPU */
	char driver[64];      /* "radv", "nvidia", "lvp", "pocl", "intel", ... */
	char error[200];      /* parse error, "" when fine */
};

struct gd_inventory {
	struct gd_rocm_install *rocm;
	size_t n_rocm;
	struct gd_rocblas_dir *rocblas;
	size_t n_rocblas;
	struct gd_cuda_toolkit *cuda;
	size_t n_cuda;
	gd_text cuda_driver;   /* driver version ("580.95.05") */
	gd_text cuda_driver_api; /* highest CUDA the driver supports ("13.0"), from the kb */
	struct gd_lib *cuda_libs; /* cudart/cublas/cudnn found in ld dirs */
	size_t n_cuda_libs;
	struct gd_cuda_check *cuda_checks;
	size_t n_cuda_checks;
	struct gd_icd *vulkan;
	size_t n_vulkan;
	struct gd_icd *opencl;
	size_t n_opencl;
};

int gd_inventory_collect(gd_ctx *ctx, struct gd_inventory *inv);
void gd_inventory_free(struct gd_inventory *inv);

/* rocBLAS coverage of one gfx target across all dirs:
 * best kind found, or -1 when no dir has anything for it. */
int gd_rocblas_coverage(const struct gd_inventory *inv, const char *gfx);

#endif
