/* inventory/frameworks: Python ML frameworks found by reading files, never
 * by running Python: which environments exist (python3 on PATH,
 * VIRTUAL_ENV, CONDA_PREFIX, user site, /usr/lib/python3/dist-packages,
 * /usr/local/lib/python3.X/), and in each torch, ctranslate2, llama.cpp
 * (llama_cpp / ggml) and onnxruntime: version, build (CUDA / ROCm / CPU),
 * the GPU code their libraries carry (binscan) and what they need. */
#ifndef GD_FRAMEWORKS_H
#define GD_FRAMEWORKS_H

#include <stddef.h>

#include "../binscan/binscan.h"
#include "../core/ctx.h"

struct gd_fw_lib {
	char name[96];	 /* "libtorch_cuda.so" */
	char path[1024]; /* path on the machine (under the root) */
	size_t n_targets;
	char missing[256]; /* needed libraries not found, "" when all are */
	char error[160];
	int not_captured; /* empty file (gather stores libraries empty) or
			   * unreadable: tells nothing about the build */
};

struct gd_framework {
	char name[32]; /* "torch", "ctranslate2", "llama_cpp", "onnxruntime" */
	char version[64]; /* "2.5.1+rocm6.2" */
	char site[512];	  /* the site-packages directory */
	char build[48]; /* "cuda", "rocm", "cpu", "vulkan", "mixed", "unknown",
			 * "unknown (libraries not captured)" when its
			 * libraries are empty files (a gather capture)
			 * or unreadable: nothing to infer the build from */
	char cuda_version[32]; /* torch/version.py cuda, or from libcudart */
	char hip_version[48];  /* torch/version.py hip */
	unsigned
	    bundled_hip_major; /* libamdhip64.so.N inside the package, 0 none */
	char backends[128]; /* llama.cpp: "hip cuda vulkan"; onnxruntime: EPs */
	char
	    rocblas_gfx[512]; /* gfx targets of a bundled rocBLAS library dir */
	GD_VEC(struct gd_bs_target) targets; /* merged over its libraries */
	GD_VEC(struct gd_fw_lib) libs;
	/* filled by gd_frameworks_check */
	char rocm_mismatch[256]; /* "" when fine */
	char no_code[256];	 /* "" when fine */
	int fits;		 /* 1 code for the GPUs, 0 not, -1 not judged */
	char rocm_note[256]; /* matches an installed ROCm the loader does not
			      * pick first: not an error, said as a note */
};

struct gd_frameworks {
	GD_VEC(char *) envs; /* site dirs looked at (host paths under root) */
	GD_VEC(struct gd_framework) fw;
	unsigned
	    system_hip_major; /* libamdhip64.so.N the loader finds, 0 none */
	char system_hip_dir[512]; /* the directory it is found in, "" none */
};

/* Find environments and frameworks. Problems become diagnostics. */
int gd_frameworks_collect(gd_ctx *ctx, struct gd_frameworks *out);
void gd_frameworks_free(struct gd_frameworks *out);

/* Flag frameworks built for a HIP major no installed ROCm provides, and
 * frameworks with no code for the GPUs (gpu list as binscan takes it:
 * gd_bs_gpu_parse("gfx1030") ...). A libamdhip64 bundled in the package
 * matches itself. Only the loader's pick (system_hip_major) is known here;
 * gd_frameworks_check_rocm also compares with every installed ROCm. */
void gd_frameworks_check(struct gd_frameworks *fws,
			 const struct gd_bs_gpu *gpus, size_t n_gpus);

/* As gd_frameworks_check, with the installed ROCm trees (inventory's
 * gd_inventory.rocm / n_rocm; NULL, 0 = only the loader's pick): a
 * framework built for HIP 6 matches /opt/rocm-6.2.4 even when the loader
 * finds libamdhip64.so.5 first (then rocm_note says so). */
struct gd_rocm_install;
void gd_frameworks_check_rocm(struct gd_frameworks *fws,
			      const struct gd_bs_gpu *gpus, size_t n_gpus,
			      const struct gd_rocm_install *rocm,
			      size_t n_rocm);

#endif
