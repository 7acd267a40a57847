/* Application folders with their own HIP runtime (verdict_windows.h;
 * the facts: inventory/win_apps.c). Windows searches the application's
 * folder before System32 (docs/windows.md A.4), so an app that keeps
 * amdhip64_7.dll beside its .exe runs that copy, not the driver's. A copy
 * older than the driver's (file versions are build numbers: newer/older
 * only, docs/windows.md A.2) may not know this driver or GPU: Lemonade's
 * TheRock 7.14 copy (10.0.3581) under a driver with 10.0.3679 gave
 * hipGetDeviceCount() = 0 on gfx1151, and deleting the copy fixed it
 * (docs/windows.md A.2, how apps report). A copy that is not older is what
 * the app chose (llama.cpp bundles its runtime on purpose): reported, not
 * blamed. An app's HIP backend DLL whose import Windows finds nowhere (its
 * folder, System32, the Windows folder, PATH) does not load, and the app
 * sees no GPU without a word: llama.cpp's b10400 ROCm 7.14 zip lacked
 * hipblas.dll, so --list-devices printed none on an R9700
 * (docs/windows.md A.2). */
#include <string.h>

#include "verdict_windows.h"

static const char *loader(const struct gd_win_app_rt *a)
{
	return a->exe[0] ? a->exe : a->importer;
}

/* 1 when the app's copy is older than System32's of the same name. */
static int stale(const struct gd_win_app_rt *a)
{
	return a->in_sys32 && a->ver[0] && a->sys_ver[0] &&
	       gd_version_cmp(a->ver, a->sys_ver) < 0;
}

static void who(const struct gd_win_app_rt *a, char *buf, size_t cap)
{
	if (a->exe[0] && a->importer[0])
		gd_fmt(buf, cap,
		       "%s loads it from its own folder (%s there "
		       "imports %s)",
		       a->exe, a->importer, a->dll);
	else if (a->exe[0])
		gd_fmt(buf, cap, "%s loads it from its own folder", a->exe);
	else
		gd_fmt(buf, cap, "%s there imports it and gets this copy",
		       a->importer);
}

static void one(const struct gd_gpu *g, const struct gd_win_app_rt *a,
		struct gd_win_verdict *v)
{
	char w[200];

	who(a, w, sizeof w);
	if (stale(a))
		gd_win_fact(
		    v, GD_WIN_BAD, GD_C_WIN_APP_RUNTIME_STALE,
		    "%s ships its own %s (version %s), older than the "
		    "driver's %s in System32 (version %s); %s, because "
		    "Windows searches the application's folder before "
		    "System32. An older HIP runtime may not know this driver "
		    "or %s, and then reports no ROCm-capable device (the app "
		    "falls back to the CPU)",
		    a->dir, a->dll, a->ver, a->dll, a->sys_ver, w,
		    g->gfx[0] ? g->gfx : "GPU");
	else if (a->in_sys32 && (!a->ver[0] || !a->sys_ver[0]))
		gd_win_fact(v, GD_WIN_WARN, GD_C_WIN_APP_RUNTIME,
			    "%s ships its own %s; %s, not the driver's "
			    "System32 copy (versions unknown: if the app sees "
			    "no GPU, rename its copy)",
			    a->dir, a->dll, w);
	else if (a->in_sys32)
		gd_win_fact(v, GD_WIN_OK, GD_C_WIN_APP_RUNTIME,
			    "%s ships its own %s (version %s, not older than "
			    "the driver's %s); %s",
			    a->dir, a->dll, a->ver, a->sys_ver, w);
	else
		gd_win_fact(v, GD_WIN_OK, GD_C_WIN_APP_RUNTIME,
			    "%s brings its own %s%s%s%s (the driver ships none "
			    "of that name); %s",
			    a->dir, a->dll, a->ver[0] ? " (version " : "",
			    a->ver, a->ver[0] ? ")" : "", w);
}

static void missing_fact(const struct gd_win_app_missing *m,
			 struct gd_win_verdict *v)
{
	gd_win_fact(v, GD_WIN_BAD, GD_C_WIN_APP_IMPORT_MISSING,
		    "%s (in %s) imports %s, which is in neither the app "
		    "folder, System32 nor PATH: the app's HIP backend cannot "
		    "load and %s sees no GPU",
		    m->importer, m->dir, m->dll,
		    m->exe[0] ? m->exe : "the app");
}

