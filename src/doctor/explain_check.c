/* explain: the fact on this machine behind each signature's "check". A log
 * may come from another machine or another environment, so each check
 * says what it saw here, and "not checkable here" when nothing here bears
 * on the signature. The override checks are in explain_check_override.c. */
#include "explain.h"

#include <stdio.h>
#include <string.h>

#include "discover/vendor.h"
#include "doctor/probe_cause.h"
#include "explain_check.h"
#include "kb/kb.h"

const char *gd_check_verdict_name(enum gd_check_verdict v)
{
	return v == GD_CHECK_CONFIRMED	    ? "confirmed"
	       : v == GD_CHECK_CONTRADICTED ? "contradicted"
					    : "not-checkable";
}

const char *gd_check_verdict_prefix(enum gd_check_verdict v)
{
	return v == GD_CHECK_CONFIRMED	    ? "confirmed by: "
	       : v == GD_CHECK_CONTRADICTED ? "contradicted by: "
					    : "not checkable here: ";
}

/* The target ROCm treats the GPU as: the override's, when one applies. */
static const char *eff_gfx(const struct gd_gpu *g)
{
	return g->ovr.var[0] && g->ovr.valid && g->ovr.gfx[0] ? g->ovr.gfx
							      : g->gfx;
}

static verdict check_rocblas(gd_ctx *ctx, const struct gd_machine *m,
			     const struct gd_inventory *inv, char *t, size_t c)
{
	verdict v = GD_CHECK_NA;

	(void)ctx;
	if (!count_amd(m))
		return na(t, c, "no AMD GPU found on this machine");
	if (!inv || !inv->n_rocblas)
		return na(t, c,
			  "no system rocBLAS found; the program may "
			  "bring its own (run 'gpudoctor scan' on its "
			  "rocblas/library directory)");
	for (size_t i = 0; i < m->n_gpus; i++) {
		const struct gd_gpu *g = &m->gpus[i];
		const char *gfx = eff_gfx(g);
		int cov;

		if (g->vendor != GD_VENDOR_AMD || !gfx[0])
			continue;
		cov = gd_rocblas_coverage(inv, gfx);
		if (cov < 0 || cov == GD_ROCBLAS_FALLBACK_ONLY) {
			gd_fmt(t, c,
			       "%s (%s): %s of the %zu rocBLAS "
			       "director%s here (first: %s)",
			       gpu_label(g), gfx,
			       cov < 0 ? "no Tensile kernels in any"
				       : "only fallback kernels, no "
					 "Tensile library, in",
			       inv->n_rocblas,
			       inv->n_rocblas == 1 ? "y" : "ies",
			       inv->rocblas[0].path);
			return GD_CHECK_CONFIRMED;
		}
		gd_fmt(t, c,
		       "the rocBLAS here has Tensile kernels for %s "
		       "(%s); the failing program uses another rocBLAS",
		       gfx, gpu_label(g));
		v = GD_CHECK_CONTRADICTED;
	}
	if (v == GD_CHECK_NA)
		return na(t, c, "the AMD GPU's gfx target is unknown here");
	return v;
}

static const char *kb_status(gd_ctx *ctx, const char *gfx)
{
	struct gd_kb_target t;

	if (!ctx->kb || gd_kb_target_get(ctx->kb, gfx, &t) < 0)
		return NULL;
	return t.rocm_linux.status;
}

