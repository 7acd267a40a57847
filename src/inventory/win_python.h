/* Python ML frameworks on Windows, found by reading files and the registry,
 * never by running Python (the Windows side of frameworks.h):
 *   environments: the PythonCore keys of HKCU and HKLM (PEP 514,
 *   InstallPath), %LOCALAPPDATA%\Programs\Python\Python3xx, VIRTUAL_ENV
 *   (pyvenv.cfg's home is the interpreter), CONDA_PREFIX and the conda
 *   folders in the user's profile;
 *   frameworks in each Lib\site-packages: torch, ctranslate2, onnxruntime
 *   (-gpu, -directml), llama-cpp-python;
 *   for each of their .pyd/.dll files the DLLs it imports (binscan's PE
 *   reader) and where Python >= 3.8 would find them. Python loads extension
 *   modules with LOAD_LIBRARY_SEARCH_DEFAULT_DIRS | ..._DLL_LOAD_DIR
 *   (bpo-36085): the DLL's own folder, the application folder, System32 and
 *   the folders added with os.add_dll_directory, never PATH
 *   [docs/windows.md A.4]. Which folders each package adds is from its
 *   __init__ (cited where the table is, win_python.c). */
#ifndef GD_WIN_PYTHON_H
#define GD_WIN_PYTHON_H

#include "core/ctx.h"

#define GD_WINPY_MAX_ENVS 8
#define GD_WINPY_MAX_FW 12
#define GD_WINPY_MAX_DLLS 8
#define GD_WINPY_MAX_IMPORTS 10
#define GD_WINPY_MAX_DIRS 6

struct gd_winpy_env {
	char kind[16];	   /* "PythonCore", "python.org", "venv", "conda" */
	char prefix[200];  /* C:\Users\u\AppData\Local\Programs\Python\Python313
			    */
	char app_dir[200]; /* the folder of the python.exe that runs */
	char version[16];  /* "3.13" where known, "" */
};

/* One imported DLL and where the loader would take it from. */
struct gd_winpy_import {
	char dll[64];
	char dir[200]; /* the Windows folder it is found in, "" missing */
	char how[40];  /* "own folder", "System32", "os.add_dll_directory",
			* "application folder", "Windows" (a system DLL) */
};

/* Where Windows finds im->dll for an .exe (or a DLL loaded by full path)
 * in folder own: own, System32, the Windows folder, PATH (win_pydll.c).
 * Sets im->dir and im->how; both "" when found nowhere. */
void gd_win_dll_search(gd_ctx *ctx, const char *own,
		       struct gd_winpy_import *im);
/* The DLL names the PE file at winpath imports, read at most 64 MiB in
 * (win_pydll.c). 0: read; -1: err says why ("stored empty",
 * "unreadable", the PE reader's words; "" when the path is not there). */
int gd_win_pe_imports(gd_ctx *ctx, const char *winpath, gd_strvec *out,
		      char *err, size_t errlen);

struct gd_winpy_dll {
	char rel[160]; /* below site-packages: "ctranslate2\ctranslate2.dll" */
	int read;      /* 1: a PE was read; 0: stored empty / unreadable */
	int path_search; /* loaded by its package with LoadLibraryExW(
			  * LOAD_WITH_ALTERED_SEARCH_PATH): its imports are
			  * searched in its folder, System32, Windows, PATH */
	char error[96];
	struct gd_winpy_import imp[GD_WINPY_MAX_IMPORTS];
	int n_imp;
};

struct gd_winpy_fw {
	char name[32]; /* "torch", "ctranslate2", "onnxruntime", "llama_cpp" */
	char dist[40]; /* the distribution: "onnxruntime-directml" */
	char version[64]; /* "4.7.1", "2.9.0+cu130" */
	char build[32];	  /* "rocm", "cuda", "directml", "cpu", "unknown" */
	char cuda[16];	  /* torch/version.py cuda, "" */
	char hip[48];	  /* torch/version.py hip, "" */
	int hip_major;	  /* of the amdhip64_N.dll its DLLs import, 0 none */
	/* a HIP runtime the package's wheels bring (TheRock rocm_sdk:
	 * _rocm_sdk_core\bin\amdhip64_7.dll, preloaded by full path) */
	char bundled_hip[240]; /* its Windows path, "" none */
	int bundled_hip_major;
	char also[64];	/* another distribution in the same package folder:
			 * "onnxruntime 1.23.2" beside onnxruntime-gpu */
	int env;	/* index into envs */
	char site[220]; /* its site-packages folder (Windows path) */
	/* the folders its import adds with os.add_dll_directory */
	char dll_dirs[GD_WINPY_MAX_DIRS][200];
	char dll_dir_why[GD_WINPY_MAX_DIRS][40];
	int n_dll_dirs;
	struct gd_winpy_dll dlls[GD_WINPY_MAX_DLLS];
	int n_dlls, more_dlls; /* more_dlls: files past the cap */
};

struct gd_win_python {
	struct gd_winpy_env envs[GD_WINPY_MAX_ENVS];
	int n_envs;
	struct gd_winpy_fw fw[GD_WINPY_MAX_FW];
	int n_fw;
};

/* Fills py (large: allocate it). Problems become diagnostics. */
void gd_win_python_collect(gd_ctx *ctx, struct gd_win_python *py);

/* pyvenv.cfg text: "home = C:\...\cpython-3.12.10-..." and "version_info =
 * 3.12.10" (uv) or "version = 3.12.10" (venv) -> home, "3.12". A pure
 * parser (fuzz_pyvenv_cfg); "" for what is absent. */
void gd_winpy_cfg_parse(const char *buf, size_t len, char *home, size_t hcap,
			char *ver, size_t vcap);

#endif