/* Could not tell is not "works": a bad fact, so the verdict is not usable
 * (issue #20 E11). */
static void unread_fact(const struct gd_win_app_unread *u,
			struct gd_win_verdict *v)
{
	gd_win_fact(v, GD_WIN_BAD, GD_C_WIN_APP_DLL_UNREADABLE,
		    "%s (in %s): %s: its imports are unknown, so whether "
		    "the app's HIP backend loads cannot be told (Windows "
		    "loads no file that is not a valid PE, and %s then sees "
		    "no GPU)",
		    u->dll, u->dir, u->why, u->exe[0] ? u->exe : "the app");
}

int gd_win_app_facts(const struct gd_gpu *g, const struct gd_win_inventory *wi,
		     struct gd_win_verdict *v)
{
	int n = wi->n_app_missing + wi->n_app_unread;

	for (int i = 0; i < wi->n_app_missing; i++)
		missing_fact(&wi->app_missing[i], v);
	for (int i = 0; i < wi->n_app_unread; i++)
		unread_fact(&wi->app_unread[i], v);

	for (int i = 0; i < wi->n_apps; i++) {
		one(g, &wi->apps[i], v);
		n += stale(&wi->apps[i]);
	}
	return n;
}

void gd_win_app_steps(const struct gd_win_inventory *wi,
		      struct gd_win_verdict *v)
{
	for (int i = 0; i < wi->n_app_missing; i++) {
		const struct gd_win_app_missing *m = &wi->app_missing[i];

		gd_win_step(v, GD_C_WIN_APP_IMPORT_GET,
			    "get a build of the app that ships %s in %s (or "
			    "copy %s and its own imports there from %s%s)",
			    m->dll, m->dir, m->dll,
			    m->sdk[0] ? m->sdk : "the HIP SDK or ROCm release",
			    m->sdk[0] ? "" : " the app was built with");
	}
	for (int i = 0; i < wi->n_app_unread; i++) {
		const struct gd_win_app_unread *u = &wi->app_unread[i];

		gd_win_step(v, GD_C_WIN_APP_DLL_REPLACE,
			    "replace %s\\%s with the copy from the app's "
			    "release (reinstall or re-extract the app): as it "
			    "is, %s",
			    u->dir, u->dll, u->why);
	}
	for (int i = 0; i < wi->n_apps; i++) {
		const struct gd_win_app_rt *a = &wi->apps[i];

		if (!stale(a))
			continue;
		gd_win_step(v, GD_C_WIN_APP_RUNTIME_REMOVE,
			    "rename %s\\%s (e.g. to %s.bak) or update the app, "
			    "so that %s uses the driver's System32 copy "
			    "(version %s); the app needs no HIP SDK",
			    a->dir, a->dll, a->dll, loader(a), a->sys_ver);
	}
}

int gd_win_app_summary(const struct gd_gpu *g,
		       const struct gd_win_inventory *wi,
		       struct gd_win_verdict *v)
{
	if (wi->n_app_missing) {
		const struct gd_win_app_missing *m = &wi->app_missing[0];

		gd_fmt(v->summary, sizeof v->summary,
		       "%s on Windows: %s cannot load (%s is missing): the "
		       "app sees no GPU",
		       g->gfx[0] ? g->gfx : "this GPU", m->importer, m->dll);
		return 1;
	}
	if (wi->n_app_unread) {
		const struct gd_win_app_unread *u = &wi->app_unread[0];

		gd_fmt(v->summary, sizeof v->summary,
		       "%s on Windows: %s could not be read (%s): its imports "
		       "are unknown",
		       g->gfx[0] ? g->gfx : "this GPU", u->dll, u->why);
		return 1;
	}
	for (int i = 0; i < wi->n_apps; i++) {
		const struct gd_win_app_rt *a = &wi->apps[i];

		if (!stale(a))
			continue;
		gd_fmt(v->summary, sizeof v->summary,
		       "%s on Windows: %s loads its own older %s (%s) instead "
		       "of the driver's (%s): rename that copy",
		       g->gfx[0] ? g->gfx : "this GPU", loader(a), a->dll,
		       a->ver, a->sys_ver);
		return 1;
	}
	return 0;
}
