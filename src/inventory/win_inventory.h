/* Installed GPU software on Windows, read from files and the environment
 * only (a capture's fs/ and .gpudoctor/environ, or this machine):
 * the HIP runtime the AMD driver put in System32, HIP SDK installs under
 * %ProgramFiles%\AMD\ROCm\X.Y, HIP_PATH / HIP_PATH_XY, comgr, rocBLAS
 * Tensile coverage per SDK; NVIDIA's nvcuda.dll / nvml.dll and CUDA_PATH.
 * Facts from docs/windows.md §A.1-A.2 (HIP SDK layout
 * per version; the runtime DLL name carries the HIP major). */
#ifndef GD_WIN_INVENTORY_H
#define GD_WIN_INVENTORY_H

#include "core/ctx.h"

#define GD_WIN_MAX_SDKS 8
#define GD_WIN_MAX_TARGETS 48

struct gd_win_sdk {
	char version[16]; /* "6.2", the directory name */
	int major, minor;
	char root[160];	      /* C:\Program Files\AMD\ROCm\6.2 */
	char runtime[32];     /* bin\amdhip64_6.dll, "" when absent */
	char runtime_ver[48]; /* its FileVersion, "" when unknown */
	int runtime_major;    /* HIP major of that DLL, 0 when none */
	char comgr[32];	      /* bin\amd_comgr*.dll, "" when absent */
	char hipblas[32];     /* hipblas.dll / libhipblas.dll, "" */
	int has_rocblas;      /* bin\rocblas.dll */
	char tensile[GD_WIN_MAX_TARGETS]
		    [16]; /* gfx targets in rocblas\library */
	int n_tensile;
	int library_listed; /* bin\rocblas\library exists */
	char env_var[16];   /* HIP_PATH_62 when set to this root, else "" */
};

/* A HIP runtime DLL (amdhip64*.dll, amd_comgr*.dll) an application keeps
 * in its own folder beside what loads it: an .exe there, or a DLL there
 * whose import table names it (win_apps.c). Windows searches the
 * application's folder (and a DLL's own, when loaded by full path) before
 * System32, so the app gets this copy, not the driver's [Microsoft,
 * "Dynamic-link library search order"; docs/windows.md A.4]. */
#define GD_WIN_MAX_APP_RT 8
struct gd_win_app_rt {
	char dir[240];	   /* the folder, Windows path */
	char dll[40];	   /* amdhip64_7.dll, as the folder spells it */
	char ver[48];	   /* its FileVersion, "" unknown */
	int in_sys32;	   /* System32 has a file of that name */
	char sys_ver[48];  /* that file's FileVersion, "" unknown */
	char exe[64];	   /* an .exe in the folder (the first by name), "" */
	char importer[64]; /* a DLL/.pyd there importing dll, "" none */
};

/* A ROCm library (hip*, roc*, amd_comgr*, ...) imported by an app's HIP
 * DLL (one importing amdhip64*, hipblas*, rocblas*, hiprtc*, amd_comgr*)
 * that Windows finds nowhere for the app:
 * not in its folder, System32, the Windows folder nor PATH. The DLL then
 * fails to load; llama.cpp's ggml-hip.dll so lists no device (hipblas.dll
 * missing from a release zip, docs/windows.md). */
#define GD_WIN_MAX_APP_MISSING 8
struct gd_win_app_missing {
	char dir[240];	   /* the app folder, Windows path */
	char importer[64]; /* ggml-hip.dll */
	char dll[64];	   /* hipblas.dll, as the import table spells it */
	char exe[64];	   /* an .exe in the folder (the first by name), "" */
	char sdk[200];	   /* an installed HIP SDK's bin holding dll, "" */
};

/* An app's HIP-named DLL (ggml-hip.dll) whose import table could not be
 * read: not a file, unreadable, or not a PE file (truncated, "MZ" alone,
 * a broken import directory). Its imports are unknown, so nothing can be
 * said to be missing or found; Windows will not load such a file either
 * (issue #20 E11). A DLL a capture stored empty (FORMAT.md) is not one. */
#define GD_WIN_MAX_APP_UNREAD 8
struct gd_win_app_unread {
	char dir[240]; /* the app folder, Windows path */
	char dll[64];  /* ggml-hip.dll */
	char exe[64];  /* an .exe in the folder (the first by name), "" */
	char why[96];  /* "not a PE file: ...", "unreadable: ..." */
};

struct gd_win_inventory {
	/* HIP runtimes in System32 (from the driver) */
	char sys_runtimes[4][32]; /* amdhip64.dll, amdhip64_6.dll, ... */
	/* their FileVersion (versions.tsv or the PE version resource): a
	 * build number, for newer/older only, not the HIP version */
	char sys_runtime_ver[4][48];
	int n_sys_runtimes;
	int driver_hip_major; /* newest of them, 0 when none */
	char sys_comgr[4][32];
	int n_sys_comgr;
	struct gd_win_sdk sdks[GD_WIN_MAX_SDKS];
	int n_sdks;
	char hip_path[200]; /* HIP_PATH as set, "" when unset */
	int hip_path_sdk;   /* index into sdks, -1 when none matches */
	/* NVIDIA */
	int has_nvcuda, has_nvml;
	char cuda_path[200];	   /* CUDA_PATH */
	char cuda_versions[4][24]; /* from CUDA_PATH_V12_4 -> "12.4" */
	int n_cuda_versions;
	/* application folders with their own HIP runtime (win_apps.c) */
	struct gd_win_app_rt apps[GD_WIN_MAX_APP_RT];
	int n_apps;
	int app_scan_cut; /* the folder budget ran out: not all looked at */
	struct gd_win_app_missing app_missing[GD_WIN_MAX_APP_MISSING];
	int n_app_missing;
	struct gd_win_app_unread app_unread[GD_WIN_MAX_APP_UNREAD];
	int n_app_unread;
	/* System32 was listed: 0 for a capture without its fs/ part (a
	 * registry export only), where no DLL there can be judged absent */
	int sys32_listed;
};

void gd_win_inventory_collect(gd_ctx *ctx, struct gd_win_inventory *wi);

/* The HIP major a runtime or SDK DLL name carries: amdhip64.dll -> 5,
 * amdhip64_6.dll -> 6; 0 when the name is not a HIP runtime. */
int gd_win_hip_major(const char *dll);

#endif
