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
	char path[512];	  /* the file found */
	char version[64]; /* from the file name (libfoo.so.X.Y.Z), "" if none */
	unsigned so_major; /* soname major, 0 when unknown */
};

struct gd_rocm_install {
	char path[512];	   /* "/opt/rocm-6.2.4", "/usr/lib/x86_64-linux-gnu" */
	char found_by[64]; /* "/opt/rocm", "ROCM_PATH", "HIP_PATH",
			      "LD_LIBRARY_PATH", "multiarch" */
	gd_text version;   /* .info/version or the libamdhip64 file version */
	gd_text hip_version; /* libamdhip64 file version */
	unsigned hip_major;  /* libamdhip64.so.N, 0 when no HIP runtime */
	struct gd_lib *libs;
	size_t n_libs;
	/* added by inventory/ (inv) */
	char resolved[512]; /* path with symlinks resolved under the root */
	char lib_dir[512]; /* where its libraries are ("/opt/rocm-6.2.4/lib") */
	int loader_pick;   /* 1: the loader's first libamdhip64 is this one */
	int hip_path_mismatch; /* 1: HIP_PATH points here and this HIP major
				* differs from the one the loader picks */
	char error[200]; /* why part of it could not be read, "" if fine */
};

enum gd_rocblas_kind {
	GD_ROCBLAS_TENSILE_LAZY, /* TensileLibrary_lazy_gfxN.dat + code objects
				  */
	GD_ROCBLAS_TENSILE_SINGLE, /* TensileLibrary.dat +
				      TensileLibrary_gfxN.co */
	GD_ROCBLAS_FALLBACK_ONLY, /* Kernels.so-000-gfxN.hsaco, no Tensile: slow
				     generic GEMM */
	GD_ROCBLAS_INCOMPLETE,	  /* (inv) files for it, but rocBLAS cannot use
				   * them (no catalog, or no code objects) */
};

struct gd_rocblas_target {
	char gfx[16];  /* "gfx1010" */
	char xnack[8]; /* "", "+", "-" */
	enum gd_rocblas_kind kind;
	/* added by inventory/ (inv) */
	int fallback_kernels; /* Kernels.so-000-gfxN[-xnack±].hsaco present */
	int tensile_catalog;  /* TensileLibrary_lazy_gfxN.dat /
				 TensileLibrary.dat */
	int tensile_code; /* Tensile code objects (.co/.hsaco) for this gfx */
	char note[120];	  /* e.g. "lazy catalog but no code objects" */
};

struct gd_rocblas_dir {
	char path[512];	   /* the .../rocblas/library directory */
	char found_by[64]; /* install path or "ROCBLAS_TENSILE_LIBPATH" */
	struct gd_rocblas_target *targets;
	size_t n_targets;
	/* added by inventory/ (inv) */
	char version[32]; /* "2.47.0" from .../rocblas/<version>/library, "" */
	char error[200];  /* listing failed / truncated, "" if fine */
	char resolved[512];
};

struct gd_cuda_toolkit {
	char path[512];
	gd_text version; /* version.json / version.txt */
	struct gd_lib *libs;
	size_t n_libs;
	/* added by inventory/ (inv) */
	char found_by[64]; /* "/usr/local/cuda", "CUDA_HOME", ... (", "-joined)
			    */
	char resolved[512];
	char lib_dir[512];
	char error[200];
};

struct gd_cuda_check {
	char lib[32];	     /* "cudart" */
	char version[64];    /* "12.4" */
	char min_driver[32]; /* judged by doctor/cuda_driver.c: "" unknown */
	int driver_ok;	     /* 1 ok, 0 too old, -1 unknown */
	char why[200];
	/* added by inventory/ (inv) */
	char cuda[16];	      /* the CUDA release it was built for ("12.4") */
	char path[512];	      /* the library or toolkit it is about */
	char full_driver[32]; /* driver for every feature of cuda (no minor-
			       * version compatibility limits), "" unknown */
};

