/* Python frameworks on Windows against the AMD driver and HIP SDKs
 * (verdict_windows.h). The rules [docs/windows.md A.4; docs/windows.md
 * §F]: a DLL importing amdhip64_N.dll needs a
 * driver that ships HIP N (an SDK's runtime of another major sees 0
 * devices); Python >= 3.8 finds imports only in the DLL's own folder, the
 * application folder, os.add_dll_directory folders and System32. */
#include <string.h>
#include <strings.h>

#include "verdict_windows.h"

void gd_win_fw_label(const struct gd_win_python *py,
		     const struct gd_winpy_fw *fw, char *buf, size_t cap)
{
	const struct gd_winpy_env *e = &py->envs[fw->env];

	gd_fmt(buf, cap, "%s %s in %s (%s)", fw->dist[0] ? fw->dist : fw->name,
	       fw->version[0] ? fw->version : "(version unknown)", e->prefix,
	       e->kind);
}

/* The SDK whose bin folder dir is, or NULL. */
static const struct gd_win_sdk *sdk_of_dir(const struct gd_win_inventory *wi,
					   const char *dir)
{
	for (int i = 0; i < wi->n_sdks; i++) {
		size_t n = strlen(wi->sdks[i].root);

		if (n && !strncasecmp(dir, wi->sdks[i].root, n))
			return &wi->sdks[i];
	}
	return NULL;
}

static int sdk_with_major(const struct gd_win_inventory *wi, int major)
{
	for (int i = 0; i < wi->n_sdks; i++)
		if ((wi->sdks[i].runtime_major ? wi->sdks[i].runtime_major
					       : wi->sdks[i].major) == major)
			return 1;
	return 0;
}

static void hip_mismatch(const struct gd_win_inventory *wi, const char *label,
			 const struct gd_winpy_dll *d,
			 const struct gd_winpy_import *im, int m,
			 struct gd_win_verdict *v)
{
	const struct gd_win_sdk *s =
	    im->dir[0] ? sdk_of_dir(wi, im->dir) : NULL;
	char drv[64], tail[400];

	if (wi->driver_hip_major)
		gd_fmt(drv, sizeof drv, "the driver provides %s",
		       wi->sys_runtimes[wi->n_sys_runtimes - 1]);
	else
		gd_strlcpy(drv, "the driver provides no HIP runtime",
			   sizeof drv);
	if (s)
		gd_fmt(tail, sizeof tail,
		       "Python would load it from %s (%s): HIP SDK %s's "
		       "runtime, which sees 0 devices with this driver",
		       im->dir, im->how, s->version);
	else if (im->dir[0])
		gd_fmt(tail, sizeof tail,
		       "Python would load it from %s (%s); HIP %d needs a "
		       "driver that ships amdhip64_%d.dll",
		       im->dir, im->how, m, m);
	else if (!sdk_with_major(wi, m))
		gd_fmt(tail, sizeof tail,
		       "no HIP SDK %d is installed, and Python finds it "
		       "nowhere",
		       m);
	else
		gd_strlcpy(tail, "Python finds it nowhere", sizeof tail);
	gd_win_fact(v, GD_WIN_BAD, GD_C_WIN_FRAMEWORK_HIP_MISMATCH,
		    "%s: %s imports %s; %s; %s", label, d->rel, im->dll, drv,
		    tail);
}

/* Where the loader looked, for a missing import. */
static void searched(const struct gd_win_python *py,
		     const struct gd_winpy_fw *fw, char *buf, size_t cap)
{
	size_t n;

	gd_fmt(buf, cap, "its own folder, the application folder %s",
	       py->envs[fw->env].app_dir);
	for (int i = 0; i < fw->n_dll_dirs; i++) {
		n = strlen(buf);
		gd_fmt(buf + n, cap - n, "%s%s (%s)",
		       i ? ", " : ", os.add_dll_directory: ", fw->dll_dirs[i],
		       fw->dll_dir_why[i]);
	}
	n = strlen(buf);
	gd_fmt(buf + n, cap - n, ", System32; not PATH");
}

