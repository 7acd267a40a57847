/* Shared pieces of the verdict rules: lines, sources, kb lookups. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kb/kb.h"
#include "verdict_util.h"

static void push_line(gd_lines *lines, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
static void push_line(gd_lines *lines, const char *fmt, va_list ap)
{
	struct gd_line *l = gd_vec_push(lines);

	if (l)
		gd_vfmt(l->text, sizeof l->text, fmt, ap);
}

void gd_v_fact(struct gd_verdict *v, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	push_line(&v->facts, fmt, ap);
	va_end(ap);
}

void gd_v_step(struct gd_verdict *v, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	push_line(&v->steps, fmt, ap);
	va_end(ap);
	/* the same step reached by two facts (cudart and cuBLAS both too new
	 * for the driver) is said once */
	for (size_t i = 0; v->steps.n > 1 && i + 1 < v->steps.n; i++)
		if (!strcmp(v->steps.v[i].text, v->steps.v[v->steps.n - 1].text)) {
			v->steps.n--;
			break;
		}
}

void gd_v_source(struct gd_verdict *v, const char *id)
{
	struct gd_line *l;

	if (!id || !*id)
		return;
	for (size_t i = 0; i < v->sources.n; i++)
		if (!strcmp(v->sources.v[i].text, id))
			return;
	l = gd_vec_push(&v->sources);
	if (l)
		gd_strlcpy(l->text, id, sizeof l->text);
}

void gd_v_sources(struct gd_verdict *v, const json_t *ids)
{
	size_t i;
	json_t *id;

	if (json_is_string(ids)) {
		gd_v_source(v, json_string_value(ids));
		return;
	}
	json_array_foreach(ids, i, id) gd_v_source(v, json_string_value(id));
}

static const char *stack_name(const char *stack)
{
	static const char *const names[][2] = {
		{"cuda", "CUDA"}, {"rocm", "ROCm"}, {"vulkan", "Vulkan"}, {"cpu", "CPU"}};

	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (!strcmp(stack, names[i][0]))
			return names[i][1];
	return stack;
}

void gd_v_workloads_for_stack(gd_ctx *ctx, struct gd_verdict *v,
			      const char *stack, const char *verdict)
{
	static const char *wl[] = {"ctranslate2", "pytorch", "llama.cpp"};
	const json_t *w = gd_kb_get(ctx->kb, "workloads");

	for (size_t i = 0; i < sizeof wl / sizeof *wl; i++) {
		const json_t *a = json_object_get(json_object_get(w, wl[i]), stack);
		const char *text = gd_kb_str(a, "text") ? gd_kb_str(a, "text")
							: gd_kb_str(a, "caveats");
		struct gd_workload_advice *adv;

		if (!a)
			continue;
		adv = gd_vec_push(&v->workloads);
		if (!adv)
			return;
		gd_strlcpy(adv->workload, wl[i], sizeof adv->workload);
		gd_strlcpy(adv->verdict, verdict, sizeof adv->verdict);
		gd_strlcpy(adv->backend, stack_name(stack), sizeof adv->backend);
		gd_strlcpy(adv->text, text ? text : "", sizeof adv->text);
		gd_strlcpy(adv->install, gd_kb_str(a, "install") ? gd_kb_str(a, "install") : "",
			   sizeof adv->install);
		gd_v_sources(v, json_object_get(a, "sources"));
	}
}

/* "AMD Radeon RX 5700 XT (RDNA 1, gfx1010)" */
void gd_v_gpu_title(const struct gd_gpu *g, const json_t *t, char *buf,
		    size_t cap)
{
	const char *fam = gd_kb_str(t, "family");
	char name[200];

	/* the same name `list` prints, unknown ones included */
	gd_gpu_display_name(g, name, sizeof name);
	if (g->gfx[0] && fam)
		gd_fmt(buf, cap, "%s (%s, %s)", name, fam, g->gfx);
	else if (g->gfx[0])
		gd_fmt(buf, cap, "%s (%s)", name, g->gfx);
	else if (g->sm[0])
		gd_fmt(buf, cap, "%s (%s)", name, g->sm);
	else
		gd_fmt(buf, cap, "%s", name);
}