struct gd_icd {
	char manifest[512];  /* the .json or .icd file */
	char found_by[64];   /* directory or env var */
	gd_text library;     /* library path or soname as written */
	gd_text api_version; /* Vulkan: "1.3.238"; OpenCL: "" */
	int library_found;   /* the library exists (or is a bare soname found in
				ld dirs) */
	int software; /* llvmpipe / lavapipe / swiftshader / PoCL: the CPU, not
			 a GPU */
	char driver[64]; /* "radv", "nvidia", "lvp", "pocl", "intel", ... */
	char error[200]; /* parse error, "" when fine */
	/* added by inventory/ (inv) */
	char file_format_version[32]; /* Vulkan manifest, "" for OpenCL */
	char library_resolved[512];   /* the file the loader would open, "" */
	char manifest_resolved[512];  /* manifest path, symlinks resolved */
};

/* Would a library gpudoctor or a framework loads load? Its whole
 * DT_NEEDED closure resolved as ld.so would (binscan's gd_ld_closure,
 * whose status this mirrors): the first problem, as ld.so stops there. */
enum gd_dep_status {
	GD_DEP_OK = 0,
	GD_DEP_UNKNOWN, /* not judged (a capture's empty stub, unreadable) */
	GD_DEP_MISSING, /* a needed library is nowhere */
	GD_DEP_WRONG_CLASS,   /* only a 32-bit (or 64-bit) file of the name */
	GD_DEP_WRONG_MACHINE, /* only a file for another CPU */
	GD_DEP_VERSION,	      /* a needed symbol version is not defined */
	GD_DEP_BAD_ELF,	      /* not a loadable ELF */
};
/* "ok", "unknown", "missing", "wrong_class", "wrong_machine", "version",
 * "bad_elf" */
const char *gd_dep_status_name(enum gd_dep_status s);

struct gd_dep_check {
	char backend[16]; /* the probe backend that loads it: "hip", "cuda",
			     "vulkan", "opencl" */
	char vendor[16];  /* "amd", "nvidia"; "" for any (software, other) */
	char what[64];	  /* "HIP runtime", "Vulkan ICD nvidia", "cuBLAS" */
	char name[128];	  /* as named: an ICD's library_path, the file name */
	char lib[512];	  /* the file checked, on the machine */
	enum gd_dep_status status;
	char chain[768];     /* "libGLX_nvidia.so.0 -> libGLdispatch.so.0" */
	char soname[128];    /* the library at fault */
	char needed_by[512]; /* the object that needs it */
	char path[512];	     /* the file found (wrong class / version), "" */
	char version[64];    /* the symbol version needed ("GLIBCXX_3.4.30") */
	char provides[64];   /* the highest of its family defined, "" */
	char how[24];	     /* how path was found ("LD_LIBRARY_PATH", ...) */
	char detail[256];    /* "32-bit (ELFCLASS32), machine 3 (i386)", ... */
	unsigned objects;    /* objects read */
	int truncated;	     /* a bound was reached: the rest not judged */
};

struct gd_inventory {
	struct gd_rocm_install *rocm;
	size_t n_rocm;
	struct gd_rocblas_dir *rocblas;
	size_t n_rocblas;
	struct gd_cuda_toolkit *cuda;
	size_t n_cuda;
	gd_text cuda_driver;	  /* driver version ("580.95.05") */
	gd_text cuda_driver_api;  /* highest CUDA the driver supports ("13.0"),
				     from the kb */
	struct gd_lib *cuda_libs; /* cudart/cublas/cudnn found in ld dirs */
	size_t n_cuda_libs;
	struct gd_cuda_check *cuda_checks;
	size_t n_cuda_checks;
	struct gd_icd *vulkan;
	size_t n_vulkan;
	struct gd_icd *opencl;
	size_t n_opencl;
	/* added by inventory/ (inv) */
	int hip_path_mismatch;	   /* some install has hip_path_mismatch set */
	char cuda_driver_from[96]; /* where the driver version was read */
	char vulkan_search[64];	   /* "standard", "VK_DRIVER_FILES",
				      "VK_ICD_FILENAMES" */
	char opencl_search[64]; /* "/etc/OpenCL/vendors", "OCL_ICD_VENDORS" */
	struct gd_dep_check *deps; /* every runtime library's closure */
	size_t n_deps;
	/* Intel's compute runtime (inventory/intel.c): labels ze_loader,
	 * ze_intel_gpu, igdrcl, igc, igdgmm */
	struct gd_lib *intel_libs;
	size_t n_intel_libs;
};

