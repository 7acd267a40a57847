/* Application folders that keep their own HIP runtime (win_inventory.h,
 * struct gd_win_app_rt). Lemonade copied TheRock's amdhip64_7.dll
 * (10.0.3581) beside llama-server.exe, older than the driver's System32
 * copy (10.0.3679); the app folder wins the DLL search, and HIP saw no
 * device. llama.cpp's own ROCm builds ship amdhip64_7.dll, amd_comgr.dll
 * on purpose (both in docs/windows.md):
 * a copy is a fact, only its version against System32's is a judgement
 * (doctor/verdict_windows_app.c).
 *
 * Where it looks (each walk bounded in depth, all of them together to
 * GD_WIN_APP_DIRS folders, entries in name order so that a capture
 * replays the same walk): %USERPROFILE%\.cache\lemonade\bin (Lemonade's
 * backends: docs/windows.md, A.2), %LOCALAPPDATA%\Programs (per-user
 * installs), %ProgramFiles% (the HIP SDKs under AMD\ROCm are judged as
 * SDKs, not apps; WindowsApps is not readable). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "binscan/binscan.h"
#include "core/wincap.h"
#include "win_int.h"
#include "win_python.h"

#define GD_WIN_APP_DIRS 400 /* folders listed in all */
#define GD_WIN_APP_PE 16    /* DLLs read per folder that holds a runtime */

struct walk {
	gd_ctx *ctx;
	struct gd_win_inventory *wi;
	int budget;
	const char *skip; /* a folder not to enter (the SDKs), or NULL */
	char sys32[200];
};

static int cmp_ci(const void *a, const void *b)
{
	return strcasecmp(*(char *const *)a, *(char *const *)b);
}

static int ends_ci(const char *s, const char *ext)
{
	size_t n = strlen(s), e = strlen(ext);

	return n > e && !strcasecmp(s + n - e, ext);
}

static int is_runtime(const char *n)
{
	return gd_win_hip_major(n) || gd_win_is_comgr(n);
}

