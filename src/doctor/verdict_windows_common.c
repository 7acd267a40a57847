/* A Windows verdict as the one verdict model (verdict.h): status,
 * headline, facts and steps with their codes, and the workloads and
 * sources every verdict carries. The brief, nfd, metrics, report and the
 * C API read this, as on Linux. */
#include <string.h>

#include "discover/vendor.h"
#include "kb/kb.h"
#include "verdict_util.h"
#include "verdict_windows.h"

static const struct {
	const char *name;
	enum gd_verdict_status s;
} statuses[] = {
    {"works", GD_V_WORKS},
    {"needs-setup", GD_V_SETUP},
    {"workaround", GD_V_WORKAROUND},
    {"unknown", GD_V_UNKNOWN},
};

static enum gd_verdict_status status_of(const char *name)
{
	for (size_t i = 0; i < sizeof statuses / sizeof statuses[0]; i++)
		if (!strcmp(name, statuses[i].name))
			return statuses[i].s;
	return GD_V_UNKNOWN;
}

static int add_lines(gd_lines *l, const struct gd_win_line *w, int n)
{
	for (int i = 0; i < n; i++) {
		struct gd_line *x = gd_vec_push(l);

		if (!x)
			return -1;
		x->code = w[i].code;
		gd_strlcpy(x->text, w[i].text, sizeof x->text);
	}
	return 0;
}

/* The steps that rebuild or replace the GPU code of a framework, or its
 * rocBLAS: the kb's CTranslate2 advice for the target names the builds
 * the community made (with their sources). */
static int rebuilds(const struct gd_win_verdict *x)
{
	for (int i = 0; i < x->n_steps; i++)
		if (x->steps[i].code == GD_C_WIN_ROCBLAS_COMMUNITY ||
		    x->steps[i].code == GD_C_WIN_FRAMEWORK_REPLACE ||
		    x->steps[i].code == GD_C_WIN_BUILD_FOR_TARGET)
			return 1;
	return 0;
}

static void target_advice(gd_ctx *ctx, const struct gd_gpu *g,
			  struct gd_verdict *v)
{
	struct gd_kb_target t;
	const struct gd_kb_advice *a;
	struct gd_workload_advice *w;

	if (!g->gfx[0] || gd_kb_target_get(ctx->kb, g->gfx, &t) < 0)
		return;
	a = &t.advice[GD_KB_WL_CTRANSLATE2];
	if (!a->present || !(w = gd_vec_push(&v->workloads)))
		return;
	w->code = GD_C_ADVICE_TARGET;
	gd_strlcpy(w->workload, gd_kb_workload_name(GD_KB_WL_CTRANSLATE2),
		   sizeof w->workload);
	gd_strlcpy(w->verdict, a->verdict ? a->verdict : "unknown",
		   sizeof w->verdict);
	gd_strlcpy(w->backend, a->backend ? a->backend : "", sizeof w->backend);
	gd_strlcpy(w->text, a->text ? a->text : "", sizeof w->text);
	gd_strlcpy(w->install, a->install ? a->install : "", sizeof w->install);
	gd_v_sources(v, a->sources);
}

int gd_win_common(gd_ctx *ctx, const struct gd_gpu *g,
		  const struct gd_win_verdict *x, struct gd_verdict *v)
{
	const char *t;

	v->status = status_of(gd_win_verdict_status(x));
	gd_strlcpy(v->headline, x->summary, sizeof v->headline);
	gd_strlcpy(v->reason, x->summary, sizeof v->reason);
	t = gd_gpu_code_target(g);
	if (t && t[0])
		gd_fmt(v->label, sizeof v->label, "%s (%s)", g->name.v, t);
	else
		gd_strlcpy(v->label, g->name.v, sizeof v->label);
	if (add_lines(&v->facts, x->facts, x->n_facts) < 0 ||
	    add_lines(&v->steps, x->steps, x->n_steps) < 0)
		return -1;
	if (x->judged && rebuilds(x))
		target_advice(ctx, g, v);
	/* the CPU fallback, whatever the GPU's verdict */
	gd_v_workloads_for_stack(ctx, v, "cpu", "cpu");
	gd_v_resolve_sources(ctx, v);
	return 0;
}
