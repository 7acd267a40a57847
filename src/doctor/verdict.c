/* The per-GPU verdict. The rules here are generic (is the target supported,
 * is the stack there, can the user reach the device); everything specific to
 * a GPU (support per release, overrides, known issues, per-workload advice)
 * comes from the knowledge base. */
#include "verdict.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "verdict_util.h"

const char *gd_verdict_status_name(enum gd_verdict_status s)
{
	static const char *names[] = {"works", "needs-setup", "workaround",
				      "unsupported", "unknown", "cpu-only"};

	return (unsigned)s < sizeof names / sizeof *names ? names[s] : "unknown";
}

static void judge_other(struct gd_verdict *v, const struct gd_gpu *g)
{
	char title[300];

	gd_v_gpu_title(g, NULL, title, sizeof title);
	v->status = GD_V_UNKNOWN;
	gd_fmt(v->headline, sizeof v->headline,
	       "%s: gpudoctor has no compute-stack rules for this %s GPU yet",
	       title, gd_vendor_name(g->vendor));
	gd_v_fact(v, "PCI %s [%04x:%04x], driver %s", g->pci.bdf,
		  g->pci.vendor_id, g->pci.device_id,
		  gd_known(&g->pci.driver) ? g->pci.driver.v : "none");
	gd_v_step(v, "For llama.cpp, the Vulkan backend (-DGGML_VULKAN=ON) is "
		     "the portable choice where a Vulkan driver exists for "
		     "this GPU");
}

static void judge_cpu(gd_ctx *ctx, struct gd_verdict *v,
		      const struct gd_inventory *inv)
{
	const json_t *cpu = NULL;

	v->gpu_index = -1;
	v->status = GD_V_CPU;
	gd_fmt(v->headline, sizeof v->headline,
	       "No GPU found: ML work will run on the CPU");
	for (size_t i = 0; inv && i < inv->n_vulkan; i++)
		if (inv->vulkan[i].software)
			gd_v_fact(v, "Vulkan driver %s is a software "
				     "implementation (runs on the CPU)",
				  inv->vulkan[i].driver[0] ? inv->vulkan[i].driver : inv->vulkan[i].manifest);
	for (size_t i = 0; inv && i < inv->n_opencl; i++)
		if (inv->opencl[i].software)
			gd_v_fact(v, "OpenCL driver %s is a software "
				     "implementation (runs on the CPU)",
				  inv->opencl[i].driver[0] ? inv->opencl[i].driver : inv->opencl[i].manifest);
	gd_v_workloads_for_stack(ctx, v, "cpu");
	(void)cpu;
	gd_v_step(v, "Run faster-whisper with device=\"cpu\" and "
		     "compute_type=\"int8\"; llama.cpp's CPU build needs no GPU "
		     "stack");
}

static int judge_one(gd_ctx *ctx, const struct gd_machine *m,
		     const struct gd_inventory *inv, size_t idx,
		     struct gd_verdict *v)
{
	const struct gd_gpu *g = &m->gpus[idx];

	v->gpu_index = (int)idx;
	switch (g->vendor) {
	case GD_VENDOR_AMD:
		gd_v_judge_amd(ctx, m, inv, g, v);
		break;
	case GD_VENDOR_NVIDIA:
		gd_v_judge_nvidia(ctx, inv, g, v);
		break;
	default:
		judge_other(v, g);
	}
	return 0;
}

static void fold_evidence(struct gd_diagnosis *d, const struct gd_evidence *ev)
{
	if (!ev || !d->n)
		return;
	for (size_t k = 0; ev->probe_lines && ev->probe_lines[k]; k++)
		for (size_t i = 0; i < d->n; i++)
			gd_v_fact(&d->v[i], "probe: %s", ev->probe_lines[k]);
	for (size_t k = 0; ev->framework_lines && ev->framework_lines[k]; k++)
		for (size_t i = 0; i < d->n; i++)
			gd_v_fact(&d->v[i], "%s", ev->framework_lines[k]);
}

int gd_doctor_judge(gd_ctx *ctx, const struct gd_machine *m,
		    const struct gd_inventory *inv,
		    const struct gd_evidence *ev, struct gd_diagnosis *out)
{
	memset(out, 0, sizeof *out);
	out->any_gpu = m->n_gpus > 0;
	out->v = calloc(m->n_gpus ? m->n_gpus : 1, sizeof *out->v);
	if (!out->v)
		return -1;
	if (!m->n_gpus) {
		out->n = 1;
		judge_cpu(ctx, &out->v[0], inv);
		fold_evidence(out, ev);
		return 0;
	}
	out->n = m->n_gpus;
	for (size_t i = 0; i < m->n_gpus; i++) {
		judge_one(ctx, m, inv, i, &out->v[i]);
		if (out->v[i].status == GD_V_WORKS)
			out->any_works = 1;
	}
	gd_v_strategies(ctx, m, out);
	fold_evidence(out, ev);
	return 0;
}

void gd_diagnosis_free(struct gd_diagnosis *d)
{
	for (size_t i = 0; i < d->n; i++) {
		gd_vec_free(&d->v[i].facts);
		gd_vec_free(&d->v[i].steps);
		gd_vec_free(&d->v[i].workloads);
		gd_vec_free(&d->v[i].sources);
	}
	free(d->v);
	memset(d, 0, sizeof *d);
}
