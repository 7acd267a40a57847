/* Candidate workaround strategies: kb `strategies[]` matched to the
 * discovered machine. Knowledge is data: which GPU gets which variables is
 * in the kb; this file only matches, expands "{dgpus}", validates and
 * orders. */
#include "strategy.h"

#include "discover/vendor.h"
#include "kb/kb.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define KB_SRC "kb strategies"

int gd_strategy_primary_gpu(const struct gd_machine *m)
{
	for (size_t i = 0; i < m->n_gpus; i++) {
		const struct gd_gpu *g = &m->gpus[i];

		if (!g->integrated && (g->vendor == GD_VENDOR_AMD ||
				       g->vendor == GD_VENDOR_NVIDIA))
			return (int)i;
	}
	return m->n_gpus ? 0 : -1;
}

static int is_amd_apu(const struct gd_gpu *g)
{
	return g->vendor == GD_VENDOR_AMD && g->integrated;
}

static int is_amd_dgpu(const struct gd_gpu *g)
{
	return g->vendor == GD_VENDOR_AMD && !g->integrated;
}

/* Where ROCm puts a GPU among its agents: KFD node order. */
static unsigned rocm_index(const struct gd_machine *m, const struct gd_gpu *g)
{
	unsigned idx = 0;

	if (!g->n_kfd_nodes)
		return 0;
	for (size_t i = 0; i < m->n_gpus; i++) {
		const struct gd_gpu *o = &m->gpus[i];

		if (o->vendor == GD_VENDOR_AMD && o->n_kfd_nodes &&
		    o->kfd_nodes[0].id < g->kfd_nodes[0].id)
			idx++;
	}
	return idx;
}

/* "{dgpus}": the discrete AMD GPUs as ROCR_VISIBLE_DEVICES ids (the
 * UUID when known: it does not move when the APU is hidden), or as
 * indices in KFD order (HIP_VISIBLE_DEVICES takes indices). */
void gd_strategy_dgpu_ids(const struct gd_machine *m, int uuid, char *buf,
			  size_t cap)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < m->n_gpus && used + 1 < cap; i++) {
		const struct gd_gpu *g = &m->gpus[i];
		const char *sep = used ? "," : "";

		if (!is_amd_dgpu(g))
			continue;
		if (uuid && g->n_kfd_nodes &&
		    gd_known(&g->kfd_nodes[0].unique_id) &&
		    g->kfd_nodes[0].unique_id.v)
			gd_fmt(buf + used, cap - used, "%sGPU-%016llx", sep,
			       (unsigned long long)g->kfd_nodes[0].unique_id.v);
		else
			gd_fmt(buf + used, cap - used, "%s%u", sep,
			       rocm_index(m, g));
		used += strlen(buf + used);
	}
}

static int condition_holds(const char *cond, const struct gd_machine *m,
			   int *gpu)
{
	int apu = -1, dgpu = -1;

	if (strcmp(cond, "apu-beside-dgpu"))
		return 0;
	for (size_t i = 0; i < m->n_gpus; i++) {
		if (apu < 0 && is_amd_apu(&m->gpus[i]))
			apu = (int)i;
		if (dgpu < 0 && is_amd_dgpu(&m->gpus[i]))
			dgpu = (int)i;
	}
	*gpu = dgpu;
	return apu >= 0 && dgpu >= 0;
}

/* Which GPU (index) the kb entry is for, or -1 when it does not apply. */
static int strategy_gpu(const struct gd_kb_strategy *s,
			const struct gd_machine *m, char *for_what, size_t cap)
{
	const char *vendor = s->vendor;
	const char *cond = s->condition;
	int gpu = -1;

	if (cond) {
		if (!condition_holds(cond, m, &gpu))
			return -1;
		gd_strlcpy(for_what,
			   strcmp(cond, "apu-beside-dgpu") ? cond
							   : "APU beside dGPU",
			   cap);
		return gpu;
	}
	for (size_t i = 0; i < m->n_gpus; i++) {
		const struct gd_gpu *g = &m->gpus[i];

		if (s->has_targets) {
			const char *t = gd_gpu_code_target(g);

			if (t[0] && gd_kb_list_has(s->targets, t)) {
				gd_strlcpy(for_what, t, cap);
				return (int)i;
			}
		} else if (vendor &&
			   !strcmp(vendor, gd_vendor_name(g->vendor))) {
			gd_strlcpy(for_what, vendor, cap);
			return (int)i;
		}
	}
	return -1;
}

/* A value that names devices of this machine: "{dgpus}", or any value of
 * a *_VISIBLE_DEVICES variable in an apu-beside-dgpu strategy (docs/kb.md:
 * the kb's device index there is a placeholder). */
static int is_device_list(const struct gd_kb_strategy *s, const char *key,
			  const char *v)
{
	const char *cond = s->condition;

	if (!strcmp(v, "{dgpus}"))
		return 1;
	return cond && !strcmp(cond, "apu-beside-dgpu") &&
	       (!strcmp(key, "ROCR_VISIBLE_DEVICES") ||
		!strcmp(key, "HIP_VISIBLE_DEVICES"));
}

static int fill_env(gd_ctx *ctx, const struct gd_kb_strategy *s,
		    const struct gd_machine *m, struct gd_strategy *st)
{
	const char *key, *v;
	char buf[512];

	for (size_t i = 0; gd_kb_env_at(s, i, &key, &v) == 0; i++) {
		if (!v) {
			gd_diag_add(ctx, GD_DIAG_WARN, KB_SRC,
				    "%s: env %s is "
				    "not a string; skipped",
				    st->id, key);
			continue;
		}
		if (is_device_list(s, key, v)) {
			gd_strategy_dgpu_ids(
			    m, !strcmp(key, "ROCR_VISIBLE_DEVICES"), buf,
			    sizeof buf);
			v = buf;
		}
		if (gd_profile_add(&st->prof, GD_PROF_SET, key, v) < 0)
			return -ENOMEM;
	}
	for (size_t i = 0; i < gd_kb_list_n(s->unset); i++)
		if (gd_kb_list_at(s->unset, i) &&
		    gd_profile_add(&st->prof, GD_PROF_UNSET,
				   gd_kb_list_at(s->unset, i), NULL) < 0)
			return -ENOMEM;
	return 0;
}

