/* report/render_probe: the probe matrix as text and JSON, and one verdict line
 * per backend for `check`. */
#ifndef GD_RENDER_PROBE_H
#define GD_RENDER_PROBE_H

#include <jansson.h>
#include <stdio.h>

#include "probe/probe.h"
#include "view.h"

/* The matrix (rows: ops, columns: backend/device), the failures with their
 * details, the devices, then the bench figures. */
void gd_render_probe_text(struct gd_cli *cli, FILE *f,
			  const struct gd_probe_report *r);
/* Adds "results", "devices", "figures", "wall_seconds" (and for a
 * selftest "selftest_passed") to doc. */
void gd_render_probe_json(json_t *doc, const struct gd_probe_report *r);

/* The per-backend verdict lines (gd_probe_verdicts) are doctor's. */
#include "doctor/evidence.h"

/* One verdict line, and under it a failed init's cause and fix. */
void gd_render_probe_verdict(struct gd_cli *cli, FILE *f,
			     const struct gd_probe_verdict *v);

/* Selftest: does this result match its expectation? */
int gd_probe_selftest_pass(const struct gd_probe_result *res);

/* May we print ✔ ✘ ⏱ ⚠ (UTF-8 locale)? */
int gd_render_utf8(const struct gd_cli *cli);

#endif
