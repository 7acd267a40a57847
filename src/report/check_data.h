/* The one in-memory report that `check` and `report` render: facts from
 * every layer, then the doctor's verdicts. Built once, rendered once. */
#ifndef GD_CHECK_DATA_H
#define GD_CHECK_DATA_H

#include "discover/discover.h"
#include "doctor/verdict.h"
#include "inventory/inventory.h"
#include "view.h"

struct gd_probe_progress;
struct gd_check_opts {
	int probes; /* run the quick probe set (live machine only) */
	double probe_timeout;
	/* called while probes run (the command line's status line), or NULL */
	void (*on_progress)(void *arg, const struct gd_probe_progress *p,
			    size_t n);
};

struct gd_check_win;
struct gd_check_data {
	struct gd_machine m;
	struct gd_inventory inv;
	struct gd_diagnosis diag;
	char probe_note[200]; /* why probes did not run, "" when they did */
	void *extra;	      /* framework and probe results (check_extra.c) */
	/* the judged OS's own facts and verdicts when it is Windows
	 * (check_win.h), NULL on Linux */
	struct gd_check_win *win;
};

int gd_check_collect(struct gd_cli *cli, const struct gd_check_opts *o,
		     struct gd_check_data *d);
/* This machine's inventory, collected and judged as `check` judges it
 * (the driver against the CUDA builds, the libraries' dependencies): what
 * explain's checks read too. 0, or -1 when out of memory. */
int gd_check_inventory(gd_ctx *ctx, struct gd_inventory *inv);
void gd_check_free(struct gd_check_data *d);
int gd_check_exit_code(const struct gd_check_data *d);
/* The `check --json` document (check_render.c); `report` embeds it. */
json_t *gd_check_json(struct gd_cli *cli, const struct gd_check_data *d);
/* The `check` text report (without the diagnostics, which go to stderr);
 * verbose: every GPU in full with all its facts. */
void gd_check_text(struct gd_cli *cli, FILE *f, const struct gd_check_data *d,
		   int verbose);

/* The compute stack as text (report's section): the judged OS's
 * runtimes, frameworks and probe results. */
void gd_check_stack_text(struct gd_cli *cli, FILE *f,
			 const struct gd_check_data *d);

/* Framework and probe sections (check_extra.c): JSON, text, verdict lines. */
void gd_check_extra_collect(struct gd_cli *cli, const struct gd_check_opts *o,
			    struct gd_check_data *d);
void gd_check_extra_json(struct gd_cli *cli, const struct gd_check_data *d,
			 json_t *doc);
void gd_check_extra_text(struct gd_cli *cli, FILE *f,
			 const struct gd_check_data *d);
void gd_check_extra_evidence(const struct gd_check_data *d,
			     struct gd_evidence *ev);
void gd_check_extra_free(struct gd_check_data *d);
struct gd_probe_report;
const struct gd_probe_report *
gd_check_extra_probes(const struct gd_check_data *d);

#endif
