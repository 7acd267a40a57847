/* probe/libnames on Linux: versioned sonames first (the unversioned name
 * exists only with -dev packages), then the vendors' own directories. */
#include <glob.h>
#include <stddef.h>
#include <string.h>

#include "core/util.h"
#include "libnames.h"

static const char *const cuda[] = {"libcuda.so.1", "libcuda.so", NULL};
static const char *const nvml[] = {"libnvidia-ml.so.1", NULL};
static const char *const nvrtc[] = {"libnvrtc.so.13", "libnvrtc.so.12",
				    "libnvrtc.so.11.2", "libnvrtc.so", NULL};
static const char *const cublas[] = {"libcublas.so.13", "libcublas.so.12",
				     "libcublas.so.11", "libcublas.so", NULL};
static const char *const cudnn[] = {"libcudnn.so.9", "libcudnn.so.8",
				    "libcudnn.so", NULL};
static const char *const hip[] = {"libamdhip64.so.7", "libamdhip64.so.6",
				  "libamdhip64.so.5", "libamdhip64.so", NULL};
static const char *const hiprtc[] = {"libhiprtc.so.7", "libhiprtc.so.6",
				     "libhiprtc.so", NULL};
static const char *const hipblas[] = {"libhipblas.so.3", "libhipblas.so.2",
				      "libhipblas.so.1", "libhipblas.so.0",
				      "libhipblas.so",	 NULL};
static const char *const rocblas[] = {"librocblas.so.5", "librocblas.so.4",
				      "librocblas.so.3", "librocblas.so.0",
				      "librocblas.so",	 NULL};
static const char *const miopen[] = {"libMIOpen.so.1", "libMIOpen.so", NULL};
static const char *const opencl[] = {"libOpenCL.so.1", "libOpenCL.so", NULL};
static const char *const vulkan[] = {"libvulkan.so.1", "libvulkan.so", NULL};
static const char *const level_zero[] = {"libze_loader.so.1", "libze_loader.so",
					 NULL};
static const char *const absent[] = {"libgpudoctor-selftest-absent.so.1", NULL};

const char *const *gd_lib_names(enum gd_rtlib l)
{
	static const char *const *const t[] = {
	    [GD_LIB_CUDA] = cuda,
	    [GD_LIB_NVML] = nvml,
	    [GD_LIB_NVRTC] = nvrtc,
	    [GD_LIB_CUBLAS] = cublas,
	    [GD_LIB_CUDNN] = cudnn,
	    [GD_LIB_HIP] = hip,
	    [GD_LIB_HIPRTC] = hiprtc,
	    [GD_LIB_HIPBLAS] = hipblas,
	    [GD_LIB_ROCBLAS] = rocblas,
	    [GD_LIB_MIOPEN] = miopen,
	    [GD_LIB_OPENCL] = opencl,
	    [GD_LIB_VULKAN] = vulkan,
	    [GD_LIB_LEVEL_ZERO] = level_zero,
	    [GD_LIB_ABSENT] = absent,
	};

	return t[l];
}

/* CUDA's libraries: the toolkit, then NVIDIA's pip wheels (nvidia-*-cu12
 * put lib/ under site-packages/nvidia/<name>/). */
static const char *const *cu_lib_dirs(void)
{
	static char store[24][256];
	static const char *dirs[26];
	static const char *const pats[] = {
	    "/usr/lib/python3*/site-packages/nvidia/*/lib",
	    "/usr/local/lib/python3*/dist-packages/nvidia/*/lib",
	    "/usr/lib/python3/dist-packages/nvidia/*/lib",
	    "/opt/conda/lib/python3*/site-packages/nvidia/*/lib",
	};
	int n = 0;

	dirs[n++] = "/usr/local/cuda/lib64";
	dirs[n++] = "/usr/local/cuda/targets/x86_64-linux/lib";
	for (size_t p = 0; p < sizeof pats / sizeof pats[0]; p++) {
		glob_t g;

		if (glob(pats[p], 0, NULL, &g))
			continue;
		for (size_t i = 0; i < g.gl_pathc && n < 24; i++) {
			gd_strlcpy(store[n], g.gl_pathv[i], sizeof store[n]);
			dirs[n] = store[n];
			n++;
		}
		globfree(&g);
	}
	dirs[n] = NULL;
	return dirs;
}

const char *const *gd_lib_dirs(enum gd_rtlib l)
{
	static const char *const driver[] = {"/usr/lib/x86_64-linux-gnu",
					     "/usr/lib64", "/usr/lib/wsl/lib",
					     NULL};
	static const char *const rocm[] = {"/opt/rocm/lib", "/opt/rocm/lib64",
					   NULL};

	switch (l) {
	case GD_LIB_CUDA:
		return driver;
	case GD_LIB_NVRTC:
	case GD_LIB_CUBLAS:
	case GD_LIB_CUDNN:
		return cu_lib_dirs();
	case GD_LIB_HIP:
	case GD_LIB_HIPRTC:
	case GD_LIB_HIPBLAS:
	case GD_LIB_ROCBLAS:
	case GD_LIB_MIOPEN:
		return rocm;
	default:
		return NULL;
	}
}

const char *gd_lib_search_desc(void)
{
	return "via the loader (LD_LIBRARY_PATH, ld.so.cache)";
}

const char *const *gd_lib_variants(enum gd_rtlib l)
{
	(void)l;
	return NULL;
}

/* HIP (ROCclr): AMD_LOG_LEVEL 4 = debug, to stderr. The Vulkan loader:
 * VK_LOADER_DEBUG, a list of levels, to stderr. ocl-icd: OCL_ICD_DEBUG is
 * a mask (1 warnings, 2 infos, 4 function enter/leave, 8 ICD dump), read
 * only when the library was built with debugging (Debian's 2.3.1 is not:
 * it then prints nothing); 3 leaves out the per-call trace. The Khronos
 * OpenCL loader's switch is OCL_ICD_ENABLE_TRACE. libcuda has none. */
const char *gd_lib_diag_env(const char *backend)
{
	static const struct {
		const char *backend, *env;
	} t[] = {
	    {"hip", "AMD_LOG_LEVEL=4"},
	    {"vulkan", "VK_LOADER_DEBUG=error,warn"},
	    {"opencl", "OCL_ICD_DEBUG=3 OCL_ICD_ENABLE_TRACE=1"},
	    {"levelzero", "ZE_ENABLE_LOADER_DEBUG_TRACE=1"},
	};

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (!strcmp(t[i].backend, backend))
			return t[i].env;
	return "";
}

/* ld.so: every library searched for, where, and which initialised. */
const char *gd_lib_loader_debug_env(void)
{
	return "LD_DEBUG=libs";
}