static verdict check_gfx(gd_ctx *ctx, const struct gd_machine *m,
			 const struct gd_inventory *inv, char *t, size_t c)
{
	verdict v = GD_CHECK_NA;

	(void)inv;
	na(t, c, "no AMD GPU with a known gfx target here");
	for (size_t i = 0; i < m->n_gpus; i++) {
		const struct gd_gpu *g = &m->gpus[i];
		const char *st;

		if (g->vendor != GD_VENDOR_AMD || !g->gfx[0])
			continue;
		st = kb_status(ctx, g->gfx);
		if (!st) {
			gd_fmt(t, c, "%s (%s) is not in the knowledge base",
			       gpu_label(g), g->gfx);
			continue;
		}
		/* preview and deprecated targets are supported: a release
		 * older than the first that has the target is what fails */
		if (strcmp(st, "supported") && strcmp(st, "preview") &&
		    strcmp(st, "deprecated")) {
			gd_fmt(t, c, "%s is %s (ROCm on Linux: %s)%s%s",
			       gpu_label(g), g->gfx, st,
			       g->ovr.var[0] ? "; an override makes ROCm see "
					       "it as "
					     : "",
			       g->ovr.var[0] ? eff_gfx(g) : "");
			return GD_CHECK_CONFIRMED;
		}
		gd_fmt(t, c,
		       "%s is %s, supported by ROCm on Linux (%s): "
		       "an older ROCm than the first that supports it "
		       "would give this",
		       gpu_label(g), g->gfx, st);
		v = GD_CHECK_CONTRADICTED;
	}
	return v;
}

static verdict check_kfd(gd_ctx *ctx, const struct gd_machine *m,
			 const struct gd_inventory *inv, char *t, size_t c)
{
	verdict v = GD_CHECK_NA;

	(void)ctx, (void)inv;
	na(t, c, "no AMD GPU found on this machine");
	for (size_t i = 0; i < m->n_gpus; i++) {
		const struct gd_access *a = &m->gpus[i].access;

		if (m->gpus[i].vendor != GD_VENDOR_AMD)
			continue;
		if (!a->kfd_ok && a->kfd.st == GD_UNKNOWN && v == GD_CHECK_NA)
			/* A captured machine has no /dev to open. */
			gd_fmt(t, c,
			       "an AMD GPU is present; access to "
			       "/dev/kfd is unknown here (%s)",
			       a->kfd.why[0] ? a->kfd.why : "not looked at");
		if (!a->kfd_ok && a->kfd.st != GD_UNKNOWN) {
			gd_fmt(t, c, "/dev/kfd: %s%s%s",
			       gd_known(&a->kfd) ? a->kfd.v : a->kfd.why,
			       a->fix[0] ? "; fix: " : "", a->fix);
			return GD_CHECK_CONFIRMED;
		}
		if (a->kfd_ok) {
			gd_fmt(t, c, "/dev/kfd opens for this user here");
			v = GD_CHECK_CONTRADICTED;
		}
	}
	return v;
}

static verdict check_cuda(gd_ctx *ctx, const struct gd_machine *m,
			  const struct gd_inventory *inv, char *t, size_t c)
{
	size_t nv = 0;

	(void)ctx;
	for (size_t i = 0; i < m->n_gpus; i++)
		nv += m->gpus[i].vendor == GD_VENDOR_NVIDIA;
	for (size_t i = 0; inv && i < inv->n_cuda_checks; i++) {
		if (inv->cuda_checks[i].driver_ok == 0) {
			gd_fmt(t, c, "%s", inv->cuda_checks[i].why);
			return GD_CHECK_CONFIRMED;
		}
	}
	if (!nv)
		return na(t, c, "no NVIDIA GPU found on this machine");
	if (!inv || !gd_known(&inv->cuda_driver)) {
		gd_fmt(t, c, "no NVIDIA driver version readable here (%s)",
		       inv ? inv->cuda_driver.why : "not looked up");
		return GD_CHECK_CONFIRMED;
	}
	gd_fmt(t, c, "driver %s supports CUDA up to %s", inv->cuda_driver.v,
	       gd_known(&inv->cuda_driver_api) ? inv->cuda_driver_api.v
					       : "(unknown)");
	return GD_CHECK_CONTRADICTED;
}

