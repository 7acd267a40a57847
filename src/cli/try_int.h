/* Internal to `gpudoctor try` (cmd_try.c runs, try_report.c prints and
 * saves). */
#ifndef GD_TRY_INT_H
#define GD_TRY_INT_H

#include <regex.h>

#include "cli.h"
#include "cli_explain.h"
#include "doctor/explain.h"
#include "doctor/strategy.h"
#include "trace_cli.h"

#define GD_TRY_DEFAULT_TIMEOUT 60.0

/* INTERRUPTED: Ctrl-C (SIGINT) or SIGTERM reached `try` while this
 * strategy ran; the child was stopped and nothing after it was tried. */
enum gd_try_outcome {
	GD_TRY_OK,
	GD_TRY_FAILED,
	GD_TRY_CRASH,
	GD_TRY_HANG,
	GD_TRY_INTERRUPTED,
};

struct gd_try_row {
	int ran; /* 0: a user step, or not reached (--first) */
	int nostart;
	enum gd_try_outcome outcome;
	char phase[600]; /* "hung after: ...", "exit 1: ...", "SIGSEGV after:
			    ..." */
	char last_line[512];
	double seconds;
	int exit_code; /* -1 when it did not exit */
	int signo;     /* 0 when no signal */
	/* --trace: threads inside a GPU call at the deadline, the call log */
	int nstuck;
	struct gd_trace_stuck stuck[GD_TRACE_MAX_STUCK];
	char unrecorded[120]; /* threads without a trace slot */
	char trace_log[PATH_MAX];
	/* explain on its output (try_explain.c): the cause, and its fix for
	 * this program; "" when nothing known matched */
	char cause[600];
	char cause_fix[1024];
	const char
	    *causes[GD_EXPLAIN_MAX_CAUSES]; /* kb codes, likeliest first */
	size_t n_causes;
};

struct gd_try {
	double timeout;
	const char *expect;
	regex_t expect_re;
	int have_re;
	int save;
	const char *save_as;
	int first;
	int user_cmd;
	char **argv;
	char *default_argv[4];
	struct gd_machine m;
	struct gd_cli_inv inv; /* for the checks of the failures' causes */
	struct gd_strategy_list list;
	struct gd_try_row *rows; /* one per list entry */
	int first_ok;		 /* index of the first ok row, -1 none */
	double total;
	int cur_matched;       /* --expect seen in the running child */
	int interrupted;       /* the signal that stopped `try`, 0 none */
	char nostart_why[256]; /* the supervisor's error when CMD did not start
				*/
	int nostart_errno;     /* ...and its errno (ENOENT: not found) */
	struct gd_trace_run trace; /* --trace[=MODE]; mode 0 when off */
	int trace_mode;
	size_t cur_row; /* the row being run (for on_deadline) */
	/* gpudoctor scan on the program's file against this machine's GPUs,
	 * when its GPU code does not fit (try_explain.c), else "" */
	char program_scan[600];
};

/* Print the table (or JSON), save when asked (never after an interrupt);
 * returns the exit status. */
int gd_try_finish(struct gd_cli *cli, struct gd_try *t);

/* try_explain.c: explain a failed strategy's output (its last lines) into
 * row->cause and row->cause_fix; print the causes under the table. */
void gd_try_explain_row(struct gd_cli *cli, struct gd_try *t,
			struct gd_try_row *row, const char *output);
void gd_try_print_causes(struct gd_cli *cli, const struct gd_try *t);
void gd_try_scan_program(struct gd_cli *cli, struct gd_try *t);

#endif
