/* Shared pieces of the verdict rules: lines, sources, kb lookups. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kb/kb.h"
#include "verdict_util.h"

static void push_line(gd_lines *lines, enum gd_code code, const char *fmt,
		      va_list ap) __attribute__((format(printf, 3, 0)));
static void push_line(gd_lines *lines, enum gd_code code, const char *fmt,
		      va_list ap)
{
	struct gd_line *l = gd_vec_push(lines);

	if (!l)
		return;
	l->code = code;
	gd_vfmt(l->text, sizeof l->text, fmt, ap);
}

void gd_v_headline(struct gd_verdict *v, const char *label, const char *fmt,
		   ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v->reason, sizeof v->reason, fmt, ap);
	va_end(ap);
	gd_strlcpy(v->label, label, sizeof v->label);
	gd_fmt(v->headline, sizeof v->headline, "%s: %s", v->label, v->reason);
}

void gd_v_fact(struct gd_verdict *v, enum gd_code code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	push_line(&v->facts, code, fmt, ap);
	va_end(ap);
}

void gd_v_step(struct gd_verdict *v, enum gd_code code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	push_line(&v->steps, code, fmt, ap);
	va_end(ap);
	/* the same step reached by two facts (cudart and cuBLAS both too new
	 * for the driver) is said once */
	for (size_t i = 0; v->steps.n > 1 && i + 1 < v->steps.n; i++)
		if (!strcmp(v->steps.v[i].text,
			    v->steps.v[v->steps.n - 1].text)) {
			v->steps.n--;
			break;
		}
}

void gd_v_source(struct gd_verdict *v, const char *id)
{
	struct gd_verdict_source *l;

	if (!id || !*id)
		return;
	for (size_t i = 0; i < v->sources.n; i++)
		if (!strcmp(v->sources.v[i].id, id))
			return;
	l = gd_vec_push(&v->sources);
	if (l) {
		memset(l, 0, sizeof *l);
		gd_strlcpy(l->id, id, sizeof l->id);
	}
}

void gd_v_resolve_sources(gd_ctx *ctx, struct gd_verdict *v)
{
	for (size_t i = 0; i < v->sources.n; i++) {
		struct gd_verdict_source *l = &v->sources.v[i];
		struct gd_kb_source s;

		if (gd_kb_source_get(ctx->kb, l->id, &s) < 0)
			continue;
		gd_strlcpy(l->title, s.title ? s.title : "", sizeof l->title);
		gd_strlcpy(l->url, s.url ? s.url : "", sizeof l->url);
	}
}

void gd_v_sources(struct gd_verdict *v, struct gd_kb_list ids)
{
	for (size_t i = 0; i < gd_kb_list_n(ids); i++)
		gd_v_source(v, gd_kb_list_at(ids, i));
}

static const char *stack_name(const char *stack)
{
	static const char *const names[][2] = {{"cuda", "CUDA"},
					       {"rocm", "ROCm"},
					       {"vulkan", "Vulkan"},
					       {"cpu", "CPU"}};

	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (!strcmp(stack, names[i][0]))
			return names[i][1];
	return stack;
}

void gd_v_workloads_for_stack(gd_ctx *ctx, struct gd_verdict *v,
			      const char *stack, const char *verdict)
{
	for (int i = 0; i < GD_KB_N_WORKLOADS; i++) {
		struct gd_kb_advice a;
		const char *text;
		struct gd_workload_advice *adv;

		if (gd_kb_workload_get(ctx->kb, (enum gd_kb_workload)i, stack,
				       &a) < 0)
			continue;
		text = a.text ? a.text : a.caveats;
		adv = gd_vec_push(&v->workloads);
		if (!adv)
			return;
		adv->code = GD_C_ADVICE_STACK;
		gd_strlcpy(adv->workload,
			   gd_kb_workload_name((enum gd_kb_workload)i),
			   sizeof adv->workload);
		gd_strlcpy(adv->verdict, verdict, sizeof adv->verdict);
		gd_strlcpy(adv->backend, stack_name(stack),
			   sizeof adv->backend);
		gd_strlcpy(adv->text, text ? text : "", sizeof adv->text);
		gd_strlcpy(adv->install, a.install ? a.install : "",
			   sizeof adv->install);
		gd_v_sources(v, a.sources);
	}
}

/* "AMD Radeon RX 5700 XT (RDNA 1, gfx1010)" */
void gd_v_gpu_title(const struct gd_gpu *g, const struct gd_kb_target *t,
		    char *buf, size_t cap)
{
	const char *fam = t ? t->family : NULL;
	char name[200];

	/* the same name `list` prints, unknown ones included */
	gd_gpu_display_name(g, name, sizeof name);
	if (g->gfx[0] && fam)
		gd_fmt(buf, cap, "%s (%s, %s)", name, fam, g->gfx);
	else if (g->gfx[0])
		gd_fmt(buf, cap, "%s (%s)", name, g->gfx);
	else if (g->nv.sm[0])
		gd_fmt(buf, cap, "%s (%s)", name, g->nv.sm);
	else
		gd_fmt(buf, cap, "%s", name);
}

