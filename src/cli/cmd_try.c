/* gpudoctor try [--timeout S] [--expect REGEX] [--save] [-- CMD ARGS...]:
 * run CMD (default: the quick probes) once per candidate strategy, each in
 * a supervised child with a deadline (probe/supervisor: own process group,
 * killed whole at the deadline, reaped), and print what happened under
 * each. --save keeps the first strategy that works as this GPU's profile.
 * Exit 0 when a strategy works, 1 when none does, 3 on errors, 128 + the
 * signal (130 for Ctrl-C) when interrupted. */
#include <errno.h>
#include <getopt.h>
#include <regex.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "core/plat.h"
#include "core/re_cost.h"
#include "probe/supervisor.h"
#include "try_int.h"
#include "wa_common.h"

/* The signal that interrupted `try` (SIGINT, SIGTERM, SIGHUP: terminal or
 * ssh closed, SIGQUIT: Ctrl-\, and every other that would end us: USR1,
 * PIPE, ALRM...; Windows: Ctrl-C, Ctrl-Break), 0 none
 * (gd_plat_interrupts_catch). The supervisor polls it through
 * spec.cancel and stops the running child's whole group (Windows: job)
 * as at its deadline. */
static volatile int try_cancel;

static const char *const trace_modes[] = {"hang", "log",   "rewrite",
					  "deep", "hooks", NULL};

const struct gd_opt gd_opts_try[] = {
    {"timeout", 't', 't', GD_ARG_REQUIRED, "S",
     "deadline per strategy in seconds (default 60)", NULL,
     NULL}, /* GD_TRY_DEFAULT_TIMEOUT */
    {"expect", 'e', 'e', GD_ARG_REQUIRED, "REGEX",
     "success is this extended regex matching an output line\n(the child is "
     "stopped once it matches); default: exit 0",
     NULL, NULL},
    {"save", 's', 's', GD_ARG_NONE, NULL,
     "save the first strategy that works as this GPU's profile\n('gpudoctor "
     "run CMD' applies it)",
     NULL, NULL},
    {"save-as", 0, 'S', GD_ARG_REQUIRED, "NAME",
     "... as the named profile NAME instead ([A-Za-z0-9_.-],\nnot starting "
     "with '.'; 'gpudoctor run --profile NAME CMD')",
     NULL, NULL},
    {"first", 'f', 'f', GD_ARG_NONE, NULL,
     "stop at the first strategy that works", NULL, NULL},
    {"trace", 0, 'T', GD_ARG_OPTIONAL, "MODE",
     "preload libgpudoctor-trace.so: a hang names the GPU call\neach stuck "
     "thread is in, why it can block and, for Python,\nthe line (MODE hang, "
     "the default); log:\n+ a call log with "
     "durations; rewrite: + pinned host\nallocations made non-coherent; deep: "
     "+ CUPTI's driver\nAPI domain; hooks: no CUPTI (see docs/trace.md)",
     trace_modes, NULL},
    {"help", 'h', 'h', GD_ARG_NONE, NULL, "this help", NULL, NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
};

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "Usage: gpudoctor try [--timeout S] [--expect REGEX] [--save | "
	    "--save-as NAME]\n"
	    "                     [--first] [[--] CMD ARGS...]\n\n"
	    "Run CMD (default: 'gpudoctor probe --quick') once per candidate "
	    "workaround\nstrategy for this machine's GPUs, each in its own "
	    "process group with a\ndeadline, and print the outcome of each: "
	    "ok, failed, crash or hang, with\nthe last output line (\"hung "
	    "after: graph_reserve: ...\"). Strategies that\nneed a kernel "
	    "parameter or firmware are listed as steps, never applied.\n"
	    "CMD starts at the first word that is not an option (or after "
	    "--).\n\n");
	gd_opts_help(f, gd_opts_try);
	fprintf(
	    f, "\nCtrl-C stops the running strategy (outcome \"interrupted\"), "
	       "prints what was\nfound so far, saves nothing and exits 130.\n\n"
	       "Exit status: 0 a strategy works, 1 none does, 3 error, 130 "
	       "interrupted.\n\n");
	gd_cli_common_help(f);
}

static int parse_timeout(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v > 0) || v > 86400)
		return -1;
	*out = v;
	return 0;
}

