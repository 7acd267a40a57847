/* Application folders that keep their own HIP runtime (win_inventory.h,
 * struct gd_win_app_rt). Lemonade copied TheRock's amdhip64_7.dll
 * (10.0.3581) beside llama-server.exe, older than the driver's System32
 * copy (10.0.3679); the app folder wins the DLL search, and HIP saw no
 * device [lemonade-sdk/lemonade#3213]. llama.cpp's own ROCm builds ship
 * amdhip64_7.dll, amd_comgr.dll on purpose [ggml-org/llama.cpp#26973]:
 * a copy is a fact, only its version against System32's is a judgement
 * (doctor/verdict_windows_app.c).
 *
 * Where it looks (each walk bounded in depth, all of them together to
 * GD_WIN_APP_DIRS folders, entries in name order so that a capture
 * replays the same walk): %USERPROFILE%\.cache\lemonade\bin (Lemonade's
 * backends, lemonade#3213, #1847), %LOCALAPPDATA%\Programs (per-user
 * installs), %ProgramFiles% (the HIP SDKs under AMD\ROCm are judged as
 * SDKs, not apps; WindowsApps is not readable). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "binscan/binscan.h"
#include "core/wincap.h"
#include "win_int.h"

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

static int is_dir(gd_ctx *ctx, const char *winpath)
{
	struct stat st;
	char p[1024];

	return gd_win_resolve(ctx, winpath, p, sizeof p) == 0 &&
	       gd_fs_stat(&ctx->fs, p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Whether the PE file dir\file imports one of the folder's runtimes. */
static int imports_runtime(gd_ctx *ctx, const char *dir, const char *file,
			   const gd_strvec *v)
{
	struct gd_bs_dyn dyn;
	struct gd_pe pe;
	char wp[600], p[1024], err[96];
	uint8_t *b = NULL;
	size_t n = 0;
	int rc, hit = 0;

	gd_fmt(wp, sizeof wp, "%s\\%s", dir, file);
	if (gd_win_resolve(ctx, wp, p, sizeof p) < 0)
		return 0;
	/* the import table is near the start: a big DLL is read this far */
	rc = gd_fs_read_alloc(&ctx->fs, p, 64u << 20, (char **)&b, &n);
	memset(&dyn, 0, sizeof dyn);
	if ((rc == 0 || rc == -EFBIG) && n &&
	    gd_pe_open(&pe, b, n, err, sizeof err) == 0 &&
	    gd_pe_imports(&pe, &dyn, err, sizeof err) == 0)
		for (size_t i = 0; i < dyn.needed.n; i++)
			for (size_t k = 0; k < v->n; k++)
				hit |= is_runtime(v->v[k]) &&
				       !strcasecmp(dyn.needed.v[i], v->v[k]);
	gd_bs_dyn_free(&dyn);
	free(b);
	return hit;
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

/* A folder holding a runtime and something that loads it from there. */
static void app_folder(struct walk *w, const char *dir, const gd_strvec *v)
{
	const char *exe = NULL, *importer = NULL;
	int has = 0, read = 0;

	for (size_t i = 0; i < v->n; i++)
		has |= is_runtime(v->v[i]);
	if (!has)
		return;
	for (size_t i = 0; i < v->n; i++) {
		const char *n = v->v[i];

		if (!exe && ends_ci(n, ".exe"))
			exe = n;
		else if (!importer && !is_runtime(n) &&
			 (ends_ci(n, ".dll") || ends_ci(n, ".pyd")) &&
			 read++ < GD_WIN_APP_PE &&
			 imports_runtime(w->ctx, dir, n, v))
			importer = n;
	}
	if (!exe && !importer)
		return; /* nothing here loads it from this folder */
	for (int pass = 0; pass < 2; pass++) /* amdhip64 first, then comgr */
		for (size_t i = 0; i < v->n; i++)
			if (pass ? gd_win_is_comgr(v->v[i])
				 : gd_win_hip_major(v->v[i]) != 0)
				add(w, dir, v->v[i], exe, importer);
}

static void walk_dir(struct walk *w, const char *dir, int depth)
{
	gd_strvec v;

	if (w->budget <= 0) {
		w->wi->app_scan_cut = 1;
		return;
	}
	w->budget--;
	if (gd_win_list(w->ctx, dir, &v) < 0)
		return;
	if (v.n)
		qsort(v.v, v.n, sizeof *v.v, cmp_ci);
	app_folder(w, dir, &v);
	for (size_t i = 0; depth > 0 && i < v.n; i++) {
		char sub[600];

		gd_fmt(sub, sizeof sub, "%s\\%s", dir, v.v[i]);
		if ((w->skip && !strcasecmp(sub, w->skip)) ||
		    !strcasecmp(v.v[i], "WindowsApps") ||
		    ends_ci(sub, ".dll") || ends_ci(sub, ".exe") ||
		    !is_dir(w->ctx, sub))
			continue;
		walk_dir(w, sub, depth - 1);
	}
	gd_strvec_free(&v);
}

static void walk_root(struct walk *w, const char *var, const char *sub,
		      int depth)
{
	const char *base = gd_win_getenv(w->ctx, var);
	char dir[400];
	size_t n;

	if (!base || !*base)
		return;
	n = strlen(base);
	while (n && base[n - 1] == '\\')
		n--;
	gd_fmt(dir, sizeof dir, "%.*s%s%s", (int)n, base, sub[0] ? "\\" : "",
	       sub);
	if (is_dir(w->ctx, dir))
		walk_dir(w, dir, depth);
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