int gd_inventory_collect(gd_ctx *ctx, struct gd_inventory *inv);
/* An Intel compute-runtime library by label ("ze_intel_gpu"), or NULL. */
const struct gd_lib *gd_inventory_intel_lib(const struct gd_inventory *inv,
					    const char *label);
void gd_inventory_free(struct gd_inventory *inv);

/* The dependency check of a library, by the path checked, or by the name
 * an ICD manifest or a loader gives it ("libGLX_nvidia.so.0", matched
 * against each check's name and file name). NULL when none. */
const struct gd_dep_check *gd_inventory_dep_find(const struct gd_inventory *inv,
						 const char *lib);
/* The first check of a probe backend ("hip", "cuda", "vulkan", "opencl")
 * whose library would not load (status missing, wrong_class,
 * wrong_machine, version or bad_elf); NULL when none. */
const struct gd_dep_check *
gd_inventory_dep_broken(const struct gd_inventory *inv, const char *backend);
/* Check d again with sonames its library loads with dlopen at run time
 * (doctor has them from the kb): each resolved as that dlopen would be,
 * its closure followed. d belongs to inv. */
void gd_inventory_dep_dlopens(gd_ctx *ctx, struct gd_dep_check *d,
			      const char *const *sonames);
/* 1 when the status says the library would not load. */
int gd_dep_broken(enum gd_dep_status s);

/* rocBLAS coverage of one gfx target across all dirs:
 * best kind found, or -1 when no dir has anything for it. */
int gd_rocblas_coverage(const struct gd_inventory *inv, const char *gfx);

/* ---- parsers on bytes (unit-tested and fuzzed) ---- */
const char *
gd_rocblas_kind_name(enum gd_rocblas_kind kind); /* "tensile-lazy" ... */

/* Classify the file names of one rocBLAS library directory into per-target
 * coverage (dir->targets, malloc'ed). Returns the number of targets. */
size_t gd_rocblas_scan_names(char *const *names, size_t n,
			     struct gd_rocblas_dir *dir);

/* Vulkan ICD manifest JSON (docs/json-runtimes.md, "Sources"): fills
 * library, api_version, file_format_version. 0, or -1 with icd->error. */
int gd_vk_manifest_parse(const char *buf, size_t len, struct gd_icd *icd);
/* OpenCL vendor .icd file: the first line is a library path or name. */
int gd_ocl_icd_parse(const char *buf, size_t len, struct gd_icd *icd);
/* Set icd->driver and icd->software from the library / manifest names. */
void gd_icd_classify(struct gd_icd *icd, int vulkan);

/* "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.95.05 ..." (also the
 * open module's "... Open Kernel Module for x86_64  575.57.08 ..."). */
int gd_cuda_parse_nvrm(const char *buf, char *ver, size_t cap);

/* A CUDA toolkit's version.json (CUDA 11.1+). Fields "" when absent. */
struct gd_cuda_version_json {
	char cuda[64];	 /* "cuda" (the SDK) */
	char cudart[64]; /* "cuda_cudart" */
	char cublas[64]; /* "libcublas" */
	char nvrtc[64];	 /* "cuda_nvrtc" */
	char driver[64]; /* "nvidia_driver" (the bundled driver) */
};
int gd_cuda_parse_version_json(const char *buf, size_t len,
			       struct gd_cuda_version_json *out);
/* "#define NAME 123" in a header text; 0 and *v, or -1. */
int gd_parse_c_define(const char *buf, const char *name, unsigned long *v);

#endif
