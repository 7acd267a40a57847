/* The target's place in AMD's HIP SDK for Windows (verdict_windows.h).
 * AMD lists the targets its HIP SDK supports on Windows (kb
 * targets[].rocm_windows, from AMD's Windows support tables); RDNA 1
 * (gfx1010/1011/1012) and GCN 4 (gfx803) are not among them, so no
 * driver update makes HIP programs run there, and "install AMD Software"
 * is no answer. Where the kb knows a Windows route (gfx1010: HIP SDK 6.2
 * with community rocBLAS kernels, field report rdna1-ctranslate2-windows)
 * that is said first and the usual judgement follows; without one the
 * verdict is the kb's advice for backends that need no ROCm (llama.cpp's
 * Vulkan) or the CPU. Either way the target comes before any runtime. */
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "verdict_util.h"
#include "verdict_windows.h"

/* A workload advice that works on Windows without ROCm, or a ROCm route
 * that goes through the Windows HIP SDK (its install names one). */
static int windows_route(const struct gd_kb_advice *a, int rocm)
{
	if (!a->present || !a->verdict || !a->backend)
		return 0;
	if (rocm)
		return !strcmp(a->backend, "ROCm") &&
		       !strcmp(a->verdict, "workaround") && a->install &&
		       strstr(a->install, "HIP SDK");
	return strcmp(a->backend, "ROCm") &&
	       (!strcmp(a->verdict, "works") || !strcmp(a->verdict, "cpu"));
}

static void other_backends(const struct gd_kb_target *t,
			   struct gd_win_verdict *v)
{
	for (int w = 0; w < GD_KB_N_WORKLOADS; w++) {
		const struct gd_kb_advice *a = &t->advice[w];

		if (windows_route(a, 0))
			gd_win_step(v, GD_C_WIN_OTHER_BACKEND, "%s: %s%s%s%s",
				    gd_kb_workload_name((enum gd_kb_workload)w),
				    a->text ? a->text : a->backend,
				    a->install && a->install[0] ? " (" : "",
				    a->install ? a->install : "",
				    a->install && a->install[0] ? ")" : "");
	}
}

static void runtime_fact(const struct gd_gpu *g,
			 const struct gd_win_inventory *wi,
			 struct gd_win_verdict *v)
{
	if (wi->driver_hip_major)
		gd_win_fact(v, GD_WIN_WARN, GD_C_WIN_DRIVER_HIP,
			    "the AMD driver ships HIP %d (%s in System32), "
			    "but that runtime does not support %s",
			    wi->driver_hip_major,
			    wi->sys_runtimes[wi->n_sys_runtimes - 1], g->gfx);
	else
		gd_win_fact(v, GD_WIN_WARN, GD_C_WIN_NO_DRIVER_HIP,
			    "no HIP runtime (amdhip64*.dll) in System32; "
			    "installing or updating AMD Software does not "
			    "bring HIP support for %s",
			    g->gfx);
}

int gd_win_target_support(gd_ctx *ctx, const struct gd_gpu *g,
			  const struct gd_win_inventory *wi,
			  struct gd_win_verdict *v)
{
	struct gd_kb_target t;
	char note[400];
	int route = 0;

	if (!ctx || !ctx->kb || !g->gfx[0] ||
	    gd_kb_target_get(ctx->kb, g->gfx, &t) < 0 ||
	    !t.rocm_windows.status ||
	    strcmp(t.rocm_windows.status, "unsupported"))
		return 0;
	for (int w = 0; w < GD_KB_N_WORKLOADS; w++)
		route |= windows_route(&t.advice[w], 1);
	if (route) {
		gd_strlcpy(note,
			   t.rocm_windows.note ? t.rocm_windows.note
					       : "see the steps",
			   sizeof note);
		if (note[0] && note[strlen(note) - 1] == '.')
			note[strlen(note) - 1] = '\0';
		gd_win_fact(v, GD_WIN_WARN, GD_C_WIN_TARGET_COMMUNITY,
			    "%s (%s) is not in AMD's HIP SDK for Windows "
			    "support list: HIP runs on it only by a community "
			    "route (%s)",
			    g->gfx, t.family ? t.family : "AMD", note);
		return 0;
	}
	gd_win_fact(v, GD_WIN_BAD, GD_C_WIN_TARGET_UNSUPPORTED,
		    "%s (%s) is not in AMD's HIP SDK for Windows support "
		    "list: HIP programs and the ROCm builds of apps and "
		    "frameworks do not run on it, whatever the driver ships",
		    g->gfx, t.family ? t.family : "AMD");
	runtime_fact(g, wi, v);
	other_backends(&t, v);
	v->sdk = -1;
	v->unsupported = 1;
	gd_fmt(v->summary, sizeof v->summary,
	       "%s on Windows: not supported by AMD's HIP SDK; use a backend "
	       "that needs no ROCm (Vulkan) or the CPU",
	       g->gfx);
	return 1;
}

/* The last CUDA for the GPU's sm (kb compute capabilities, else the kb's
 * chip row), NULL when none is known. */
static const char *last_cuda(gd_ctx *ctx, const struct gd_gpu *g,
			     struct gd_kb_cc *cc)
{
	if (g->nv.sm[0] && ctx->kb &&
	    gd_kb_cc_get(ctx->kb, g->nv.sm, cc) == 0 && cc->last_cuda)
		return cc->last_cuda;
	return g->nv.last_cuda[0] ? g->nv.last_cuda : NULL;
}

int gd_win_nvidia_arch_support(gd_ctx *ctx, const struct gd_gpu *g,
			       struct gd_win_verdict *v)
{
	struct gd_kb_cc cc;
	const char *last = last_cuda(ctx, g, &cc);
	char text[400];
	int pre_cuda = !g->nv.sm[0] && g->idrow && !g->idrow->target[0] &&
		       strstr(g->idrow->arch, "Curie");

	if (!pre_cuda &&
	    (!last || !g->nv.last_driver[0] || strtoul(last, NULL, 10) >= 12))
		return 0;
	memset(v, 0, sizeof *v);
	v->sdk = -1;
	v->unsupported = 1;
	if (pre_cuda) {
		gd_win_fact(v, GD_WIN_BAD, GD_C_WIN_NVIDIA_ARCH_UNSUPPORTED,
			    "%s (chip %s) is older than CUDA (the GeForce 8 "
			    "series was the first CUDA GPU): no CUDA driver "
			    "or framework build runs on it",
			    g->idrow->arch, g->idrow->chip);
		gd_fmt(v->summary, sizeof v->summary,
		       "%s GPU, older than CUDA: use a newer GPU for compute, "
		       "or the CPU",
		       g->idrow->arch);
		return 1;
	}
	gd_v_nv_legacy_text(g, last, text, sizeof text);
	gd_win_fact(v, GD_WIN_BAD, GD_C_WIN_NVIDIA_ARCH_UNSUPPORTED, "%s",
		    text);
	gd_win_step(v, GD_C_CPU_RUN_ON_CPU,
		    "for GPU compute with current software use a newer GPU; "
		    "the CPU builds of the frameworks run here as they are "
		    "(NVIDIA's %s driver series stays the last for its "
		    "display)",
		    g->nv.last_driver);
	gd_fmt(v->summary, sizeof v->summary,
	       "%s (%s) on Windows: current CUDA and NVIDIA drivers no longer "
	       "support it (last CUDA %s, last driver series %s)",
	       g->nv.arch[0] ? g->nv.arch : "this GPU", g->nv.sm, last,
	       g->nv.last_driver);
	return 1;
}
