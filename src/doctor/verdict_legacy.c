/* GPUs older than any compute stack gpudoctor judges: AMD before GCN
 * (radeon's R100-R500 and TeraScale families: no KFD, no ROCm, no RADV),
 * known from the embedded id tables alone (docs/ids.md). */
#include <string.h>

#include "verdict_util.h"

/* A GPU older than GCN (the embedded ids give its architecture and no gfx
 * target: radeon's TeraScale and R100-R500 families, docs/ids.md): KFD,
 * ROCm and RADV all start at GCN, so the CPU is the way. 1 when judged. */
int gd_v_amd_pre_gcn(gd_ctx *ctx, const struct gd_gpu *g, const char *title,
		     struct gd_verdict *v)
{
	const char *arch;

	if (!g->idrow || g->idrow->target[0] || g->gfx[0])
		return 0;
	arch = g->idrow->arch;
	v->status = GD_V_UNSUPPORTED;
	gd_v_headline(v, title,
		      "%s GPU, older than GCN: no ROCm/HIP and no Vulkan "
		      "driver support it",
		      arch);
	gd_v_fact(
	    v, GD_C_AMD_PRE_GCN,
	    "%s (%s, from %s): ROCm's KFD and Mesa's Vulkan driver "
	    "(RADV) start at GCN 1 (Radeon HD 7700 and later, 2012); this "
	    "GPU is driven by radeon only",
	    arch, g->idrow->chip, g->idrow->src);
	gd_v_workloads_for_stack(ctx, v, "cpu", "cpu");
	gd_v_step(v, GD_C_CPU_RUN_ON_CPU,
		  "For GPU compute use a newer GPU (GCN or later); the CPU "
		  "builds of the frameworks run here as they are");
	return 1;
}