void gd_v_access_steps(struct gd_verdict *v, const struct gd_gpu *g)
{
	const struct gd_access *a = &g->access;

	if (a->kfd.st == GD_KNOWN && !a->kfd_ok)
		gd_v_fact(v, "/dev/kfd: %s", a->kfd.v);
	if (a->render.st == GD_KNOWN && !a->render_ok)
		gd_v_fact(v, "render node: %s", a->render.v);
	if ((a->kfd.st == GD_KNOWN && !a->kfd_ok) ||
	    (a->render.st == GD_KNOWN && !a->render_ok)) {
		if (a->fix[0])
			gd_v_step(v, "Give your user access to the GPU: %s",
				  a->fix);
		if (a->in_container && a->container_flags[0])
			gd_v_step(v, "In a container, start it with %s",
				  a->container_flags);
	}
}

int gd_v_access_blocked(const struct gd_gpu *g)
{
	return (g->access.kfd.st == GD_KNOWN && !g->access.kfd_ok) ||
	       (g->access.render.st == GD_KNOWN && !g->access.render_ok);
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
		gd_v_fact(v, "rocBLAS: no rocBLAS library directory found");
		return;
	}
	switch (kind) {
	case GD_ROCBLAS_TENSILE_LAZY:
	case GD_ROCBLAS_TENSILE_SINGLE:
		gd_v_fact(v, "rocBLAS: Tensile GEMM kernels for %s are installed",
			  gfx);
		break;
	case GD_ROCBLAS_FALLBACK_ONLY:
		gd_v_fact(v, "rocBLAS: only fallback kernels for %s (no Tensile "
			     "library): GEMM runs on slow generic kernels", gfx);
		break;
	default:
		gd_v_fact(v, "rocBLAS: no kernels for %s in any rocBLAS library "
			     "directory found", gfx);
	}
}

void gd_v_known_issues(gd_ctx *ctx, struct gd_verdict *v, const json_t *t)
{
	const json_t *issues = json_object_get(t, "issues");
	size_t i;
	json_t *id;

	json_array_foreach(issues, i, id) {
		const json_t *is = gd_kb_issue(ctx->kb, json_string_value(id));
		const char *title = gd_kb_str(is, "title");
		const char *url = gd_kb_str(is, "url");
		const char *st = gd_kb_str(is, "status");

		if (!is)
			continue;
		if (st && !strcmp(st, "unknown"))
			st = NULL;
		gd_v_fact(v, "known issue: %s%s%s%s%s%s", title ? title : "?",
			  st ? " (" : "", st ? st : "", st ? ")" : "",
			  url ? " — " : "", url ? url : "");
		gd_v_sources(v, json_object_get(is, "sources"));
	}
}

void gd_v_workload_advice(struct gd_verdict *v, const json_t *t)
{
	static const char *wl[] = {"ctranslate2", "pytorch", "llama.cpp"};
	const json_t *adv = json_object_get(t, "advice");

	for (size_t i = 0; i < sizeof wl / sizeof *wl; i++) {
		const json_t *a = json_object_get(adv, wl[i]);
		struct gd_workload_advice *w;

		if (!a)
			continue;
		w = gd_vec_push(&v->workloads);
		if (!w)
			return;
		gd_strlcpy(w->workload, wl[i], sizeof w->workload);
		gd_strlcpy(w->verdict, gd_kb_str(a, "verdict") ? gd_kb_str(a, "verdict") : "unknown", sizeof w->verdict);
		gd_strlcpy(w->backend, gd_kb_str(a, "backend") ? gd_kb_str(a, "backend") : "", sizeof w->backend);
		gd_strlcpy(w->text, gd_kb_str(a, "text") ? gd_kb_str(a, "text") : "", sizeof w->text);
		gd_strlcpy(w->install, gd_kb_str(a, "install") ? gd_kb_str(a, "install") : "", sizeof w->install);
		gd_v_sources(v, json_object_get(a, "sources"));
	}
}

int gd_v_advice_any(const struct gd_verdict *v, const char *verdict,
		    const char *backend)
{
	for (size_t i = 0; i < v->workloads.n; i++)
		if (!strcmp(v->workloads.v[i].verdict, verdict) &&
		    (!backend || !strcasecmp(v->workloads.v[i].backend, backend)))
			return 1;
	return 0;
}