/* "HIP SDK 7.1 names it libhipblas.dll": the rename docs/windows.md (A.4)
 * records, which breaks programs that import hipblas.dll. */
static void renamed(const struct gd_win_inventory *wi, const char *dll,
		    char *buf, size_t cap)
{
	buf[0] = '\0';
	for (int i = 0; i < wi->n_sdks; i++) {
		const char *h = wi->sdks[i].hipblas;

		if (!h[0] || (strcasecmp(dll, "hipblas.dll") &&
			      strcasecmp(dll, "libhipblas.dll")))
			continue;
		if (strcasecmp(h, dll))
			gd_fmt(buf, cap, "; HIP SDK %s names it %s",
			       wi->sdks[i].version, h);
	}
}

static void missing(const struct gd_win_inventory *wi,
		    const struct gd_win_python *py,
		    const struct gd_winpy_fw *fw, const char *label,
		    const struct gd_winpy_dll *d,
		    const struct gd_winpy_import *im, struct gd_win_verdict *v)
{
	char where[900], hint[96];

	if (d->path_search)
		gd_strlcpy(where,
			   "its own folder, System32, the Windows folder and "
			   "PATH: its package loads it with "
			   "LOAD_WITH_ALTERED_SEARCH_PATH",
			   sizeof where);
	else
		searched(py, fw, where, sizeof where);
	renamed(wi, im->dll, hint, sizeof hint);
	gd_win_fact(v, GD_WIN_BAD, GD_C_WIN_FRAMEWORK_DLL_MISSING,
		    "%s: %s imports %s, which %s does not find (searched "
		    "%s)%s",
		    label, d->rel, im->dll,
		    d->path_search ? "Windows" : "Python >= 3.8", where, hint);
}

void gd_win_python_missing(const struct gd_win_inventory *wi,
			   const struct gd_win_python *py,
			   const struct gd_winpy_fw *fw,
			   struct gd_win_verdict *v)
{
	char label[400];

	gd_win_fw_label(py, fw, label, sizeof label);
	for (int i = 0; i < fw->n_dlls; i++)
		for (int k = 0; k < fw->dlls[i].n_imp; k++) {
			const struct gd_winpy_import *im = &fw->dlls[i].imp[k];

			if (!im->dir[0] && strcmp(im->how, "Windows") &&
			    !(wi && gd_win_hip_major(im->dll)))
				missing(wi, py, fw, label, &fw->dlls[i], im, v);
		}
}

void gd_win_other_gpu(const struct gd_win_python *py,
		      const struct gd_winpy_fw *fw, const char *vendor,
		      struct gd_win_verdict *v)
{
	char label[400];

	if (strcmp(fw->build, vendor[0] == 'N' ? "cuda" : "rocm"))
		return;
	gd_win_fw_label(py, fw, label, sizeof label);
	gd_win_fact(v, GD_WIN_WARN, GD_C_WIN_FRAMEWORK_OTHER_GPU,
		    "%s is a %s build: it needs an %s GPU, so it runs on the "
		    "CPU here%s%s%s",
		    label, vendor[0] == 'N' ? "CUDA" : "ROCm", vendor,
		    fw->also[0] ? "; " : "", fw->also,
		    fw->also[0] ? " shares its package folder (which one is "
				  "active depends on install order)"
				: "");
}

static int amd_build(const struct gd_winpy_fw *fw)
{
	return fw->hip_major || !strcmp(fw->build, "rocm") ||
	       !strcmp(fw->build, "directml");
}

void gd_win_python_amd_facts(const struct gd_win_inventory *wi,
			     const struct gd_win_python *py,
			     struct gd_win_verdict *v)
{
	char label[400];

