/* The per-GPU verdict. The rules here are generic (is the target supported,
 * is the stack there, can the user reach the device); everything specific to
 * a GPU (support per release, overrides, known issues, per-workload advice)
 * comes from the knowledge base. */
#include "verdict.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "discover/vendor.h"
#include "verdict_util.h"

const char *gd_verdict_status_name(enum gd_verdict_status s)
{
	static const char *names[] = {"works",	    "needs-setup",
				      "workaround", "unsupported",
				      "unknown",    "cpu-only"};

	return (unsigned)s < sizeof names / sizeof *names ? names[s]
							  : "unknown";
}

/* A vendor without compute rules (the vendor table's "listed only"):
 * its PCI facts, and Vulkan as the portable path. */
static void judge_other(gd_ctx *ctx, const struct gd_machine *m,
			const struct gd_inventory *inv, const struct gd_gpu *g,
			struct gd_verdict *v)
{
	const struct gd_vendor_ops *ops = gd_vendor_ops(g->vendor);
	char title[300];

	(void)inv;
	if (gd_v_judge_wsl(ctx, m, g, v))
		return;
	gd_v_gpu_title(g, NULL, title, sizeof title);
	v->status = GD_V_UNKNOWN;
	gd_v_headline(v, title,
		      "gpudoctor has no compute-stack rules for this %s GPU "
		      "yet",
		      ops->name);
	gd_v_fact(v, GD_C_GPU_PCI, "PCI %s [%04x:%04x], driver %s", g->pci.bdf,
		  g->pci.vendor_id, g->pci.device_id,
		  gd_known(&g->pci.driver) ? g->pci.driver.v : "none");
	if (ops->id != GD_VENDOR_OTHER)
		gd_v_fact(v, GD_C_OTHER_LISTED_ONLY,
			  "%s GPUs are listed only: "
			  "gpudoctor reports their PCI facts but judges no "
			  "compute stack for them",
			  ops->title);
	gd_v_step(v, GD_C_OTHER_USE_VULKAN,
		  "For llama.cpp, the Vulkan backend (-DGGML_VULKAN=ON) is "
		  "the portable choice where a Vulkan driver exists for "
		  "this GPU");
}

static void judge_nvidia(gd_ctx *ctx, const struct gd_machine *m,
			 const struct gd_inventory *inv, const struct gd_gpu *g,
			 struct gd_verdict *v)
{
	(void)m;
	gd_v_judge_nvidia(ctx, inv, g, v);
}

typedef void (*judge_fn)(gd_ctx *ctx, const struct gd_machine *m,
			 const struct gd_inventory *inv, const struct gd_gpu *g,
			 struct gd_verdict *v);

/* doctor's column of the vendor table (discover/vendor.h): the rules per
 * vendor; a vendor not listed here is judged by judge_other. */
static const struct {
	enum gd_vendor vendor;
	judge_fn judge;
} judges[] = {
    {GD_VENDOR_AMD, gd_v_judge_amd},
    {GD_VENDOR_NVIDIA, judge_nvidia},
    {GD_VENDOR_INTEL, gd_v_judge_intel},
};

static judge_fn judge_for(enum gd_vendor v)
{
	for (size_t i = 0; i < sizeof judges / sizeof *judges; i++)
		if (judges[i].vendor == v && gd_vendor_ops(v)->rules)
			return judges[i].judge;
	return judge_other;
}

static void judge_cpu(gd_ctx *ctx, struct gd_verdict *v,
		      const struct gd_inventory *inv)
{
	v->gpu_index = -1;
	v->status = GD_V_CPU;
	gd_v_headline(v, "No GPU found", "ML work will run on the CPU");
	for (size_t i = 0; inv && i < inv->n_vulkan; i++)
		if (inv->vulkan[i].software)
			gd_v_fact(v, GD_C_CPU_VULKAN_SOFTWARE,
				  "Vulkan driver %s is a software "
				  "implementation (runs on the CPU)",
				  inv->vulkan[i].driver[0]
				      ? inv->vulkan[i].driver
				      : inv->vulkan[i].manifest);
	for (size_t i = 0; inv && i < inv->n_opencl; i++)
		if (inv->opencl[i].software)
			gd_v_fact(v, GD_C_CPU_OPENCL_SOFTWARE,
				  "OpenCL driver %s is a software "
				  "implementation (runs on the CPU)",
				  inv->opencl[i].driver[0]
				      ? inv->opencl[i].driver
				      : inv->opencl[i].manifest);
	gd_v_workloads_for_stack(ctx, v, "cpu", "cpu");
	gd_v_step(v, GD_C_CPU_RUN_ON_CPU,
		  "Run faster-whisper with device=\"cpu\" and "
		  "compute_type=\"int8\"; llama.cpp's CPU build needs no GPU "
		  "stack");
}

/* An SR-IOV physical function on the host: its virtual functions (physfn
 * links) were folded under it by discover/, not listed as GPUs. */
