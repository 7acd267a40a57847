/* probe/ internals shared by probe.c (threads, children) and classify.c
 * (messages and outcomes). Not for other layers. */
#ifndef GD_PROBE_INT_H
#define GD_PROBE_INT_H

#include <pthread.h>

#include "probe.h"

struct gd_child_result;

#define GD_PROBE_MAX_RESTARTS 3 /* per backend, after a hang or crash */
/* An op that declares per-step progress (gd_pc_progress) may run up to
 * this many per-op deadlines in all, as long as no single step (phase)
 * lasts longer than one deadline. docs/probe.md, "Deadlines". */
#define GD_PROBE_PROGRESS_CAP 3
struct gd_prun;

struct gd_pjob {
	struct gd_prun *run;
	const char *backend;
	const char *lib; /* --lib for the child: one variant (libnames.h) */
	int only;	 /* selftest case, -1 for backends */
	int start;	 /* first step of the next child */
	int restarts;
	char expected[16]; /* selftest */
	pthread_t thread;
	int started, done;
	/* live state of the child now running (under run->mu) */
	int in_op, cur_step, cur_dev, begun;
	int progress; /* the op now running reports per-step phases */
	char op[40];
	char phase[128];
	double op_t0, stop_t;
	double phase_t; /* when the phase last changed (or the op began) */
	const char *stop_why;
	int last_pid;
	GD_VEC(struct gd_probe_result) results;
	GD_VEC(struct gd_probe_device) devices;
	GD_VEC(struct gd_probe_figure) figures;
	GD_VEC(struct gd_probe_diag) diags;
};

struct gd_prun {
	gd_ctx *ctx;
	const struct gd_probe_opts *opts;
	pthread_mutex_t mu;
	double timeout, deadline;
	double total; /* whole-run deadline in seconds */
	GD_VEC(struct gd_pjob) jobs;
};

/* Applies one JSON message from the child (without the '@'). Returns 0, or
 * -1 when it is not a message we know (ignored). */
int gd_pjob_apply_msg(struct gd_pjob *j, const char *json, double now);
/* Records a phase line; the time counts only when the text changes. */
void gd_pjob_phase(struct gd_pjob *j, const char *line, double now);
/* The deadline the job's child has passed at now, or NULL: the per-op
 * deadline from the op's start; for ops that declared per-step progress,
 * the per-op deadline from the last phase change and the progress cap
 * from the op's start; the whole-run deadline always. */
const char *gd_pjob_deadline(const struct gd_pjob *j, double now);
/* Turns the child's end into results; returns 1 to restart the child. */
int gd_pjob_classify(struct gd_pjob *j, const struct gd_child_result *res,
		     const char *kernel_lines);
struct gd_probe_result *gd_pjob_add(struct gd_pjob *j, int dev, const char *op,
				    enum gd_probe_status st,
				    const char *detail);

/* diag.c: after the job's last child, when its init failed, the one
 * re-run with the runtime's diagnostics on (probe.h, gd_probe_diag). */
void gd_probe_diag_run(struct gd_pjob *j);

/* selftest.c: the fault cases, by index; NULL past the end. */
const char *gd_selftest_case(int i, const char **expected);

#endif
