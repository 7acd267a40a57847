/* A Windows framework's DLLs: the folders its import adds with
 * os.add_dll_directory, its .pyd/.dll files' imports (binscan's PE reader)
 * and where Python >= 3.8 finds each: the importing DLL's own folder, the
 * application folder, the added folders, System32; never PATH
 * (LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | ..._DEFAULT_DIRS, bpo-36085; the
 * order from Microsoft "Dynamic-link library search order": DLL's folder,
 * application folder, AddDllDirectory folders, System32). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "binscan/binscan.h"
#include "core/wincap.h"
#include "win_inventory.h"
#include "win_pyint.h"

/* strcasestr is a GNU extension mingw-w64 lacks. */
static int has_ci(const char *s, const char *w)
{
	size_t n = strlen(w);

	for (; *s; s++)
		if (!strncasecmp(s, w, n))
			return 1;
	return 0;
}

static void add_dir(struct gd_winpy_fw *fw, const char *dir, const char *why)
{
	if (fw->n_dll_dirs >= GD_WINPY_MAX_DIRS)
		return;
	gd_strlcpy(fw->dll_dirs[fw->n_dll_dirs], dir, sizeof fw->dll_dirs[0]);
	gd_strlcpy(fw->dll_dir_why[fw->n_dll_dirs++], why,
		   sizeof fw->dll_dir_why[0]);
}

/* %VAR%\sub when VAR is set (the trailing backslash installers write is
 * dropped first). */
static void add_env_dir(gd_ctx *ctx, struct gd_winpy_fw *fw, const char *var,
			const char *sub, const char *why)
{
	const char *v = gd_win_getenv(ctx, var);
	char d[200];
	size_t n;

	if (!v || !*v)
		return;
	n = strlen(v);
	while (n && v[n - 1] == '\\')
		n--;
	gd_fmt(d, sizeof d, "%.*s\\%s", (int)n, v, sub);
	add_dir(fw, d, why);
}

static void bundled_hip(gd_ctx *ctx, struct gd_winpy_fw *fw, const char *dir)
{
	gd_strvec v;

	if (gd_winpy_list(ctx, dir, &v) < 0)
		return;
	for (size_t i = 0; i < v.n; i++) {
		int m = gd_win_hip_major(v.v[i]);

		if (m > fw->bundled_hip_major) {
			fw->bundled_hip_major = m;
			gd_fmt(fw->bundled_hip, sizeof fw->bundled_hip,
			       "%s\\%s", dir, v.v[i]);
		}
	}
	gd_strvec_free(&v);
}

/* site\_rocm_sdk_core\bin, site\_rocm_sdk_libraries_<family>\bin: TheRock
 * wheels' DLL folders [docs/windows.md A.4]. The count added. */
static int rocm_sdk_dirs(gd_ctx *ctx, const gd_strvec *ents,
			 struct gd_winpy_fw *fw, const char *why)
{
	char d[256];
	int n = 0;

	for (size_t i = 0; i < ents->n; i++) {
		if (strncasecmp(ents->v[i], "_rocm_sdk_core", 14) &&
		    strncasecmp(ents->v[i], "_rocm_sdk_libraries", 19))
			continue;
		gd_fmt(d, sizeof d, "%s\\%s\\bin", fw->site, ents->v[i]);
		if (gd_winpy_exists(ctx, d)) {
			add_dir(fw, d, why);
			bundled_hip(ctx, fw, d);
			n++;
		}
	}
	return n;
}

/* What each package's import passes to os.add_dll_directory on Windows
 * (docs/windows.md, A.4):
 *  torch: torch\lib and sys.exec_prefix\Library\bin (conda); ROCm wheels
 *    preload the rocm_sdk DLLs first;
 *  ctranslate2 (>= 4.7.1): the package folder, the rocm_sdk folders, and
 *    only when none exists %HIP_PATH%\bin [A.4];
 *  llama_cpp: llama_cpp\lib, %CUDA_PATH%\bin and \lib, %HIP_PATH%\bin
 *    and \lib, whatever SDK HIP_PATH names;
 *  onnxruntime: nothing (its DLLs sit beside the .pyd in capi). */
