/* probe/libnames on Windows: the DLL names each vendor ships, newest
 * first (docs/windows.md A.1: amdhip64.dll is HIP 5,
 * amdhip64_6.dll HIP 6, amdhip64_7.dll HIP 7; hiprtc<MM><mm>.dll;
 * hipblas.dll in SDK 6.x and 7.2, libhipblas.dll in 7.1). The loader's
 * own search is LoadLibraryExW with LOAD_LIBRARY_SEARCH_DEFAULT_DIRS
 * (core/plat_win32.c): this program's directory, System32, and
 * AddDllDirectory directories; never PATH nor the current directory, as
 * Python >= 3.8 loads extension DLLs. So the driver's System32 runtimes
 * are found by name; SDK libraries come from %HIP_PATH%\bin and
 * %CUDA_PATH%\bin, tried after. */
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "libnames.h"

static const char *const cuda[] = {"nvcuda.dll", NULL};
static const char *const nvml[] = {"nvml.dll", NULL};
static const char *const nvrtc[] = {"nvrtc64_130_0.dll", "nvrtc64_120_0.dll",
				    "nvrtc64_112_0.dll", NULL};
static const char *const cublas[] = {"cublas64_13.dll", "cublas64_12.dll",
				     "cublas64_11.dll", NULL};
static const char *const cudnn[] = {"cudnn64_9.dll", "cudnn64_8.dll", NULL};
/* the order HIPRT/Orochi try them in */
static const char *const hip[] = {"amdhip64_7.dll", "amdhip64_6.dll",
				  "amdhip64.dll", NULL};
static const char *const hiprtc[] = {
    "hiprtc0702.dll", "hiprtc0701.dll", "hiprtc0700.dll",
    "hiprtc0604.dll", "hiprtc0603.dll", "hiprtc0602.dll",
    "hiprtc0601.dll", "hiprtc0507.dll", NULL};
static const char *const hipblas[] = {"hipblas.dll", "libhipblas.dll", NULL};
static const char *const rocblas[] = {"rocblas.dll", NULL};
static const char *const miopen[] = {"MIOpen.dll", NULL};
static const char *const opencl[] = {"OpenCL.dll", NULL};
static const char *const vulkan[] = {"vulkan-1.dll", NULL};
static const char *const level_zero[] = {"ze_loader.dll", NULL};
static const char *const absent[] = {"gpudoctor-selftest-absent.dll", NULL};

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

/* "%VAR%\sub" for each sub, from the child's environment (the profile's,
 * under try/run). Built once: the child's environment does not change. */
static const char *const *sdk_dirs(const char *var, const char *const *subs,
				   char store[][1024], const char **dirs)
{
	const char *root = getenv(var);
	int n = 0;

	for (int i = 0; root && *root && subs[i]; i++) {
		gd_fmt(store[n], 1024, "%s\\%s", root, subs[i]);
		dirs[n] = store[n];
		n++;
	}
	dirs[n] = NULL;
	return dirs;
}

const char *const *gd_lib_dirs(enum gd_rtlib l)
{
	static const char *const cu_subs[] = {"bin", "bin\\x64", NULL};
	static const char *const hip_subs[] = {"bin", NULL};
	static char cu_store[2][1024], hip_store[1][1024];
	static const char *cu[3], *hp[2];

	switch (l) {
	case GD_LIB_NVRTC:
	case GD_LIB_CUBLAS:
	case GD_LIB_CUDNN:
		return sdk_dirs("CUDA_PATH", cu_subs, cu_store, cu);
	case GD_LIB_HIPRTC:
	case GD_LIB_HIPBLAS:
	case GD_LIB_ROCBLAS:
	case GD_LIB_MIOPEN:
		return sdk_dirs("HIP_PATH", hip_subs, hip_store, hp);
	default:
		return NULL; /* drivers: System32 */
	}
}

const char *gd_lib_search_desc(void)
{
	return "via LoadLibraryExW with LOAD_LIBRARY_SEARCH_DEFAULT_DIRS "
	       "(gpudoctor's directory, System32, not PATH)";
}

/* A driver may ship amdhip64_6.dll and amdhip64_7.dll side by side, and
 * an app loads one of them: each gets its own child, so "the HIP 7
 * runtime sees 0 devices, the HIP 6 one works" is one run's answer. */
const char *const *gd_lib_variants(enum gd_rtlib l)
{
	return l == GD_LIB_HIP ? hip : NULL;
}

/* The same runtimes' switches on Windows: AMD_LOG_LEVEL (ROCclr, as on
 * Linux: the field report found its missing amd_comgr with it) and
 * VK_LOADER_DEBUG (the Khronos Vulkan loader, vulkan-1.dll). OpenCL.dll is
 * the Khronos ICD loader there (no ocl-icd): OCL_ICD_ENABLE_TRACE=1 (its
 * README's table of debug variables; printed only by a loader built with
 * its trace option). nvcuda.dll has none. */
const char *gd_lib_diag_env(const char *backend)
{
	static const struct {
		const char *backend, *env;
	} t[] = {
	    {"hip", "AMD_LOG_LEVEL=4"},
	    {"vulkan", "VK_LOADER_DEBUG=error,warn"},
	    {"opencl", "OCL_ICD_ENABLE_TRACE=1"},
	    {"levelzero", "ZE_ENABLE_LOADER_DEBUG_TRACE=1"},
	};

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (!strcmp(t[i].backend, backend))
			return t[i].env;
	return "";
}

/* The Windows loader's trace ("loader snaps") is switched on per program
 * with gflags and read by a debugger: no variable to set. */
const char *gd_lib_loader_debug_env(void)
{
	return "";
}
