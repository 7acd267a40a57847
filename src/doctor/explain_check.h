/* What explain_check.c (the dispatch and most checks) and
 * explain_check_override.c (the override checks) share. Internal to
 * doctor/explain_check*.c. */
#ifndef GD_EXPLAIN_CHECK_H
#define GD_EXPLAIN_CHECK_H

#include <stddef.h>

#include "core/util.h"
#include "discover/vendor.h"
#include "explain.h"

typedef enum gd_check_verdict verdict;

static inline const char *gpu_label(const struct gd_gpu *g)
{
	return gd_known(&g->name) ? g->name.v : g->pci.bdf;
}

static inline size_t count_amd(const struct gd_machine *m)
{
	size_t n = 0;

	for (size_t i = 0; i < m->n_gpus; i++)
		n += m->gpus[i].vendor == GD_VENDOR_AMD;
	return n;
}

static inline verdict na(char *text, size_t cap, const char *msg)
{
	gd_strlcpy(text, msg, cap);
	return GD_CHECK_NA;
}

/* explain_check_override.c */
verdict gd_explain_check_override(gd_ctx *ctx, const struct gd_machine *m,
				  const struct gd_inventory *inv, char *t,
				  size_t c);
verdict gd_explain_check_spoof(gd_ctx *ctx, const struct gd_machine *m,
			       const struct gd_inventory *inv, char *t,
			       size_t c);

#endif
