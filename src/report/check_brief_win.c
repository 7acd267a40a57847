/* check --brief on Windows: the same summary as on Linux (check_brief.c),
 * read from the Windows verdicts; the full report reads the same
 * gd_brief, so the two cannot disagree. */
#include "check_brief.h"

#include <string.h>

#include "discover/vendor.h"
#include "doctor/verdict_windows.h"
#include "inventory/win_inventory.h"

static void fill_one(struct gd_cli *cli, const struct gd_gpu *g,
		     const struct gd_win_inventory *wi,
		     const struct gd_win_verdict *v, size_t i,
		     struct gd_brief *b)
{
	const char *t = gd_gpu_code_target(g);

	memset(b, 0, sizeof *b);
	b->index = (int)i;
	b->vendor = gd_vendor_name(g->vendor);
	gd_strlcpy(b->name, g->name.v, sizeof b->name);
	if (t && t[0])
		gd_fmt(b->label, sizeof b->label, "%s (%s)", g->name.v, t);
	else
		gd_strlcpy(b->label, g->name.v, sizeof b->label);
	gd_strlcpy(b->target, t ? t : "", sizeof b->target);
	gd_strlcpy(b->target_eff, t ? t : "", sizeof b->target_eff);
	b->status = gd_win_verdict_status(v);
	b->usable =
	    !strcmp(b->status, "works") || !strcmp(b->status, "workaround");
	gd_strlcpy(b->backend, v->backend ? v->backend : "CPU",
		   sizeof b->backend);
	gd_strlcpy(b->reason, v->summary, sizeof b->reason);
	gd_brief_guide(cli, g, b->status, b->guide, sizeof b->guide);
	gd_win_workaround(wi, v, &b->wa); /* none without an SDK */
}

void gd_brief_fill_win(struct gd_cli *cli, const struct gd_machine *m,
		       const struct gd_win_inventory *wi,
		       const struct gd_win_verdict *vs, struct gd_brief *bs)
{
	for (size_t i = 0; i < m->n_gpus; i++) {
		int n = 0;

		fill_one(cli, &m->gpus[i], wi, &vs[i], i, &bs[i]);
		for (size_t k = 0; k < i; k++)
			n += !strcmp(bs[k].backend, bs[i].backend);
		gd_brief_frameworks(&bs[i], n);
	}
}