static int try_parse(struct gd_cli *cli, int argc, char **argv,
		     struct gd_try *t)
{
	struct gd_getopt g;
	int c;

	gd_opts_build(&g, gd_opts_try, 1);
	while ((c = getopt_long(argc, argv, g.so, g.lo, NULL)) != -1) {
		switch (c) {
		case 't':
			if (parse_timeout(optarg, &t->timeout) < 0)
				return gd_cli_usage_error(
				    cli, "try",
				    "bad "
				    "--timeout '%s' (seconds, > 0)",
				    optarg);
			break;
		case 'e':
			t->expect = optarg;
			break;
		case 's':
			t->save = 1;
			break;
		case 'S':
			/* A name, never a path: the profile lands in the
			 * profile directory as NAME.profile, and `run
			 * --profile NAME` finds it there. */
			if (!gd_profile_name_valid(optarg))
				return gd_cli_usage_error(
				    cli, "try",
				    "bad "
				    "--save-as '%s': a profile name is "
				    "letters, digits, '_', '-' and '.', "
				    "not starting with '.'",
				    optarg);
			t->save = 1;
			t->save_as = optarg;
			break;
		case 'f':
			t->first = 1;
			break;
		case 'T':
			t->trace_mode = gd_trace_mode_parse(optarg);
			if (t->trace_mode < 0)
				return gd_cli_usage_error(
				    cli, "try",
				    "bad "
				    "--trace '%s' (hang, log, rewrite, deep, "
				    "hooks; a comma list)",
				    optarg);
			break;
		case 'h':
			usage(stdout);
			return GD_EXIT_OK;
		default:
			return gd_cli_usage_error(cli, "try", "unknown option");
		}
	}
	t->user_cmd = optind < argc;
	return -1;
}

static void on_line(void *arg, int is_phase, const char *line)
{
	struct gd_try *t = arg;

	if (!is_phase && gd_trace_capture(&t->trace, line))
		return; /* a Python program's stacks, after the deadline */
	if (!is_phase && t->expect && !t->cur_matched &&
	    regexec(&t->expect_re, line, 0, NULL, 0) == 0)
		t->cur_matched = 1;
}

static int should_stop(void *arg)
{
	const struct gd_try *t = arg;

	return t->cur_matched; /* the expected text came: done */
}

static void classify(struct gd_try *t, const struct gd_child_result *res,
		     struct gd_try_row *row)
{
	const char *last = res->phase[0] && res->outcome == GD_CHILD_HUNG
			       ? res->phase
			       : res->last_line;

	row->seconds = res->seconds;
	row->exit_code = res->outcome == GD_CHILD_EXITED ? res->exit_code : -1;
	row->signo = res->outcome == GD_CHILD_SIGNALED ? res->signo : 0;
	gd_strlcpy(row->last_line, res->last_line, sizeof row->last_line);
	if (t->expect ? t->cur_matched
		      : res->outcome == GD_CHILD_EXITED && !res->exit_code) {
		row->outcome = GD_TRY_OK;
		gd_strlcpy(row->phase, t->expect ? "expected text seen" : last,
			   sizeof row->phase);
	} else if (res->outcome == GD_CHILD_HUNG && row->nstuck) {
		row->outcome = GD_TRY_HANG;
		gd_fmt(row->phase, sizeof row->phase, "hung: %s",
		       row->stuck[0].line);
	} else if (res->outcome == GD_CHILD_HUNG) {
		row->outcome = GD_TRY_HANG;
		gd_fmt(row->phase, sizeof row->phase, "hung after: %s%s%s",
		       last[0] ? last : "(no output)",
		       row->unrecorded[0] ? "; " : "", row->unrecorded);
	} else if (res->outcome == GD_CHILD_SIGNALED) {
		char crash[64];

		row->outcome = GD_TRY_CRASH;
		gd_plat_crash_name((unsigned)res->signo, crash, sizeof crash);
		gd_fmt(row->phase, sizeof row->phase, "%s after: %s", crash,
		       last[0] ? last : "(no output)");
	} else if (res->outcome == GD_CHILD_NOSTART) {
		row->outcome = GD_TRY_FAILED;
		gd_fmt(row->phase, sizeof row->phase, "could not start: %s",
		       res->error);
	} else {
		row->outcome = GD_TRY_FAILED;
		gd_fmt(row->phase, sizeof row->phase, "exit %d%s%s",
		       res->exit_code, last[0] ? ": " : "", last);
		if (t->expect && !res->exit_code)
			gd_fmt(row->phase, sizeof row->phase,
			       "exit 0 without "
			       "the expected text%s%s",
			       last[0] ? "; last: " : "", last);
	}
	gd_sanitize(row->phase);
	gd_sanitize(row->last_line);
}