/* One kb entry into st. Returns 1 when usable, 0 to skip, -ENOMEM. */
static int make_strategy(gd_ctx *ctx, const struct gd_kb_strategy *s,
			 const struct gd_machine *m, struct gd_strategy *st)
{
	const char *id = s->id;
	const char *kind = s->kind;
	char err[256];

	if (!id)
		return 0;
	st->gpu = strategy_gpu(s, m, st->for_what, sizeof st->for_what);
	if (st->gpu < 0)
		return 0;
	gd_strlcpy(st->id, id, sizeof st->id);
	gd_profile_init(&st->prof);
	gd_strlcpy(st->prof.name, id, sizeof st->prof.name);
	gd_strlcpy(st->prof.strategy, id, sizeof st->prof.strategy);
	st->order = s->order;
	st->recommended = s->recommended;
	gd_strlcpy(st->reason, s->reason, sizeof st->reason);
	gd_strlcpy(st->caveat, s->caveat, sizeof st->caveat);
	gd_strlcpy(st->steps, s->steps, sizeof st->steps);
	gd_kb_source_urls(ctx->kb, s->sources, st->sources, sizeof st->sources);
	if (kind && !strcmp(kind, "user-step")) {
		st->kind = GD_STRAT_USER_STEP;
		gd_strlcpy(st->kernel_param, s->kernel_param,
			   sizeof st->kernel_param);
		gd_strlcpy(st->firmware, s->firmware, sizeof st->firmware);
		return 1;
	}
	if (kind && strcmp(kind, "env")) {
		gd_diag_add(ctx, GD_DIAG_WARN, KB_SRC,
			    "%s: unknown kind '%s'; "
			    "skipped",
			    id, kind);
		return 0;
	}
	st->kind = GD_STRAT_ENV;
	if (fill_env(ctx, s, m, st) < 0)
		return -ENOMEM;
	if (!st->prof.items.n) {
		/* "nothing" is the baseline, which always comes first */
		gd_profile_free(&st->prof);
		return 0;
	}
	if (gd_profile_validate(&st->prof, err, sizeof err) < 0) {
		gd_diag_add(ctx, GD_DIAG_WARN, KB_SRC, "%s: %s; skipped", id,
			    err);
		gd_profile_free(&st->prof);
		return 0;
	}
	return 1;
}

static int by_order(const void *a, const void *b)
{
	const struct gd_strategy *x = a, *y = b;

	if (x->kind == GD_STRAT_BASELINE || y->kind == GD_STRAT_BASELINE)
		return (y->kind == GD_STRAT_BASELINE) -
		       (x->kind == GD_STRAT_BASELINE);
	if (x->gpu != y->gpu)
		return x->gpu < y->gpu ? -1 : 1;
	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	/* user steps after env changes of the same order */
	return x->kind == y->kind ? 0 : x->kind < y->kind ? -1 : 1;
}

static int seen(const struct gd_strategy_list *l, const char *id)
{
	for (size_t i = 0; i < l->v.n; i++)
		if (!strcmp(l->v.v[i].id, id))
			return 1;
	return 0;
}

int gd_strategy_candidates(gd_ctx *ctx, const struct gd_machine *m,
			   struct gd_strategy_list *out)
{
	size_t n = ctx->kb ? gd_kb_strategy_count(ctx->kb) : 0;
	struct gd_strategy tmp, *st;
	struct gd_kb_strategy s;
	int rc;

	memset(out, 0, sizeof *out);
	st = gd_vec_push(&out->v);
	if (!st)
		return -ENOMEM;
	gd_strlcpy(st->id, "baseline", sizeof st->id);
	st->kind = GD_STRAT_BASELINE;
	st->gpu = gd_strategy_primary_gpu(m);
	gd_strlcpy(st->prof.name, "baseline", sizeof st->prof.name);
	gd_strlcpy(st->reason, "the machine as it is, no change",
		   sizeof st->reason);
	for (size_t i = 0; i < n; i++) {
		if (gd_kb_strategy_at(ctx->kb, i, &s) < 0)
			continue;
		memset(&tmp, 0, sizeof tmp);
		rc = make_strategy(ctx, &s, m, &tmp);
		if (rc < 0)
			return rc;
		if (rc == 0 || seen(out, tmp.id)) {
			gd_profile_free(&tmp.prof);
			continue;
		}
		st = gd_vec_push(&out->v);
		if (!st) {
			gd_profile_free(&tmp.prof);
			return -ENOMEM;
		}
		*st = tmp;
	}
	/* qsort is not stable: equal keys keep kb order only by luck, so sort
	 * the tail with a stable insertion sort (lists are short). */
	for (size_t a = 1; a < out->v.n; a++) {
		tmp = out->v.v[a];
		size_t b = a;

		while (b > 0 && by_order(&out->v.v[b - 1], &tmp) > 0) {
			out->v.v[b] = out->v.v[b - 1];
			b--;
		}
		out->v.v[b] = tmp;
	}
	return 0;
}

void gd_strategy_list_free(struct gd_strategy_list *l)
{
	for (size_t i = 0; i < l->v.n; i++)
		gd_profile_free(&l->v.v[i].prof);
	gd_vec_free(&l->v);
}