	for (int f = 0; py && f < py->n_fw; f++) {
		const struct gd_winpy_fw *fw = &py->fw[f];

		gd_win_fw_label(py, fw, label, sizeof label);
		if (!amd_build(fw)) {
			gd_win_other_gpu(py, fw, "NVIDIA", v);
			continue;
		}
		gd_win_fact(v, GD_WIN_OK, GD_C_WIN_FRAMEWORK,
			    "%s: a %s build%s%s%s%s%s", label, fw->build,
			    fw->hip[0] ? " (torch.version.hip " : "", fw->hip,
			    fw->hip[0] ? ")" : "",
			    fw->bundled_hip[0] ? "; its wheels bring the HIP "
						 "runtime "
					       : "",
			    fw->bundled_hip);
		for (int i = 0; i < fw->n_dlls; i++)
			for (int k = 0; k < fw->dlls[i].n_imp; k++) {
				const struct gd_winpy_import *im =
				    &fw->dlls[i].imp[k];
				int m = gd_win_hip_major(im->dll);

				if (m && m != wi->driver_hip_major)
					hip_mismatch(wi, label, &fw->dlls[i],
						     im, m, v);
				else if (m && !im->dir[0])
					missing(wi, py, fw, label, &fw->dlls[i],
						im, v);
			}
		gd_win_python_missing(wi, py, fw, v);
	}
}

int gd_win_python_amd_steps(const struct gd_gpu *g,
			    const struct gd_win_inventory *wi,
			    const struct gd_win_python *py,
			    struct gd_win_verdict *v)
{
	const struct gd_win_sdk *s = v->sdk >= 0 ? &wi->sdks[v->sdk] : NULL;
	int given = 0;

	for (int f = 0; py && f < py->n_fw; f++) {
		const struct gd_winpy_fw *fw = &py->fw[f];

		if (!fw->hip_major || fw->hip_major == wi->driver_hip_major)
			continue;
		gd_win_step(
		    v, GD_C_WIN_FRAMEWORK_REPLACE,
		    "replace %s %s (its DLLs import amdhip64_%d.dll) with a "
		    "build against HIP SDK %s targeting %s (e.g. from source "
		    "with CMAKE_HIP_ARCHITECTURES=%s); renaming "
		    "amdhip64_%d.dll to amdhip64_%d.dll loads but GEMM fails",
		    fw->dist[0] ? fw->dist : fw->name, fw->version,
		    fw->hip_major, s ? s->version : "of the driver's major",
		    g->gfx[0] ? g->gfx : "this GPU",
		    g->gfx[0] ? g->gfx : "<gfx>", wi->driver_hip_major,
		    fw->hip_major);
		given = 1;
	}
	return given;
}

int gd_win_python_bundled(const struct gd_gpu *g,
			  const struct gd_win_inventory *wi,
			  const struct gd_win_python *py,
			  struct gd_win_verdict *v)
{
	for (int f = 0; py && f < py->n_fw; f++) {
		const struct gd_winpy_fw *fw = &py->fw[f];
		char label[400];

		if (!fw->bundled_hip_major)
			continue;
		gd_win_fw_label(py, fw, label, sizeof label);
		gd_win_fact(v, GD_WIN_WARN, GD_C_WIN_NO_DRIVER_HIP,
			    "no amdhip64*.dll in System32 (not captured, or "
			    "the driver ships none); %s brings its own HIP %d "
			    "runtime (%s), preloaded by rocm_sdk: it needs no "
			    "HIP SDK and no HIP_PATH",
			    label, fw->bundled_hip_major, fw->bundled_hip);
		gd_win_python_amd_facts(wi, py, v);
		gd_fmt(v->summary, sizeof v->summary,
		       "%s on Windows: %s %s brings its own HIP %d runtime "
		       "(no HIP SDK needed)",
		       g->gfx[0] ? g->gfx : "this GPU",
		       fw->dist[0] ? fw->dist : fw->name, fw->version,
		       fw->bundled_hip_major);
		v->usable = 1;
		for (int i = 0; i < v->n_facts; i++)
			if (v->facts[i].level == GD_WIN_BAD)
				v->usable = 0;
		return 1;
	}
	return 0;
}