/* The deadline passed: before the group is stopped, note which threads
 * are inside a GPU call and what /proc says they wait for; a Python
 * program is asked for its stacks first. */
static int on_deadline(void *arg, int pid)
{
	struct gd_try *t = arg;
	struct gd_try_row *row = &t->rows[t->cur_row];

	(void)pid; /* the slots name their own pids (children included) */
	return gd_trace_deadline(&t->trace, row->stuck, GD_TRACE_MAX_STUCK,
				 &row->nstuck, row->unrecorded,
				 sizeof row->unrecorded);
}

/* Stopped by Ctrl-C: through spec.cancel, or killed or failed while the
 * signal was arriving. Neither says anything about the strategy. */
static void classify_interrupted(const struct gd_child_result *res,
				 struct gd_try_row *row)
{
	const char *last = res->phase[0] ? res->phase : res->last_line;

	row->outcome = GD_TRY_INTERRUPTED;
	gd_fmt(row->phase, sizeof row->phase, "interrupted after: %s",
	       last[0] ? last : "(no output)");
	gd_sanitize(row->phase);
}

/* Run one strategy. Returns 0, or -1 when the supervisor itself failed. */
static int run_one(struct gd_cli *cli, struct gd_try *t, size_t k)
{
	struct gd_try_row *row = &t->rows[k];
	struct gd_child_spec spec;
	struct gd_child_result res;
	char **env;
	int rc;

	env = gd_profile_apply(&t->list.v.v[k].prof, cli->ctx.env);
	if (env && t->trace_mode) {
		gd_trace_reset(&t->trace, (int)k);
		gd_strlcpy(row->trace_log, t->trace.log, sizeof row->trace_log);
		env = gd_trace_env(&t->trace, env);
	}
	if (!env)
		return -1;
	memset(&spec, 0, sizeof spec);
	memset(&res, 0, sizeof res);
	spec.argv = t->argv;
	spec.envp = env;
	spec.timeout_s = t->timeout;
	spec.phase_pipe = !t->user_cmd;
	spec.search_path = 1;
	spec.on_line = t->expect || t->trace_mode ? on_line : NULL;
	spec.should_stop = t->expect ? should_stop : NULL;
	spec.arg = t;
	spec.cancel = &try_cancel;
	spec.on_deadline = t->trace_mode ? on_deadline : NULL;
	t->cur_row = k;
	t->cur_matched = 0;
	rc = gd_child_run(&spec, &res);
	gd_env_free(env);
	if (rc < 0)
		return -1;
	row->ran = 1;
	gd_trace_finish(&t->trace, row->stuck, row->nstuck);
	classify(t, &res, row);
	if (res.cancelled || (try_cancel && row->outcome != GD_TRY_OK))
		classify_interrupted(&res, row);
	else if (row->outcome != GD_TRY_OK)
		gd_try_explain_row(cli, t, row, res.tail);
	row->nostart = res.outcome == GD_CHILD_NOSTART;
	if (row->nostart) {
		gd_strlcpy(t->nostart_why, res.error, sizeof t->nostart_why);
		t->nostart_errno = res.start_errno;
	}
	return 0;
}

/* The supervisor says "cannot run /usr/bin/x: No such file or directory":
 * keep only the reason, the caller names the command itself. */
static const char *nostart_reason(const char *error)
{
	const char *r = NULL;

	for (const char *p = strstr(error, ": "); p; p = strstr(p + 1, ": "))
		r = p + 2;
	return r && !strncmp(error, "cannot run ", 11) ? r : error;
}