static verdict check_hip(gd_ctx *ctx, const struct gd_machine *m,
			 const struct gd_inventory *inv, char *t, size_t c)
{
	unsigned first = 0;
	size_t fi = 0;

	(void)ctx, (void)m;
	for (size_t i = 0; inv && i < inv->n_rocm; i++) {
		unsigned mj = inv->rocm[i].hip_major;

		if (!mj)
			continue;
		if (!first) {
			first = mj;
			fi = i;
		} else if (mj != first) {
			gd_fmt(t, c,
			       "two HIP runtime majors here: "
			       "libamdhip64.so.%u in %s and .so.%u in %s",
			       first, inv->rocm[fi].path, mj,
			       inv->rocm[i].path);
			return GD_CHECK_CONFIRMED;
		}
	}
	if (!first)
		return na(t, c, "no HIP runtime found here");
	gd_fmt(t, c,
	       "one HIP runtime here (libamdhip64.so.%u in %s); the "
	       "program may bring another: run 'gpudoctor scan' on it",
	       first, inv->rocm[fi].path);
	return GD_CHECK_NA;
}

/* KFD creates a topology node for every GPU it supports; one it skips
 * ("<CHIP> not supported in kfd") has none. */
static verdict check_kfd_node(gd_ctx *ctx, const struct gd_machine *m,
			      const struct gd_inventory *inv, char *t, size_t c)
{
	const struct gd_gpu *with = NULL;
	size_t n = 0;

	(void)ctx, (void)inv;
	if (!count_amd(m))
		return na(t, c, "no AMD GPU found on this machine");
	if (!m->kfd_nodes_total && m->kfd_why[0]) {
		gd_fmt(t, c, "no KFD topology here (%s)", m->kfd_why);
		return GD_CHECK_NA;
	}
	for (size_t i = 0; i < m->n_gpus; i++) {
		const struct gd_gpu *g = &m->gpus[i];

		if (g->vendor != GD_VENDOR_AMD)
			continue;
		if (!g->n_kfd_nodes) {
			gd_fmt(t, c,
			       "%s%s%s%s has no KFD node: the kernel's "
			       "KFD does not drive it",
			       gpu_label(g), g->gfx[0] ? " (" : "", g->gfx,
			       g->gfx[0] ? ")" : "");
			return GD_CHECK_CONFIRMED;
		}
		with = with ? with : g;
		n++;
	}
	gd_fmt(t, c, "KFD supports %s: %s%s%s%s has a KFD node%s",
	       n == 1 ? "the AMD GPU here" : "every AMD GPU here",
	       gpu_label(with), with->gfx[0] ? " (" : "", with->gfx,
	       with->gfx[0] ? ")" : "", n == 1 ? "" : ", as do the others");
	return GD_CHECK_CONTRADICTED;
}

/* Page faults and MES hangs happen on APUs and discrete GPUs alike; a
 * running machine shows nothing of one that is over. */
static verdict check_gpu_fault(gd_ctx *ctx, const struct gd_machine *m,
			       const struct gd_inventory *inv, char *t,
			       size_t c)
{
	(void)ctx, (void)inv;
	for (size_t i = 0; i < m->n_gpus; i++) {
		const struct gd_gpu *g = &m->gpus[i];

		if (g->vendor != GD_VENDOR_AMD)
			continue;
		gd_fmt(t, c,
		       "a fault or hang inside the GPU leaves nothing "
		       "to check afterwards; the AMD GPU here: %s (%s, %s); "
		       "'gpudoctor kb %s' lists its known issues",
		       gpu_label(g), g->gfx[0] ? g->gfx : "gfx unknown",
		       g->integrated ? "APU" : "discrete",
		       g->gfx[0] ? g->gfx : "GFX");
		return GD_CHECK_NA;
	}
	return na(t, c, "no AMD GPU found on this machine");
}

