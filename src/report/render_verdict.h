/* Rendering of doctor/ verdicts: text, JSON and Markdown walk the same data. */
#ifndef GD_RENDER_VERDICT_H
#define GD_RENDER_VERDICT_H

#include <stdio.h>

#include "doctor/verdict.h"
#include "view.h"

json_t *gd_render_verdict_json(const struct gd_verdict *v);
void gd_render_verdict_text(struct gd_cli *cli, FILE *f,
			    const struct gd_verdict *v);
void gd_render_verdict_md(FILE *f, const struct gd_verdict *v);
/* The workloads block of a verdict (its kb advice), as in the verdict text. */
void gd_render_workloads_text(struct gd_cli *cli, FILE *f,
			      const struct gd_verdict *v);
/* "[1] title — url" lines for the sources a verdict cites. */
void gd_render_sources_text(struct gd_cli *cli, FILE *f,
			    const struct gd_verdict *v);

#endif