static void dll_dirs(gd_ctx *ctx, const struct gd_winpy_env *env,
		     const gd_strvec *ents, struct gd_winpy_fw *fw)
{
	char d[256];

	if (!strcmp(fw->name, "torch")) {
		rocm_sdk_dirs(ctx, ents, fw, "rocm_sdk preload");
		gd_fmt(d, sizeof d, "%s\\torch\\lib", fw->site);
		add_dir(fw, d, "torch");
		gd_fmt(d, sizeof d, "%s\\Library\\bin", env->prefix);
		if (gd_winpy_exists(ctx, d))
			add_dir(fw, d, "torch (conda Library\\bin)");
	} else if (!strcmp(fw->name, "ctranslate2")) {
		gd_fmt(d, sizeof d, "%s\\ctranslate2", fw->site);
		add_dir(fw, d, "ctranslate2");
		if (!rocm_sdk_dirs(ctx, ents, fw, "ctranslate2 (rocm_sdk)") &&
		    gd_version_cmp(fw->version, "4.7.1") >= 0)
			add_env_dir(ctx, fw, "HIP_PATH", "bin",
				    "ctranslate2: HIP_PATH fallback");
	} else if (!strcmp(fw->name, "llama_cpp")) {
		gd_fmt(d, sizeof d, "%s\\llama_cpp\\lib", fw->site);
		add_dir(fw, d, "llama_cpp");
		add_env_dir(ctx, fw, "CUDA_PATH", "bin",
			    "llama_cpp: CUDA_PATH");
		add_env_dir(ctx, fw, "HIP_PATH", "bin", "llama_cpp: HIP_PATH");
		add_env_dir(ctx, fw, "HIP_PATH", "lib", "llama_cpp: HIP_PATH");
	}
}

static int has_dll(gd_ctx *ctx, const char *dir, const char *name)
{
	char wp[512];

	if (!dir || !*dir)
		return 0;
	gd_fmt(wp, sizeof wp, "%s\\%s", dir, name);
	return gd_winpy_exists(ctx, wp);
}

static int found(gd_ctx *ctx, const char *dir, const char *how,
		 struct gd_winpy_import *im)
{
	if (!has_dll(ctx, dir, im->dll))
		return 0;
	gd_strlcpy(im->dir, dir, sizeof im->dir);
	gd_strlcpy(im->how, how, sizeof im->how);
	return 1;
}

/* LOAD_WITH_ALTERED_SEARCH_PATH with a full path (ONNX Runtime loads its
 * provider DLLs so, docs/windows.md A.4), and an
 * .exe's own imports: the DLL's (or .exe's) folder, System32, the Windows
 * folder, then PATH; no os.add_dll_directory folders (Microsoft
 * "Dynamic-link library search order", standard and alternate order). */
void gd_win_dll_search(gd_ctx *ctx, const char *own, struct gd_winpy_import *im)
{
	const char *root = gd_win_getenv(ctx, "SystemRoot");
	const char *path = gd_win_getenv(ctx, "Path");
	char dir[260], win[200], sys32[200];

	gd_strlcpy(win, root && *root ? root : "C:\\Windows", sizeof win);
	gd_fmt(sys32, sizeof sys32, "%s\\System32", win);
	if (found(ctx, own, "own folder", im) ||
	    found(ctx, sys32, "System32", im) || found(ctx, win, "Windows", im))
		return;
	while (path && *path) {
		size_t n = strcspn(path, ";");

		if (n && n < sizeof dir) {
			memcpy(dir, path, n);
			dir[n] = '\0';
			if (found(ctx, dir, "PATH", im))
				return;
		}
		path += n + (path[n] == ';');
	}
}