static verdict check_apu(gd_ctx *ctx, const struct gd_machine *m,
			 const struct gd_inventory *inv, char *t, size_t c)
{
	const struct gd_gpu *apu = NULL, *dgpu = NULL;

	(void)ctx, (void)inv;
	for (size_t i = 0; i < m->n_gpus; i++) {
		const struct gd_gpu *g = &m->gpus[i];

		if (g->vendor != GD_VENDOR_AMD)
			continue;
		if (g->integrated && !apu)
			apu = g;
		if (!g->integrated && !dgpu)
			dgpu = g;
	}
	if (apu && dgpu) {
		gd_fmt(t, c, "APU %s (%s) beside discrete %s (%s)",
		       gpu_label(apu), apu->gfx, gpu_label(dgpu), dgpu->gfx);
		return GD_CHECK_CONFIRMED;
	}
	if (apu) {
		gd_fmt(t, c, "the AMD GPU here is an APU: %s (%s)",
		       gpu_label(apu), apu->gfx);
		return GD_CHECK_CONFIRMED;
	}
	if (dgpu) {
		gd_fmt(t, c, "no APU here; the AMD GPU is discrete: %s",
		       gpu_label(dgpu));
		return GD_CHECK_CONTRADICTED;
	}
	return na(t, c, "no AMD GPU found on this machine");
}

static verdict check_code(gd_ctx *ctx, const struct gd_machine *m,
			  const struct gd_inventory *inv, char *t, size_t c)
{
	size_t used;

	(void)ctx, (void)inv;
	gd_strlcpy(t,
		   "'gpudoctor scan PROGRAM-OR-LIBRARY' shows which GPU "
		   "targets its kernels carry; the GPUs here are",
		   c);
	used = strlen(t);
	for (size_t i = 0; i < m->n_gpus && used + 1 < c; i++) {
		const struct gd_gpu *g = &m->gpus[i];
		const char *tg = gd_gpu_code_target(g);

		if (!tg[0])
			continue;
		gd_fmt(t + used, c - used, " %s", tg);
		used += strlen(t + used);
	}
	if (!m->n_gpus)
		gd_strlcpy(t + used, " (none found)", c - used);
	return GD_CHECK_NA;
}

/* Out of memory: how much this machine's GPUs have, and on an APU the
 * GTT share of system RAM that the driver adds to the carve-out. */
static verdict check_memory(gd_ctx *ctx, const struct gd_machine *m,
			    const struct gd_inventory *inv, char *t, size_t c)
{
	size_t used = 0;

	(void)ctx, (void)inv;
	t[0] = '\0';
	for (size_t i = 0; i < m->n_gpus && used + 1 < c; i++) {
		const struct gd_gpu *g = &m->gpus[i];

		if (!gd_known(&g->vram_total))
			continue;
		gd_fmt(t + used, c - used, "%s%s: %.1f GiB %s",
		       used ? "; " : "", gpu_label(g),
		       (double)g->vram_total.v / (1u << 30),
		       g->integrated ? "carve-out" : "VRAM");
		used += strlen(t + used);
		if (g->integrated && gd_known(&g->gtt_total) && used + 1 < c) {
			gd_fmt(t + used, c - used,
			       " + %.1f GiB GTT (APU: "
			       "raise the carve-out or the GTT limit)",
			       (double)g->gtt_total.v / (1u << 30));
			used += strlen(t + used);
		}
	}
	if (!used)
		return na(t, c, "no GPU memory size readable here");
	return GD_CHECK_NA;
}

