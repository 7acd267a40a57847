/* doctor/cuda_driver: is the NVIDIA driver new enough for what is
 * installed? The rule (NVIDIA's minor-version compatibility) against the
 * knowledge base's nvidia.cuda_driver_min table. Inventory records which
 * CUDA each library or toolkit was built for (struct gd_cuda_check: lib,
 * version, cuda, path); this judges it (min_driver, full_driver,
 * driver_ok, why) and the driver's highest CUDA (inv->cuda_driver_api). */
#include <stdlib.h>
#include <string.h>

#include "cuda_driver.h"

void gd_cuda_min_table_load(gd_ctx *ctx, struct gd_cuda_min_table *t)
{
	size_t n = ctx->kb ? gd_kb_driver_mins(ctx->kb, t->rows,
					       sizeof t->rows / sizeof *t->rows)
			   : 0;

	t->n = n < sizeof t->rows / sizeof *t->rows
		   ? n
		   : sizeof t->rows / sizeof *t->rows;
}

/* Rows of nvidia.cuda_driver_min are either one release ("12.4") or a
 * whole major ("12.x": the minor-version-compatibility minimum). */
static int is_major_row(const char *c)
{
	return gd_endswith(c, ".x");
}

/* The table's entry for release "X.Y" exactly, or NULL. */
static const char *kb_min(const struct gd_cuda_min_table *t, const char *cuda)
{
	for (size_t i = 0; i < t->n; i++) {
		const char *c = t->rows[i].cuda;

		if (c && !is_major_row(c) && !gd_version_cmp(c, cuda))
			return t->rows[i].linux_min;
	}
	return NULL;
}

/* The minimum for every release of a major: its "X.x" row, else the
 * lowest-listed "X.y" row (normally X.0). */
static const char *kb_min_major(const struct gd_cuda_min_table *t,
				unsigned long major, char *rel, size_t cap)
{
	const char *best = NULL, *bestc = NULL;

	for (size_t i = 0; i < t->n; i++) {
		const char *c = t->rows[i].cuda;
		const char *l = t->rows[i].linux_min;

		if (!c || !l || strtoul(c, NULL, 10) != major)
			continue;
		if (is_major_row(c)) {
			gd_strlcpy(rel, c, cap);
			return l;
		}
		if (!bestc || gd_version_cmp(c, bestc) < 0) {
			bestc = c;
			best = l;
		}
	}
	if (bestc)
		gd_strlcpy(rel, bestc, cap);
	return best;
}

/* NVIDIA CUDA Compatibility guide, "Minor Version Compatibility"
 * (docs/json-runtimes.md, "kind: cuda-driver"): since CUDA 11, an
 * application built with any toolkit X.y runs on a driver >= the minimum
 * driver of X.0 (e.g. >= 525.60.13 for every 12.y on Linux), except that
 * features needing a newer driver fail and PTX newer than the driver cannot
 * be JIT-compiled. Before CUDA 11 the exact release's minimum applies
 * (CUDA Toolkit release notes, table "CUDA Toolkit and Corresponding
 * Driver Versions"). */
void gd_cuda_driver_check(const struct gd_cuda_min_table *kb,
			  const char *driver, const char *cuda,
			  struct gd_cuda_check *out)
{
	unsigned long major = strtoul(cuda ? cuda : "0", NULL, 10);
	const char *full = kb && cuda ? kb_min(kb, cuda) : NULL;
	const char *min = NULL;
	char rel[16] = "";

	out->driver_ok = -1;
	gd_strlcpy(out->cuda, cuda ? cuda : "", sizeof out->cuda);
	gd_strlcpy(out->full_driver, full ? full : "", sizeof out->full_driver);
	if (kb && major >= 11)
		min = kb_min_major(kb, major, rel, sizeof rel);
	else if (full) {
		min = full;
		gd_strlcpy(rel, cuda, sizeof rel);
	}
	gd_strlcpy(out->min_driver, min ? min : "", sizeof out->min_driver);
	if (!cuda || !major) {
		gd_strlcpy(out->why, "CUDA version it was built for is unknown",
			   sizeof out->why);
	} else if (!min) {
		gd_fmt(out->why, sizeof out->why,
		       "no minimum driver for CUDA %s in the knowledge base",
		       cuda);
	} else if (!driver || !*driver) {
		gd_fmt(
		    out->why, sizeof out->why,
		    "needs driver >= %s; the NVIDIA driver version is unknown",
		    min);
	} else if (gd_version_cmp(driver, min) < 0) {
		out->driver_ok = 0;
		if (major >= 11)
			gd_fmt(out->why, sizeof out->why,
			       "driver %s is older than "
			       "%s, the minimum for any CUDA %lu.x",
			       driver, min, major);
		else
			gd_fmt(out->why, sizeof out->why,
			       "driver %s is older than "
			       "%s, the minimum for CUDA %s",
			       driver, min, cuda);
	} else if (full && gd_version_cmp(driver, full) < 0) {
		out->driver_ok = 1;
		gd_fmt(out->why, sizeof out->why,
		       "runs through minor-version compatibility (driver %s >= "
		       "%s); "
		       "PTX JIT and newer features need >= %s",
		       driver, min, full);
	} else {
		out->driver_ok = 1;
		gd_fmt(out->why, sizeof out->why, "driver %s >= %s", driver,
		       full ? full : min);
	}
}

int gd_cuda_driver_api(const struct gd_cuda_min_table *kb, const char *driver,
		       char *out, size_t cap)
{
	const char *best = NULL;

	if (cap)
		out[0] = '\0';
	if (!kb || !driver || !*driver)
		return -1;
	for (size_t i = 0; i < kb->n; i++) {
		const char *c = kb->rows[i].cuda;
		const char *l = kb->rows[i].linux_min;

		if (!c || !l || gd_version_cmp(driver, l) < 0)
			continue;
		if (!best || gd_version_cmp(c, best) > 0)
			best = c;
	}
	if (!best)
		return -1;
	gd_strlcpy(out, best, cap);
	return 0;
}

void gd_doctor_cuda(gd_ctx *ctx, struct gd_inventory *inv)
{
	struct gd_cuda_min_table kb;
	const char *drv =
	    gd_known(&inv->cuda_driver) ? inv->cuda_driver.v : NULL;
	char api[32];

	gd_cuda_min_table_load(ctx, &kb);
	if (drv && !gd_cuda_driver_api(&kb, drv, api, sizeof api))
		gd_text_set(&inv->cuda_driver_api, api,
			    "kb nvidia.cuda_driver_min");
	else
		gd_text_unknown(
		    &inv->cuda_driver_api, GD_UNKNOWN, "%s",
		    !drv
			? "driver version unknown"
			: "not in the knowledge base's nvidia.cuda_driver_min");
	for (size_t i = 0; i < inv->n_cuda_checks; i++) {
		struct gd_cuda_check *c = &inv->cuda_checks[i];
		char version[sizeof c->version];

		gd_strlcpy(version, c->version, sizeof version);
		gd_cuda_driver_check(&kb, drv, version[0] ? version : NULL, c);
		gd_strlcpy(c->version, version, sizeof c->version);
	}
}
