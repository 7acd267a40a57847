/* probe/libnames: which files each runtime library is, per system. The
 * backends name a library by its role; libnames_posix.c gives the Linux
 * sonames and directories, libnames_win32.c the Windows DLL names
 * (amdhip64_7.dll, nvcuda.dll, vulkan-1.dll, OpenCL.dll, ...) and the
 * SDK directories from the environment (HIP_PATH, CUDA_PATH). */
#ifndef GD_LIBNAMES_H
#define GD_LIBNAMES_H

enum gd_rtlib {
	GD_LIB_CUDA, /* driver API */
	GD_LIB_NVML,
	GD_LIB_NVRTC,
	GD_LIB_CUBLAS,
	GD_LIB_CUDNN,
	GD_LIB_HIP,
	GD_LIB_HIPRTC,
	GD_LIB_HIPBLAS,
	GD_LIB_ROCBLAS,
	GD_LIB_MIOPEN,
	GD_LIB_OPENCL,
	GD_LIB_VULKAN,
	GD_LIB_LEVEL_ZERO, /* oneAPI Level Zero loader */
	GD_LIB_ABSENT,	   /* selftest: a name no system has */
};

/* The names to try, in order (newest first), NULL-terminated. */
const char *const *gd_lib_names(enum gd_rtlib l);
/* Directories to try after the loader's own search, NULL-terminated, or
 * NULL for none. */
const char *const *gd_lib_dirs(enum gd_rtlib l);
/* What the loader's own search is, for "missing" results. */
const char *gd_lib_search_desc(void);
/* The separate runtimes worth one child each (Windows: every HIP major a
 * driver or SDK may install, amdhip64_7.dll, amdhip64_6.dll, ...); NULL
 * where one child tries the names in order (Linux). */
const char *const *gd_lib_variants(enum gd_rtlib l);

/* The diagnostics re-run of a failed init (diag.c): the variables that
 * switch on the runtime's own diagnostics for backend ("" for none), and
 * the system loader's trace of its library search ("LD_DEBUG=libs" on
 * Linux; "" on Windows, whose loader has no such variable). */
const char *gd_lib_diag_env(const char *backend);
const char *gd_lib_loader_debug_env(void);

#endif