static void resolve(gd_ctx *ctx, const struct gd_winpy_env *env,
		    const struct gd_winpy_fw *fw, const struct gd_winpy_dll *d,
		    const char *own, struct gd_winpy_import *im)
{
	const char *root = gd_win_getenv(ctx, "SystemRoot");
	char sys32[200], win[200];

	gd_strlcpy(win, root && *root ? root : "C:\\Windows", sizeof win);
	gd_fmt(sys32, sizeof sys32, "%s\\System32", win);
	if (gd_dll_is_system(im->dll)) {
		gd_strlcpy(im->how, "Windows", sizeof im->how);
		return;
	}
	if (d->path_search) {
		gd_win_dll_search(ctx, own, im);
		return;
	}
	if (found(ctx, own, "own folder", im) ||
	    found(ctx, env->app_dir, "application folder", im))
		return;
	for (int i = 0; i < fw->n_dll_dirs; i++)
		if (found(ctx, fw->dll_dirs[i], fw->dll_dir_why[i], im))
			return;
	found(ctx, sys32, "System32", im);
}

int gd_win_pe_imports(gd_ctx *ctx, const char *winpath, gd_strvec *out,
		      char *err, size_t errlen)
{
	struct gd_bs_dyn dyn;
	struct gd_pe pe;
	char p[1024];
	uint8_t *b = NULL;
	size_t n = 0;
	int rc, ok = -1;

	memset(out, 0, sizeof *out);
	err[0] = '\0';
	if (gd_win_resolve(ctx, winpath, p, sizeof p) < 0)
		return -1;
	/* the import table is near the start of real DLLs; a torch_cuda.dll
	 * of ~1 GB is read only this far */
	rc = gd_fs_read_alloc(&ctx->fs, p, 64u << 20, (char **)&b, &n);
	if ((rc < 0 && rc != -EFBIG) || !n) {
		gd_strlcpy(err, n || rc < 0 ? "unreadable" : "stored empty",
			   errlen);
		free(b);
		return -1;
	}
	memset(&dyn, 0, sizeof dyn);
	if (gd_pe_open(&pe, b, n, err, errlen) == 0 &&
	    gd_pe_imports(&pe, &dyn, err, errlen) == 0) {
		ok = 0;
		for (size_t i = 0; i < dyn.needed.n; i++) {
			char **s = gd_vec_push(out);

			if (s)
				*s = strdup(dyn.needed.v[i]);
		}
	}
	gd_bs_dyn_free(&dyn);
	free(b);
	return ok;
}

/* The build the imports and file names say (torch's version.py first). */
static void note_build(struct gd_winpy_fw *fw, const char *file,
		       const char *imp)
{
	int m = imp ? gd_win_hip_major(imp) : 0;
	unsigned cu;

	if (m > fw->hip_major)
		fw->hip_major = m;
	if (imp &&
	    (sscanf(imp, "cudart64_%u", &cu) == 1 ||
	     sscanf(imp, "cublas64_%u", &cu) == 1) &&
	    !fw->cuda[0])
		gd_fmt(fw->cuda, sizeof fw->cuda, "%u", cu);
	if (fw->build[0])
		return;
	if (m || (file && (has_ci(file, "_hip") || has_ci(file, "-hip") ||
			   has_ci(file, "_rocm") || has_ci(file, "migraphx"))))
		gd_strlcpy(fw->build, "rocm", sizeof fw->build);
	else if ((imp && !strncasecmp(imp, "cudart64_", 9)) ||
		 (file && has_ci(file, "cuda")))
		gd_strlcpy(fw->build, "cuda", sizeof fw->build);
	else if ((imp && !strcasecmp(imp, "DirectML.dll")) ||
		 (file && !strcasecmp(file, "DirectML.dll")))
		gd_strlcpy(fw->build, "directml", sizeof fw->build);
	else if (file && has_ci(file, "vulkan"))
		gd_strlcpy(fw->build, "vulkan", sizeof fw->build);
}

static void scan_file(gd_ctx *ctx, const struct gd_winpy_env *env,
		      struct gd_winpy_fw *fw, const char *dir, const char *file)
{
	struct gd_winpy_dll *d = &fw->dlls[fw->n_dlls++];
	char wp[512];
	gd_strvec imps;