static int run_all(struct gd_cli *cli, struct gd_try *t)
{
	size_t n = t->list.v.n;

	for (size_t k = 0; k < n && !try_cancel; k++) {
		const struct gd_strategy *st = &t->list.v.v[k];

		if (st->kind == GD_STRAT_USER_STEP)
			continue;
		if (!cli->json)
			fprintf(stderr, "gpudoctor try: %s ...\n", st->id);
		if (run_one(cli, t, k) < 0) {
			gd_cli_error(cli, "try: cannot start a child: %s",
				     strerror(errno));
			return -1;
		}
		if (k == 0 && t->rows[k].nostart) {
			fprintf(stderr, "gpudoctor try: cannot run '%s': %s\n",
				t->argv[0], nostart_reason(t->nostart_why));
			/* like run and env(1): 127 not found, 126 found but
			 * not executable (a directory, no x bit, bad ELF) */
			return t->nostart_errno == ENOENT ||
				       t->nostart_errno == ENOTDIR
				   ? -127
				   : -126;
		}
		if (t->rows[k].outcome == GD_TRY_OK && t->first_ok < 0) {
			t->first_ok = (int)k;
			if (t->first)
				break;
		}
	}
	return 0;
}

static int try_setup(struct gd_cli *cli, struct gd_try *t, char **argv)
{
	int rc = t->expect ? gd_regcomp_bounded(&t->expect_re, t->expect,
						REG_EXTENDED | REG_NOSUB)
			   : 0;

	if (rc) {
		t->expect = NULL;
		return gd_cli_usage_error(
		    cli, "try",
		    rc == GD_RE_TOO_LARGE ? "--expect regex too large once "
					    "compiled (its repeats multiply)"
					  : "bad --expect regex");
	}
	t->have_re = t->expect != NULL;
	if (t->user_cmd) {
		t->argv = argv;
	} else {
		t->default_argv[0] = cli->ctx.self_exe;
		t->default_argv[1] = "probe";
		t->default_argv[2] = "--quick";
		t->argv = t->default_argv;
	}
	if (gd_discover(&cli->ctx, &t->m) < 0 ||
	    gd_strategy_candidates(&cli->ctx, &t->m, &t->list) < 0)
		return gd_cli_error(cli, "try: out of memory");
	t->rows = calloc(t->list.v.n, sizeof *t->rows);
	if (!t->rows)
		return gd_cli_error(cli, "try: out of memory");
	if (gd_trace_start(&t->trace, cli->ctx.self_exe, t->trace_mode) < 0)
		return GD_EXIT_ERROR;
	gd_trace_rewrite_note(cli, &t->m, t->trace_mode);
	return -1;
}

int gd_cmd_try(struct gd_cli *cli, int argc, char **argv)
{
	struct gd_try t;
	double t0;
	int rc;

	memset(&t, 0, sizeof t);
	t.trace.fd = -1;
	try_cancel = 0;
	t.timeout = GD_TRY_DEFAULT_TIMEOUT;
	t.first_ok = -1;
	rc = try_parse(cli, argc, argv, &t);
	if (rc < 0)
		rc = try_setup(cli, &t, argv + optind);
	if (rc >= 0)
		goto out;
	gd_plat_interrupts_catch(&try_cancel);
	t0 = gd_now();
	rc = run_all(cli, &t);
	t.total = gd_now() - t0;
	gd_plat_interrupts_restore();
	if (rc == -127 || rc == -126) {
		rc = -rc;
		goto out;
	}
	if (rc < 0) {
		rc = GD_EXIT_ERROR;
		goto out;
	}
	t.interrupted = (int)try_cancel;
	if (t.first_ok < 0 && t.user_cmd && !t.interrupted)
		gd_try_scan_program(cli, &t);
	rc = gd_try_finish(cli, &t);
	if (t.interrupted) {
		fprintf(stderr, "gpudoctor try: interrupted by SIG%s\n",
			sigabbrev_np(t.interrupted)
			    ? sigabbrev_np(t.interrupted)
			    : "?");
		rc = 128 + t.interrupted;
	}
out:
	if (t.have_re)
		regfree(&t.expect_re);
	free(t.rows);
	gd_trace_stop(&t.trace);
	gd_strategy_list_free(&t.list);
	gd_machine_free(&t.m);
	gd_cli_inv_free(&t.inv);
	return rc;
}