static void sriov_pf(const struct gd_gpu *g, struct gd_verdict *v)
{
	const struct gd_pci *p = &g->pci;
	char en[64] = "virtual functions", use[160];

	if (!p->n_vfs && !(gd_known(&p->sriov_numvfs) && p->sriov_numvfs.v))
		return;
	if (gd_known(&p->sriov_numvfs))
		gd_fmt(en, sizeof en,
		       "%llu virtual functions enabled (sriov_numvfs)",
		       (unsigned long long)p->sriov_numvfs.v);
	if (!p->n_vfs) {
		gd_v_fact(v, GD_C_GPU_SRIOV_PF,
			  "SR-IOV physical function, %s: made for virtual "
			  "machines",
			  en);
		return;
	}
	if (p->n_vfs_host)
		gd_fmt(use, sizeof use,
		       "%d bound to %s on this host, which drives them here; "
		       "%d to vfio-pci for virtual machines",
		       p->n_vfs_host, p->vf_host_driver, p->n_vfs_vfio);
	else
		gd_fmt(use, sizeof use,
		       "made for virtual machines (%d bound to vfio-pci)",
		       p->n_vfs_vfio);
	gd_v_fact(v, GD_C_GPU_SRIOV_PF,
		  "SR-IOV physical function, %s; the %d in this tree (%s to "
		  "%s) are listed under it, not as GPUs of their own: %s",
		  en, p->n_vfs, p->vf_first, p->vf_last, use);
}

static int judge_one(gd_ctx *ctx, const struct gd_machine *m,
		     const struct gd_inventory *inv, size_t idx,
		     struct gd_verdict *v)
{
	const struct gd_gpu *g = &m->gpus[idx];

	v->gpu_index = (int)idx;
	judge_for(g->vendor)(ctx, m, inv, g, v);
	sriov_pf(g, v);
	return 0;
}

static void fold_line(gd_ctx *ctx, struct gd_verdict *v,
		      const struct gd_evidence_line *l)
{
	(void)ctx;
	if (l->level == GD_EV_STEP) {
		gd_v_step(v, l->code, "%s", l->text);
		if (v->status == GD_V_WORKS)
			v->status = GD_V_SETUP;
		return;
	}
	gd_v_fact(v, l->code, "%s", l->text);
	if (l->level == GD_EV_WORKS &&
	    (v->status == GD_V_SETUP || v->status == GD_V_WORKAROUND ||
	     v->status == GD_V_UNSUPPORTED || v->status == GD_V_UNKNOWN)) {
		v->status = GD_V_WORKS;
		gd_v_step(v, GD_C_PROBE_INSTALL_FRAMEWORK,
			  "The probe above ran on this GPU as the machine is: "
			  "what remains is installing the framework build "
			  "for this stack (workloads above)");
	} else if (l->level == GD_EV_BROKEN && v->status == GD_V_WORKS) {
		v->status = GD_V_WORKAROUND;
		gd_v_step(v, GD_C_PROBE_FAILED_TRY_WORKAROUNDS,
			  "The probe failed although the stack looks complete: "
			  "run 'gpudoctor probe' for the details and "
			  "'gpudoctor try' to test the known workarounds");
	}
}

static void fold_evidence(gd_ctx *ctx, const struct gd_machine *m,
			  struct gd_diagnosis *d, const struct gd_evidence *ev)
{
	if (!ev)
		return;
	for (size_t k = 0; k < ev->n; k++) {
		const struct gd_evidence_line *l = &ev->lines[k];

		for (size_t i = 0; i < d->n; i++) {
			int gi = d->v[i].gpu_index;

			if (l->vendor != GD_VENDOR_OTHER &&
			    (gi < 0 || m->gpus[gi].vendor != l->vendor))
				continue;
			fold_line(ctx, &d->v[i], l);
		}
	}
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
		for (size_t i = 0; i < m->n_not_gpus; i++)
			gd_v_fact(&out->v[0], GD_C_GPU_NOT_A_GPU,
				  "%s [%04x:%04x] at %s is %s, not a GPU",
				  m->not_gpus[i].name, m->not_gpus[i].vendor_id,
				  m->not_gpus[i].device_id, m->not_gpus[i].bdf,
				  gd_not_gpu_what(m->not_gpus[i].kind));
		gd_v_deps(ctx, m, inv, out);
		fold_evidence(ctx, m, out, ev);
		gd_v_resolve_sources(ctx, &out->v[0]);
		return 0;
	}
	out->n = m->n_gpus;
	for (size_t i = 0; i < m->n_gpus; i++)
		judge_one(ctx, m, inv, i, &out->v[i]);
	gd_v_deps(ctx, m, inv, out);
	fold_evidence(ctx, m, out, ev);
	for (size_t i = 0; i < out->n; i++)
		if (out->v[i].status == GD_V_WORKS)
			out->any_works = 1;
	gd_v_kernel(ctx, m, out);
	gd_v_strategies(ctx, m, out);
	for (size_t i = 0; i < out->n; i++)
		gd_v_resolve_sources(ctx, &out->v[i]);
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
