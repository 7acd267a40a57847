/* The brief form of a check: one line per GPU for apps that onboard their
 * users (check --brief), and the per-GPU summary that metrics and nfd
 * export. Built from the doctor's verdicts; it judges nothing itself. */
#ifndef GD_CHECK_BRIEF_H
#define GD_CHECK_BRIEF_H

#include "check_data.h"

struct gd_brief {
	int index;	     /* GPU index, -1 for the CPU-only line */
	const char *vendor;  /* "amd", "nvidia", "intel", "cpu" */
	char name[200];	     /* the GPU's name */
	char label[300];     /* the verdict's own name: "X (RDNA 1, gfx1010)" */
	char target[32];     /* physical gfx target or sm_XY, "" unknown */
	char target_eff[32]; /* effective gfx target (override applied) */
	const char *status;  /* gd_verdict_status_name() */
	int usable;	     /* works now, or with a known workaround */
	char backend[32];    /* "ROCm", "CUDA", "Vulkan", "CPU" */
	char reason[600];    /* the doctor's words on why (or the workaround) */
	char guide[48];	     /* "amd#rdna1": gpudoctor guide --vendor ... */
};

/* One summary per verdict (one for a machine without GPU). */
void gd_brief_fill(struct gd_cli *cli, const struct gd_check_data *d, size_t i,
		   struct gd_brief *b);
/* The brief lines with identical ones as one, "8\u00d7 <line>" (an
 * 8-GPU node gives one line), in first-seen order; steals lines. */
json_t *gd_brief_group(json_t *lines);
/* The brief line, without newline. */
void gd_brief_line(const struct gd_brief *b, char *buf, size_t cap);

/* One GPU's entry of the brief JSON (line: its brief line). */
json_t *gd_brief_gpu_json(const struct gd_brief *b, const char *line);

void gd_check_brief_text(struct gd_cli *cli, FILE *f,
			 const struct gd_check_data *d);
json_t *gd_check_brief_json(struct gd_cli *cli, const struct gd_check_data *d);

#endif