	memset(d, 0, sizeof *d);
	gd_fmt(wp, sizeof wp, "%s\\%s", dir, file);
	gd_strlcpy(d->rel, wp + strlen(fw->site) + 1, sizeof d->rel);
	d->path_search = !strcmp(fw->name, "onnxruntime") &&
			 !strncasecmp(file, "onnxruntime_providers_", 22);
	note_build(fw, file, NULL);
	d->read =
	    gd_win_pe_imports(ctx, wp, &imps, d->error, sizeof d->error) == 0;
	for (size_t i = 0; i < imps.n; i++) {
		struct gd_winpy_import *im = &d->imp[d->n_imp];

		note_build(fw, file, imps.v[i]);
		if (gd_dll_is_system(imps.v[i]) ||
		    d->n_imp >= GD_WINPY_MAX_IMPORTS)
			continue; /* Windows' own: always found */
		memset(im, 0, sizeof *im);
		gd_strlcpy(im->dll, imps.v[i], sizeof im->dll);
		resolve(ctx, env, fw, d, dir, im);
		d->n_imp++;
	}
	gd_strvec_free(&imps);
}

static int is_lib(const char *n)
{
	return gd_endswith(n, ".dll") || gd_endswith(n, ".pyd") ||
	       gd_endswith(n, ".DLL") || gd_endswith(n, ".PYD");
}

/* GPU-related names first, so the cap keeps the DLLs that decide. */
static int decisive(const char *n)
{
	static const char *const w[] = {"cuda",	       "hip",  "rocm",
					"ctranslate2", "ggml", "llama",
					"directml",    "onnx", "torch"};

	for (size_t i = 0; i < sizeof w / sizeof *w; i++)
		if (has_ci(n, w[i]))
			return 1;
	return 0;
}

static void scan_folder(gd_ctx *ctx, const struct gd_winpy_env *env,
			struct gd_winpy_fw *fw, const char *sub)
{
	char dir[300];
	gd_strvec v;

	gd_fmt(dir, sizeof dir, "%s\\%s", fw->site, sub);
	if (gd_winpy_list(ctx, dir, &v) < 0)
		return;
	for (int pass = 1; pass >= 0; pass--)
		for (size_t i = 0; i < v.n; i++) {
			if (!is_lib(v.v[i]) || decisive(v.v[i]) != pass)
				continue;
			if (fw->n_dlls < GD_WINPY_MAX_DLLS)
				scan_file(ctx, env, fw, dir, v.v[i]);
			else
				fw->more_dlls++;
		}
	gd_strvec_free(&v);
}

void gd_winpy_fw_dlls(gd_ctx *ctx, const struct gd_winpy_env *env,
		      const gd_strvec *ents, struct gd_winpy_fw *fw)
{
	int read = 0;

	if (fw->hip[0])
		gd_strlcpy(fw->build, "rocm", sizeof fw->build);
	else if (fw->cuda[0])
		gd_strlcpy(fw->build, "cuda", sizeof fw->build);
	else if (strstr(fw->dist, "directml"))
		gd_strlcpy(fw->build, "directml", sizeof fw->build);
	dll_dirs(ctx, env, ents, fw);
	if (!strcmp(fw->name, "torch"))
		scan_folder(ctx, env, fw, "torch\\lib");
	else if (!strcmp(fw->name, "ctranslate2"))
		scan_folder(ctx, env, fw, "ctranslate2");
	else if (!strcmp(fw->name, "onnxruntime"))
		scan_folder(ctx, env, fw, "onnxruntime\\capi");
	else if (!strcmp(fw->name, "llama_cpp"))
		scan_folder(ctx, env, fw, "llama_cpp\\lib");
	for (int i = 0; i < fw->n_dlls; i++)
		read |= fw->dlls[i].read;
	if (!fw->build[0])
		gd_strlcpy(fw->build,
			   read				 ? "cpu"
			   : strstr(fw->version, "+cpu") ? "cpu"
							 : "unknown",
			   sizeof fw->build);
}