/* real: a path under the root, names as the capture spells them */
static int is_dir(gd_ctx *ctx, const char *real)
{
	struct stat st;

	return gd_fs_stat(&ctx->fs, real, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The imports of the PE file dir\file; 0 when its table was read, else
 * -1 with err: "unreadable", "stored empty" or what is wrong with it. */
static int read_imports(gd_ctx *ctx, const char *dir, const char *file,
			gd_strvec *out, char *err, size_t cap)
{
	char wp[600];

	gd_fmt(wp, sizeof wp, "%s\\%s", dir, file);
	return gd_win_pe_imports(ctx, wp, out, err, cap);
}

/* A HIP-named DLL whose imports could not be read (a capture's DLL stored
 * empty is not one: FORMAT.md keeps only its name and version). */
static void unread(struct walk *w, const char *dir, const char *exe,
		   const char *file, const char *err)
{
	struct gd_win_app_unread *u;

	if (!strcmp(err, "stored empty") ||
	    w->wi->n_app_unread >= GD_WIN_MAX_APP_UNREAD)
		return;
	u = &w->wi->app_unread[w->wi->n_app_unread++];
	memset(u, 0, sizeof *u);
	gd_strlcpy(u->dir, dir, sizeof u->dir);
	gd_strlcpy(u->dll, file, sizeof u->dll);
	gd_strlcpy(u->exe, exe ? exe : "", sizeof u->exe);
	if (!strcmp(err, "unreadable") || !err[0])
		gd_strlcpy(u->why,
			   "unreadable (not a regular file, or no permission)",
			   sizeof u->why);
	else if (!strcmp(err, "not a PE file"))
		gd_strlcpy(u->why, err, sizeof u->why);
	else
		gd_fmt(u->why, sizeof u->why, "not a valid PE file (%s)", err);
}

/* Whether imps names one of the folder's runtimes. */
static int imports_runtime(const gd_strvec *imps, const gd_strvec *v)
{
	for (size_t i = 0; i < imps->n; i++)
		for (size_t k = 0; k < v->n; k++)
			if (is_runtime(v->v[k]) &&
			    !strcasecmp(imps->v[i], v->v[k]))
				return 1;
	return 0;
}

/* A HIP library a DLL imports: it makes that DLL the app's HIP backend. */
static int hip_lib(const char *n)
{
	static const char *const p[] = {"amdhip64", "hipblas", "rocblas",
					"hiprtc", "amd_comgr"};

	for (size_t i = 0; i < sizeof p / sizeof *p; i++)
		if (!strncasecmp(n, p[i], strlen(p[i])))
			return 1;
	return 0;
}

/* A ROCm library: the imports blamed when found nowhere. The app's own
 * DLLs (ggml-base.dll) may sit where its loader adds them itself
 * (AddDllDirectory, a parent folder's lib\), which no file list shows. */
static int rocm_lib(const char *n)
{
	static const char *const p[] = {"amdhip64", "amd_comgr", "hip",
					"roc",	    "libhip",	 "librocm",
					"miopen",   "origami"};

	for (size_t i = 0; i < sizeof p / sizeof *p; i++)
		if (!strncasecmp(n, p[i], strlen(p[i])))
			return 1;
	return 0;
}

/* A name that may be a HIP backend: worth reading its imports. */
static int hip_named(const char *n)
{
	static const char *const w[] = {"hip", "rocm", "rocblas", "comgr"};
	size_t len = strlen(n);

	for (size_t i = 0; i < sizeof w / sizeof *w; i++)
		for (size_t k = 0; k + strlen(w[i]) <= len; k++)
			if (!strncasecmp(n + k, w[i], strlen(w[i])))
				return 1;
	return 0;
}

static void sdk_with(struct walk *w, const char *dll, char *out, size_t cap)
{
	char wp[300], p[1024];

	out[0] = '\0';
	for (int i = 0; i < w->wi->n_sdks; i++) {
		gd_fmt(wp, sizeof wp, "%s\\bin\\%s", w->wi->sdks[i].root, dll);
		if (gd_win_resolve(w->ctx, wp, p, sizeof p) == 0 &&
		    gd_fs_exists(&w->ctx->fs, p)) {
			gd_fmt(out, cap, "%s\\bin", w->wi->sdks[i].root);
			return;
		}
	}
}

/* The ROCm imports of a HIP backend DLL that Windows finds nowhere for an app
 * in dir (the .exe's folder, System32, the Windows folder, PATH). */
static void missing(struct walk *w, const char *dir, const char *exe,
		    const char *file, const gd_strvec *imps)
{
	int hip = 0;

	for (size_t i = 0; i < imps->n; i++)
		hip |= hip_lib(imps->v[i]);
	for (size_t i = 0; hip && i < imps->n; i++) {
		struct gd_winpy_import im;
		struct gd_win_app_missing *m;

		if (gd_dll_is_system(imps->v[i]) || !rocm_lib(imps->v[i]) ||
		    w->wi->n_app_missing >= GD_WIN_MAX_APP_MISSING)
			continue;
		memset(&im, 0, sizeof im);
		gd_strlcpy(im.dll, imps->v[i], sizeof im.dll);
		gd_win_dll_search(w->ctx, dir, &im);
		if (im.dir[0])
			continue;
		m = &w->wi->app_missing[w->wi->n_app_missing++];
		memset(m, 0, sizeof *m);
		gd_strlcpy(m->dir, dir, sizeof m->dir);
		gd_strlcpy(m->importer, file, sizeof m->importer);
		gd_strlcpy(m->dll, imps->v[i], sizeof m->dll);
		gd_strlcpy(m->exe, exe ? exe : "", sizeof m->exe);
		sdk_with(w, m->dll, m->sdk, sizeof m->sdk);
	}
}

static void add(struct walk *w, const char *dir, const char *dll,
		const char *exe, const char *importer)
{
	struct gd_win_app_rt *a;
	char sp[300], p[1024];

	if (w->wi->n_apps >= GD_WIN_MAX_APP_RT)
		return;
	a = &w->wi->apps[w->wi->n_apps];
	memset(a, 0, sizeof *a);
	gd_fmt(sp, sizeof sp, "%s\\%s", w->sys32, dll);
	a->in_sys32 = gd_win_resolve(w->ctx, sp, p, sizeof p) == 0 &&
		      gd_fs_exists(&w->ctx->fs, p);
	/* another comgr than System32's is the app's own business */
	if (!gd_win_hip_major(dll) && !a->in_sys32)
		return;
	gd_strlcpy(a->dir, dir, sizeof a->dir);
	gd_strlcpy(a->dll, dll, sizeof a->dll);
	gd_strlcpy(a->exe, exe ? exe : "", sizeof a->exe);
	gd_strlcpy(a->importer, importer ? importer : "", sizeof a->importer);
	gd_win_file_version(w->ctx, dir, dll, a->ver, sizeof a->ver);
	if (a->in_sys32)
		gd_win_file_version(w->ctx, w->sys32, dll, a->sys_ver,
				    sizeof a->sys_ver);
	w->wi->n_apps++;
}

static int is_lib(const char *n)
{
	return ends_ci(n, ".dll") || ends_ci(n, ".pyd");
}

/* Reads the folder's DLLs (HIP-named first, at most GD_WIN_APP_PE): the
 * first that imports one of the folder's runtimes is returned, and each
 * HIP backend's imports found nowhere are recorded. */
static const char *read_dlls(struct walk *w, const char *dir, const char *exe,
			     const gd_strvec *v)
{
	const char *importer = NULL;
	int read = 0;

	for (int pass = 1; pass >= 0; pass--)
		for (size_t i = 0; i < v->n; i++) {
			const char *n = v->v[i];
			char err[96];
			gd_strvec imps;

			if (!is_lib(n) || is_runtime(n) ||
			    hip_named(n) != pass || read++ >= GD_WIN_APP_PE)
				continue;
			if (read_imports(w->ctx, dir, n, &imps, err,
					 sizeof err) == 0) {
				if (!importer && imports_runtime(&imps, v))
					importer = n;
				missing(w, dir, exe, n, &imps);
			} else if (pass) {
				unread(w, dir, exe, n, err);
			}
			gd_strvec_free(&imps);
		}
	return importer;
}

/* A folder holding a runtime and something that loads it from there, or
 * a HIP backend DLL (by name). */
static void app_folder(struct walk *w, const char *dir, const gd_strvec *v)
{
	const char *exe = NULL, *importer;
	int has = 0, named = 0;

	for (size_t i = 0; i < v->n; i++) {
		has |= is_runtime(v->v[i]);
		named |= is_lib(v->v[i]) && hip_named(v->v[i]);
		if (!exe && ends_ci(v->v[i], ".exe"))
			exe = v->v[i];
	}
	if (!has && !named)
		return;
	importer = read_dlls(w, dir, exe, v);
	if (!has || (!exe && !importer))
		return; /* nothing here loads a runtime from this folder */
	for (int pass = 0; pass < 2; pass++) /* amdhip64 first, then comgr */
		for (size_t i = 0; i < v->n; i++)
			if (pass ? gd_win_is_comgr(v->v[i])
				 : gd_win_hip_major(v->v[i]) != 0)
				add(w, dir, v->v[i], exe, importer);
}

/* dir: the Windows path; real: the same resolved under the root once, so
 * that each entry is a name from its listing, not a case-insensitive
 * resolution of the whole path again (which lists every parent: quadratic
 * in a folder's size). Once the budget is spent no folder is listed or
 * even looked at. */
static void walk_dir(struct walk *w, const char *dir, const char *real,
		     int depth)
{
	gd_strvec v;

	if (w->budget <= 0) {
		w->wi->app_scan_cut = 1;
		return;
	}
	w->budget--;
	if (gd_fs_list(&w->ctx->fs, real, &v) < 0)
		return;
	if (v.n)
		qsort(v.v, v.n, sizeof *v.v, cmp_ci);
	app_folder(w, dir, &v);
	for (size_t i = 0; depth > 0 && i < v.n && !w->wi->app_scan_cut; i++) {
		char sub[600], rsub[1024];

		gd_fmt(sub, sizeof sub, "%s\\%s", dir, v.v[i]);
		gd_fmt(rsub, sizeof rsub, "%s/%s", real, v.v[i]);
		if ((w->skip && !strcasecmp(sub, w->skip)) ||
		    !strcasecmp(v.v[i], "WindowsApps") ||
		    ends_ci(sub, ".dll") || ends_ci(sub, ".exe") ||
		    !is_dir(w->ctx, rsub))
			continue;
		walk_dir(w, sub, rsub, depth - 1);
	}
	gd_strvec_free(&v);
}

static void walk_root(struct walk *w, const char *var, const char *sub,
		      int depth)
{
	const char *base = gd_win_getenv(w->ctx, var);
	char dir[400], real[1024];
	size_t n;

	if (!base || !*base)
		return;
	n = strlen(base);
	while (n && base[n - 1] == '\\')
		n--;
	gd_fmt(dir, sizeof dir, "%.*s%s%s", (int)n, base, sub[0] ? "\\" : "",
	       sub);
	if (gd_win_resolve(w->ctx, dir, real, sizeof real) == 0 &&
	    is_dir(w->ctx, real))
		walk_dir(w, dir, real, depth);
}

void gd_win_apps_collect(gd_ctx *ctx, struct gd_win_inventory *wi)
{
	const char *root = gd_win_getenv(ctx, "SystemRoot");
	const char *pf = gd_win_getenv(ctx, "ProgramFiles");
	struct walk w = {ctx, wi, GD_WIN_APP_DIRS, NULL, ""};
	char sdks[300];

	gd_fmt(w.sys32, sizeof w.sys32, "%s\\System32",
	       root && *root ? root : "C:\\Windows");
	walk_root(&w, "USERPROFILE", ".cache\\lemonade\\bin", 3);
	walk_root(&w, "LOCALAPPDATA", "Programs", 4);
	gd_fmt(sdks, sizeof sdks, "%s\\AMD\\ROCm",
	       pf && *pf ? pf : "C:\\Program Files");
	w.skip = sdks;
	walk_root(&w, "ProgramFiles", "", 3);
}
