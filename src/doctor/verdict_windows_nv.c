/* NVIDIA on Windows (verdict_windows.h): nvcuda.dll in System32, the
 * driver's CUDA level, and each Python framework's CUDA against the driver
 * by NVIDIA's minor-version compatibility rule (cuda_driver.c) with the
 * kb's Windows minimums. A CUDA toolkit (CUDA_PATH) is reported but not
 * blamed: pip and conda wheels bring their own CUDA runtime. */
#include <stdlib.h>
#include <string.h>

#include "verdict_windows.h"

void gd_win_cuda_min_table(gd_ctx *ctx, struct gd_cuda_min_table *t)
{
	gd_cuda_min_table_load(ctx, t);
	for (size_t i = 0; i < t->n; i++) {
		struct gd_kb_driver_min *r = &t->rows[i];

		/* the checker reads the linux column: put Windows' there */
		if (r->windows_min)
			r->linux_min = r->windows_min;
		else if (r->linux_min && strchr(r->linux_min, '.'))
			r->linux_min = NULL; /* a Linux point release */
	}
}

static void framework(gd_ctx *ctx, const struct gd_cuda_min_table *t,
		      const struct gd_gpu *g, const struct gd_win_python *py,
		      const struct gd_winpy_fw *fw, struct gd_win_verdict *v)
{
	const char *drv =
	    gd_known(&g->win.driver_user) ? g->win.driver_user.v : NULL;
	struct gd_cuda_check c;
	char label[400], cu[16];
	const char *inst;

	gd_win_fw_label(py, fw, label, sizeof label);
	/* "12" from a cudart64_12.dll import means any 12.x */
	gd_fmt(cu, sizeof cu, "%s%s", fw->cuda,
	       strchr(fw->cuda, '.') ? "" : ".0");
	memset(&c, 0, sizeof c);
	gd_cuda_driver_check(t, drv, cu, &c);
	if (c.driver_ok != 0) {
		gd_win_fact(v, GD_WIN_OK, GD_C_WIN_FRAMEWORK,
			    "%s: a CUDA %s build; %s", label, fw->cuda, c.why);
		gd_win_python_missing(NULL, py, fw, v);
		return;
	}
	gd_win_fact(v, GD_WIN_BAD, GD_C_WIN_FRAMEWORK_CUDA_TOO_NEW,
		    "%s is built for CUDA %s: %s, so it runs on the CPU there "
		    "(torch.cuda.is_available() is False)",
		    label, fw->cuda, c.why);
	gd_win_step(v, GD_C_WIN_NVIDIA_DRIVER_UPGRADE,
		    "update the NVIDIA driver to %s or newer (CUDA %lu.x needs "
		    "it)",
		    c.min_driver, strtoul(fw->cuda, NULL, 10));
	inst = strcmp(fw->name, "torch")
		   ? NULL
		   : gd_kb_workload_install_for(
			 ctx->kb, GD_KB_WL_PYTORCH, "cuda",
			 (unsigned)strtoul(v->cuda_level, NULL, 10));
	gd_win_step(v, GD_C_WIN_FRAMEWORK_REPLACE,
		    "or keep driver %s and install a %s built for CUDA %s in "
		    "%s%s%s",
		    drv ? drv : "(unknown)", fw->name,
		    v->cuda_level[0] ? v->cuda_level : "the driver's level",
		    py->envs[fw->env].prefix, inst ? ": " : "",
		    inst ? inst : "");
}

void gd_win_verdict_nvidia(gd_ctx *ctx, const struct gd_gpu *g,
			   const struct gd_win_inventory *wi,
			   const struct gd_win_python *py,
			   struct gd_win_verdict *v)
{
	const char *drv =
	    gd_known(&g->win.driver_user) ? g->win.driver_user.v : NULL;
	struct gd_cuda_min_table t;

	memset(v, 0, sizeof *v);
	v->sdk = -1;
	gd_win_cuda_min_table(ctx, &t);
	gd_cuda_driver_api(&t, drv, v->cuda_level, sizeof v->cuda_level);
	if (!wi->sys32_listed) {
		/* a registry-only capture: System32 was not captured, so
		 * nvcuda.dll's absence proves nothing */
		gd_win_fact(v, GD_WIN_WARN, GD_C_WIN_NVIDIA_NVCUDA_UNCHECKED,
			    "NVIDIA driver %s runs CUDA %s (the kb's minimum "
			    "drivers); nvcuda.dll could not be checked: this "
			    "capture holds no System32 listing (no fs/ part)",
			    drv ? drv : "(version unknown)",
			    v->cuda_level[0] ? v->cuda_level : "(unknown)");
	} else if (!wi->has_nvcuda) {
		gd_win_fact(v, GD_WIN_BAD, GD_C_WIN_NVIDIA_NO_NVCUDA,
			    "nvcuda.dll is missing from System32: no CUDA "
			    "program can start");
		gd_win_step(v, GD_C_WIN_NVIDIA_REINSTALL,
			    "reinstall the NVIDIA driver (it installs "
			    "nvcuda.dll)");
	} else {
		gd_win_fact(v, GD_WIN_OK, GD_C_WIN_NVIDIA_DRIVER,
			    "NVIDIA driver %s (nvcuda.dll in System32) runs "
			    "CUDA %s (the kb's minimum drivers)",
			    drv ? drv : "(version unknown)",
			    v->cuda_level[0] ? v->cuda_level : "(unknown)");
	}
	for (int f = 0; py && f < py->n_fw; f++) {
		if (py->fw[f].cuda[0])
			framework(ctx, &t, g, py, &py->fw[f], v);
		else
			gd_win_other_gpu(py, &py->fw[f], "AMD", v);
	}
	for (int i = 0; i < wi->n_cuda_versions; i++)
		gd_win_fact(
		    v, GD_WIN_OK, GD_C_WIN_CUDA_TOOLKIT,
		    "CUDA toolkit %s is installed (CUDA_PATH%s%s): "
		    "pip and conda wheels bring their own CUDA runtime, "
		    "so it matters only for building extensions",
		    wi->cuda_versions[i], wi->cuda_path[0] ? " = " : "",
		    wi->cuda_path);
	v->usable = wi->has_nvcuda || !wi->sys32_listed;
	for (int i = 0; i < v->n_facts; i++)
		if (v->facts[i].level == GD_WIN_BAD)
			v->usable = 0;
	gd_fmt(v->summary, sizeof v->summary, "NVIDIA driver %s: %s",
	       drv ? drv : "(version unknown)",
	       !wi->sys32_listed ? (v->usable ? "CUDA should work "
						"(nvcuda.dll not captured)"
					      : "the driver is older than an "
						"installed framework's CUDA")
	       : !wi->has_nvcuda ? "nvcuda.dll is missing; reinstall the driver"
	       : v->usable	 ? "CUDA works"
				 : "the driver is older than an installed "
				   "framework's CUDA");
}
