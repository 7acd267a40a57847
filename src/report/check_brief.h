/* The brief form of a check: one line per GPU for apps that onboard their
 * users (check --brief), and the per-GPU summary that metrics and nfd
 * export. Built from the doctor's verdicts; it judges nothing itself. */
#ifndef GD_CHECK_BRIEF_H
#define GD_CHECK_BRIEF_H

#include "check_data.h"
#include "doctor/app_fields.h"

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
	struct gd_fw_devices fw; /* the backend's device per framework */
	struct gd_workaround wa; /* the workaround as data, any 0: none */
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
/* The verdict fields the brief and the full report share (status, usable,
 * backend, label, reason, frameworks, workaround), set on o: both read
 * them from one gd_brief, so they cannot disagree. */
void gd_brief_verdict_json(const struct gd_brief *b, json_t *o);
/* The "workaround" value: null, or {env, dll_directories, path_prepend,
 * note}. */
json_t *gd_brief_workaround_json(const struct gd_workaround *w);
/* The guide section for g ("amd#rdna1"), by vendor, family and status
 * (works, needs-setup, workaround, ...); g NULL: "cpu". */
void gd_brief_guide(struct gd_cli *cli, const struct gd_gpu *g,
		    const char *status, char *buf, size_t cap);
/* Fills b->fw from b->backend and b->target; ordinal: the GPU's number
 * among the GPUs of its backend. */
void gd_brief_frameworks(struct gd_brief *b, int ordinal);

/* Windows (check_brief_win.c): the same summary from a Windows verdict,
 * for every GPU of m (bs: m->n_gpus entries). */
struct gd_win_inventory;
struct gd_win_verdict;
void gd_brief_fill_win(struct gd_cli *cli, const struct gd_machine *m,
		       const struct gd_win_inventory *wi,
		       const struct gd_win_verdict *vs, struct gd_brief *bs);

void gd_check_brief_text(struct gd_cli *cli, FILE *f,
			 const struct gd_check_data *d);
json_t *gd_check_brief_json(struct gd_cli *cli, const struct gd_check_data *d);

#endif
