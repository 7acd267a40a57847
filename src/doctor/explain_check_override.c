/* explain: the checks of an HSA_OVERRIDE_GFX_VERSION-style override (is
 * it valid; does it make ROCm run the GPU as another target, the memory
 * faults of docs/workarounds.md, override-spoof) and the kb caveat they
 * quote. Split out of
 * explain_check.c (over 600 lines): these two are about the override
 * alone. */
#include <string.h>
#include <strings.h>

#include "discover/vendor.h"
#include "doctor/profile.h"
#include "explain_check.h"

verdict gd_explain_check_override(gd_ctx *ctx, const struct gd_machine *m,
				  const struct gd_inventory *inv, char *t,
				  size_t c)
{
	char gfx[16], why[200];

	(void)ctx, (void)inv;
	for (size_t i = 0; i < m->n_gpus; i++) {
		const struct gd_override *o = &m->gpus[i].ovr;

		if (m->gpus[i].vendor != GD_VENDOR_AMD || !o->var[0])
			continue;
		if (!o->valid) {
			gd_fmt(t, c, "%s='%s' here: %s", o->var, o->value,
			       o->why[0] ? o->why : "does not parse");
			return GD_CHECK_CONFIRMED;
		}
		gd_fmt(t, c, "%s=%s here parses (ROCm sees %s)", o->var,
		       o->value, o->gfx);
		return GD_CHECK_CONTRADICTED;
	}
	if (!m->env.hsa_override[0])
		return na(t, c,
			  "HSA_OVERRIDE_GFX_VERSION is not set in this "
			  "environment; the log's may differ");
	if (gd_override_parse(m->env.hsa_override, gfx, sizeof gfx, why,
			      sizeof why)) {
		gd_fmt(t, c, "HSA_OVERRIDE_GFX_VERSION here: %s", why);
		return GD_CHECK_CONFIRMED;
	}
	gd_fmt(t, c, "HSA_OVERRIDE_GFX_VERSION=%s here parses (%s)",
	       m->env.hsa_override, gfx);
	return GD_CHECK_CONTRADICTED;
}

/* The kb target's override caveat up to its first ';': the part that says
 * what the override does to this target (gfx1010: faults since ROCm 5.3). */
static void caveat_of(gd_ctx *ctx, const char *gfx, const char *value,
		      char *out, size_t cap)
{
	struct gd_kb_target tg;
	const char *cv = NULL;
	size_t n;

	out[0] = '\0';
	if (ctx->kb && gd_kb_target_get(ctx->kb, gfx, &tg) == 0)
		cv = tg.override.caveat;
	if (!cv || !strstr(cv, value)) /* about another override value */
		return;
	n = strcspn(cv, ";");
	gd_fmt(out, cap, "; kb on %s: %.*s", gfx, (int)n, cv);
}

/* An override that is set but maps nothing: invalid (override-invalid's
 * business: ROCm then finds no GPU rather than faulting), or the GPU's own
 * target is unknown. */
static void spoof_unclear(const struct gd_gpu *g, char *t, size_t c)
{
	const struct gd_override *o = &g->ovr;

	if (!o->valid || !o->gfx[0])
		gd_fmt(t, c,
		       "override invalid, so not this fault's cause "
		       "(ROCm stops before running kernels): %s%s%s%s",
		       o->why[0] ? o->why : o->var, o->why[0] ? "" : "='",
		       o->why[0] ? "" : o->value,
		       o->why[0] ? "" : "' does not parse");
	else
		gd_fmt(t, c,
		       "%s=%s makes ROCm run %s as %s; its own target "
		       "is unknown here (%s)",
		       o->var, o->value, gpu_label(g), o->gfx,
		       g->gfx_why[0] ? g->gfx_why : "not found");
}

/* Memory faults: an override that makes ROCm run the GPU as another
 * target loads code built for that target (gfx1010 run as gfx1030 faults
 * since ROCm 5.3: docs/gpu-setup.md, gfx1010). An invalid override stops ROCm
 * finding the GPU at all, which is override-invalid's business, not a fault. */
verdict gd_explain_check_spoof(gd_ctx *ctx, const struct gd_machine *m,
			       const struct gd_inventory *inv, char *t,
			       size_t c)
{
	char cav[256];
	int said = 0;

	(void)inv;
	na(t, c, "no AMD GPU found on this machine");
	for (size_t i = 0; i < m->n_gpus; i++) {
		const struct gd_gpu *g = &m->gpus[i];
		const struct gd_override *o = &g->ovr;

		if (g->vendor != GD_VENDOR_AMD || !o->var[0])
			continue;
		if (!o->valid || !o->gfx[0] || !g->gfx[0]) {
			if (!said++)
				spoof_unclear(g, t, c);
			continue;
		}
		if (strcasecmp(o->gfx, g->gfx)) {
			caveat_of(ctx, g->gfx, o->value, cav, sizeof cav);
			gd_fmt(t, c,
			       "%s=%s makes ROCm run %s (%s) as %s, with "
			       "code built for another target%s",
			       o->var, o->value, gpu_label(g), g->gfx, o->gfx,
			       cav);
			return GD_CHECK_CONFIRMED;
		}
		if (!said++)
			gd_fmt(t, c,
			       "no target-changing override here (%s=%s "
			       "keeps %s as its own %s): the fault has "
			       "another cause (see meaning)",
			       o->var, o->value, gpu_label(g), g->gfx);
	}
	if (!said && count_amd(m))
		na(t, c,
		   "no override here: the fault has another cause (see "
		   "meaning)");
	return GD_CHECK_NA;
}
