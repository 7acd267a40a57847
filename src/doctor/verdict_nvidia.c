/* Verdict rules for NVIDIA GPUs: the kernel driver, the compute capability
 * (kb), and whether the driver is new enough for the CUDA libraries found. */
#include <stdio.h>
#include <string.h>

#include "kb/kb.h"
#include "verdict_util.h"

static void nv_facts(gd_ctx *ctx, const struct gd_inventory *inv,
		     const struct gd_gpu *g, struct gd_verdict *v)
{
	const json_t *cc = g->sm[0] ? gd_kb_nvidia_cc(ctx->kb, g->sm) : NULL;

	gd_v_fact(v, "PCI %s [%04x:%04x], driver %s", g->pci.bdf,
		  g->pci.vendor_id, g->pci.device_id,
		  gd_known(&g->pci.driver) ? g->pci.driver.v : "none bound");
	if (gd_known(&g->nv_uuid))
		gd_v_fact(v, "UUID %s", g->nv_uuid.v);
	if (cc)
		gd_v_fact(v, "compute capability %s (%s, %s)",
			  gd_kb_str(cc, "cc") ? gd_kb_str(cc, "cc") : "?",
			  g->sm, gd_kb_str(cc, "arch") ? gd_kb_str(cc, "arch") : "?");
	if (cc && gd_kb_str(cc, "last_cuda"))
		gd_v_fact(v, "CUDA %s is the last release that supports %s",
			  gd_kb_str(cc, "last_cuda"), g->sm);
	if (cc)
		gd_v_sources(v, json_object_get(cc, "sources"));
	if (inv && gd_known(&inv->cuda_driver))
		gd_v_fact(v, "NVIDIA driver %s%s%s%s", inv->cuda_driver.v,
			  gd_known(&inv->cuda_driver_api) ? " (CUDA " : "",
			  gd_known(&inv->cuda_driver_api) ? inv->cuda_driver_api.v : "",
			  gd_known(&inv->cuda_driver_api) ? ")" : "");
	for (size_t i = 0; inv && i < inv->n_cuda; i++)
		gd_v_fact(v, "CUDA toolkit %s at %s",
			  gd_known(&inv->cuda[i].version) ? inv->cuda[i].version.v : "?",
			  inv->cuda[i].path);
}

void gd_v_judge_nvidia(gd_ctx *ctx, const struct gd_inventory *inv,
		       const struct gd_gpu *g, struct gd_verdict *v)
{
	char title[300];
	int driver = gd_known(&g->pci.driver) &&
		     !strcmp(g->pci.driver.v, "nvidia");
	int too_old = 0;

	gd_v_gpu_title(g, NULL, title, sizeof title);
	nv_facts(ctx, inv, g, v);
	if (!driver) {
		v->status = GD_V_SETUP;
		gd_fmt(v->headline, sizeof v->headline,
		       "%s: the NVIDIA kernel driver is not bound to this GPU%s",
		       title, gd_known(&g->pci.driver) && !strcmp(g->pci.driver.v, "nouveau")
				      ? " (nouveau is: it has no CUDA)" : "");
		gd_v_step(v, "Install NVIDIA's driver (Debian: nvidia-driver from "
			     "non-free; Ubuntu: sudo ubuntu-drivers install) and reboot");
		gd_v_workloads_for_stack(ctx, v, "cuda");
		return;
	}
	for (size_t i = 0; inv && i < inv->n_cuda_checks; i++) {
		const struct gd_cuda_check *c = &inv->cuda_checks[i];

		if (c->driver_ok == 0) {
			too_old = 1;
			gd_v_fact(v, "%s %s needs driver >= %s", c->lib,
				  c->version, c->min_driver);
			gd_v_step(v, "Upgrade the NVIDIA driver to %s or newer, or "
				     "use builds for an older CUDA (%s)",
				  c->min_driver, c->why);
		}
	}
	if (g->hidden)
		gd_v_fact(v, "%s", g->visible_note);
	v->status = too_old ? GD_V_SETUP : g->hidden ? GD_V_SETUP : GD_V_WORKS;
	gd_fmt(v->headline, sizeof v->headline, "%s: %s", title,
	       too_old ? "the driver is too old for the CUDA libraries installed"
	       : g->hidden ? "hidden by CUDA_VISIBLE_DEVICES"
			   : "CUDA should work with the installed driver");
	gd_v_workloads_for_stack(ctx, v, "cuda");
}