/* No device: the *_VISIBLE_DEVICES variables here and the NVIDIA GPUs. */
static verdict check_visible(gd_ctx *ctx, const struct gd_machine *m,
			     const struct gd_inventory *inv, char *t, size_t c)
{
	size_t nv = 0;

	(void)ctx, (void)inv;
	for (size_t i = 0; i < m->n_gpus; i++)
		nv += m->gpus[i].vendor == GD_VENDOR_NVIDIA;
	if (m->env.has_cuda_visible &&
	    (!m->env.cuda_visible[0] || m->env.cuda_visible[0] == '-')) {
		gd_fmt(t, c, "CUDA_VISIBLE_DEVICES='%s' here hides every GPU",
		       m->env.cuda_visible);
		return GD_CHECK_CONFIRMED;
	}
	if (!nv)
		return na(t, c, "no NVIDIA GPU found on this machine");
	gd_fmt(t, c, "%zu NVIDIA GPU%s here (indexes 0-%zu); %s", nv,
	       nv == 1 ? "" : "s", nv - 1,
	       m->visible_summary[0] ? m->visible_summary
				     : "CUDA_VISIBLE_DEVICES is not set in "
				       "this environment; the program may "
				       "set its own");
	return GD_CHECK_NA;
}

/* ROCm finds no device: the cause rules a failed HIP probe uses
 * (probe_cause.c: no AMD GPU, no driver bound, no KFD, a container,
 * permissions), on this machine's facts; when none applies, whether the
 * GPU's target is supported. */
static verdict check_rocm_cause(gd_ctx *ctx, const struct gd_machine *m,
				const struct gd_inventory *inv, char *t,
				size_t c)
{
	struct gd_cause cs;

	if (!gd_cause_of_machine(ctx, "hip", m, inv, &cs))
		return check_gfx(ctx, m, inv, t, c);
	gd_fmt(t, c, "%s [%s]%s%s", cs.text, gd_code_name(cs.code),
	       cs.fix[0] ? "; fix: " : "", cs.fix);
	/* a log from another machine says nothing about there being no
	 * AMD GPU here */
	return cs.code == GD_C_CAUSE_NO_GPU ? GD_CHECK_NA : GD_CHECK_CONFIRMED;
}

static verdict check_none(gd_ctx *ctx, const struct gd_machine *m,
			  const struct gd_inventory *inv, char *t, size_t c)
{
	(void)ctx, (void)m, (void)inv;
	return na(t, c, "nothing on this machine bears on it");
}

typedef verdict (*check_fn)(gd_ctx *ctx, const struct gd_machine *m,
			    const struct gd_inventory *inv, char *t, size_t c);

/* One function per check the kb may name; the names are kb/kb_checks.c's
 * (the validator accepts exactly those). */
static const check_fn checks[GD_KB_N_CHECKS] = {
    [GD_KB_CHECK_NONE] = check_none,
    [GD_KB_CHECK_ROCBLAS_COVERAGE] = check_rocblas,
    [GD_KB_CHECK_GFX_SUPPORTED] = check_gfx,
    [GD_KB_CHECK_KFD_ACCESS] = check_kfd,
    [GD_KB_CHECK_CUDA_DRIVER] = check_cuda,
    [GD_KB_CHECK_HIP_MAJOR_MISMATCH] = check_hip,
    [GD_KB_CHECK_OVERRIDE_VALID] = gd_explain_check_override,
    [GD_KB_CHECK_OVERRIDE_SPOOF] = gd_explain_check_spoof,
    [GD_KB_CHECK_KFD_NODE] = check_kfd_node,
    [GD_KB_CHECK_GPU_FAULT] = check_gpu_fault,
    [GD_KB_CHECK_CODE_FOR_GPU] = check_code,
    [GD_KB_CHECK_APU] = check_apu,
    [GD_KB_CHECK_GPU_MEMORY] = check_memory,
    [GD_KB_CHECK_VISIBLE_DEVICES] = check_visible,
    [GD_KB_CHECK_ROCM_CAUSE] = check_rocm_cause,
};

enum gd_check_verdict gd_explain_check(gd_ctx *ctx, enum gd_kb_check check,
				       const struct gd_machine *m,
				       const struct gd_inventory *inv,
				       char *text, size_t cap)
{
	if ((unsigned)check >= GD_KB_N_CHECKS || !checks[check])
		check = GD_KB_CHECK_NONE;
	return checks[check](ctx, m, inv, text, cap);
}