void gd_v_access_steps(struct gd_verdict *v, const struct gd_gpu *g)
{
	const struct gd_access *a = &g->access;

	/* a node this user cannot open is GD_FAILED, its why the finding
	 * ("/dev/kfd: no read-write access (mode 660, group render, ...)");
	 * GD_UNKNOWN is a node not there or not recorded */
	if (a->kfd.st == GD_FAILED)
		gd_v_fact(v, GD_C_ACCESS_KFD, "%s", a->kfd.why);
	if (a->render.st == GD_FAILED)
		gd_v_fact(v, GD_C_ACCESS_RENDER, "render node %s",
			  a->render.why);
	if (gd_v_access_blocked(g)) {
		if (a->fix[0])
			gd_v_step(v, GD_C_ACCESS_GRANT,
				  "Give your user access to the GPU: %s",
				  a->fix);
		if (a->in_container && a->container_flags[0])
			gd_v_step(v, GD_C_ACCESS_CONTAINER,
				  "In a container, start it with %s",
				  a->container_flags);
	}
}

int gd_v_access_blocked(const struct gd_gpu *g)
{
	return g->access.kfd.st == GD_FAILED ||
	       g->access.render.st == GD_FAILED;
}

/* The install the dynamic loader would use first (inventory lists them in
 * search order), or NULL when no HIP runtime is installed. */
/* The most capable HIP runtime installed (highest libamdhip64 major, then
 * the one the loader finds first): what "ROCm is installed" means for the
 * verdict. NULL when there is none. */
const struct gd_rocm_install *gd_v_rocm_pick(const struct gd_inventory *inv)
{
	const struct gd_rocm_install *best = NULL;

	for (size_t i = 0; inv && i < inv->n_rocm; i++) {
		const struct gd_rocm_install *r = &inv->rocm[i];

		if (!r->hip_major)
			continue;
		if (!best || r->hip_major > best->hip_major ||
		    (r->hip_major == best->hip_major && r->loader_pick))
			best = r;
	}
	return best;
}

void gd_v_rocblas_facts(struct gd_verdict *v, const struct gd_inventory *inv,
			const char *gfx, int *covered)
{
	int kind = gd_rocblas_coverage(inv, gfx);

	*covered = kind;
	if (!inv || !inv->n_rocblas) {
		gd_v_fact(v, GD_C_ROCBLAS_NOT_FOUND,
			  "rocBLAS: no rocBLAS library directory found");
		return;
	}
	switch (kind) {
	case GD_ROCBLAS_TENSILE_LAZY:
	case GD_ROCBLAS_TENSILE_SINGLE:
		gd_v_fact(v, GD_C_ROCBLAS_TENSILE,
			  "rocBLAS: Tensile GEMM kernels for %s are installed",
			  gfx);
		break;
	case GD_ROCBLAS_FALLBACK_ONLY:
		gd_v_fact(v, GD_C_ROCBLAS_FALLBACK_ONLY,
			  "rocBLAS: only fallback kernels for %s (no Tensile "
			  "library): GEMM runs on slow generic kernels",
			  gfx);
		break;
	default:
		gd_v_fact(v, GD_C_ROCBLAS_NO_KERNELS,
			  "rocBLAS: no kernels for %s in any rocBLAS library "
			  "directory found",
			  gfx);
	}
}

void gd_v_known_issues(gd_ctx *ctx, struct gd_verdict *v,
		       const struct gd_kb_target *t)
{
	for (size_t i = 0; t && i < gd_kb_list_n(t->issues); i++) {
		struct gd_kb_issue is;
		const char *st;

		if (gd_kb_issue_get(ctx->kb, gd_kb_list_at(t->issues, i), &is) <
		    0)
			continue;
		st = is.status;
		if (st && !strcmp(st, "unknown"))
			st = NULL;
		gd_v_fact(v, GD_C_KB_KNOWN_ISSUE, "known issue: %s%s%s%s%s%s",
			  is.title ? is.title : "?", st ? " (" : "",
			  st ? st : "", st ? ")" : "", is.url ? " — " : "",
			  is.url ? is.url : "");
		gd_v_sources(v, is.sources);
	}
}

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

void gd_v_workload_advice(struct gd_verdict *v, const struct gd_kb_target *t)
{
	for (int i = 0; t && i < GD_KB_N_WORKLOADS; i++) {
		const struct gd_kb_advice *a = &t->advice[i];
		struct gd_workload_advice *w;

		if (!a->present)
			continue;
		w = gd_vec_push(&v->workloads);
		if (!w)
			return;
		w->code = GD_C_ADVICE_TARGET;
		gd_strlcpy(w->workload,
			   gd_kb_workload_name((enum gd_kb_workload)i),
			   sizeof w->workload);
		gd_strlcpy(w->verdict, a->verdict ? a->verdict : "unknown",
			   sizeof w->verdict);
		gd_strlcpy(w->backend, or_empty(a->backend), sizeof w->backend);
		gd_strlcpy(w->text, or_empty(a->text), sizeof w->text);
		gd_strlcpy(w->install, or_empty(a->install), sizeof w->install);
		gd_v_sources(v, a->sources);
	}
}

int gd_v_advice_any(const struct gd_verdict *v, const char *verdict,
		    const char *backend)
{
	for (size_t i = 0; i < v->workloads.n; i++)
		if (!strcmp(v->workloads.v[i].verdict, verdict) &&
		    (!backend ||
		     !strcasecmp(v->workloads.v[i].backend, backend)))
			return 1;
	return 0;
}
