/* Which profile `run` and `env` apply: the one named, else this GPU's saved
 * one, else the kb's recommended strategy for it, else nothing. */
#include <errno.h>
#include <string.h>

#include "strategy.h"

void gd_pick_free(struct gd_pick *pk)
{
	gd_profile_free(&pk->prof);
}

static int pick_named(const gd_ctx *ctx, const char *name, struct gd_pick *pk,
		      char *err, size_t errlen)
{
	char path[4096];
	int rc;

	if (gd_profile_path(ctx, name, path, sizeof path, err, errlen) < 0)
		return -EINVAL;
	gd_strlcpy(pk->looked, path, sizeof pk->looked);
	rc = gd_profile_load(path, &pk->prof, err, errlen);
	if (rc == -ENOENT)
		gd_fmt(err, errlen, "no profile '%s' (looked for %s)", name,
		       path);
	if (rc == 0)
		pk->origin = GD_PICK_NAMED;
	return rc;
}

/* The saved profile of GPU i. 1 found, 0 none, <0 refused/broken. */
static int pick_saved(const gd_ctx *ctx, const struct gd_machine *m, int i,
		      struct gd_pick *pk, char *err, size_t errlen)
{
	char name[96], path[4096];
	int rc;

	gd_profile_gpu_name(&m->gpus[i], name, sizeof name);
	if (gd_profile_path(ctx, name, path, sizeof path, err, errlen) < 0)
		return 0; /* no HOME: nothing saved */
	if (!pk->looked[0])
		gd_strlcpy(pk->looked, path, sizeof pk->looked);
	rc = gd_profile_load(path, &pk->prof, err, errlen);
	if (rc == -ENOENT) {
		gd_profile_free(&pk->prof);
		err[0] = '\0';
		return 0;
	}
	if (rc < 0)
		return rc;
	pk->origin = GD_PICK_SAVED;
	pk->gpu = i;
	gd_strlcpy(pk->gpu_name, name, sizeof pk->gpu_name);
	return 1;
}

static int pick_recommended(gd_ctx *ctx, const struct gd_machine *m,
			    struct gd_pick *pk)
{
	struct gd_strategy_list l;
	int rc = gd_strategy_candidates(ctx, m, &l);

	for (size_t i = 0; rc == 0 && i < l.v.n; i++) {
		const struct gd_strategy *s = &l.v.v[i];

		if (s->kind != GD_STRAT_ENV || !s->recommended)
			continue;
		rc = gd_profile_copy(&pk->prof, &s->prof);
		if (rc == 0) {
			pk->origin = GD_PICK_RECOMMENDED;
			pk->gpu = s->gpu;
			gd_profile_gpu_name(&m->gpus[s->gpu], pk->gpu_name,
					    sizeof pk->gpu_name);
		}
		break;
	}
	gd_strategy_list_free(&l);
	return rc;
}

int gd_profile_pick(gd_ctx *ctx, const char *name, const struct gd_machine *m,
		    struct gd_pick *pk, char *err, size_t errlen)
{
	int primary, rc;

	memset(pk, 0, sizeof *pk);
	gd_profile_init(&pk->prof);
	pk->gpu = -1;
	if (errlen)
		err[0] = '\0';
	if (name)
		return pick_named(ctx, name, pk, err, errlen);
	if (!m)
		return 0;
	primary = gd_strategy_primary_gpu(m);
	if (primary < 0)
		return 0;
	rc = pick_saved(ctx, m, primary, pk, err, errlen);
	for (size_t i = 0; rc == 0 && i < m->n_gpus; i++)
		if ((int)i != primary)
			rc = pick_saved(ctx, m, (int)i, pk, err, errlen);
	if (rc != 0)
		return rc < 0 ? rc : 0;
	if (ctx->kb) {
		rc = pick_recommended(ctx, m, pk);
		if (rc < 0)
			return rc;
	}
	if (pk->origin == GD_PICK_NONE) {
		pk->gpu = primary;
		gd_profile_gpu_name(&m->gpus[primary], pk->gpu_name,
				    sizeof pk->gpu_name);
	}
	return 0;
}
