/* gpudoctor run [--profile NAME] [--] CMD ARGS...: apply the profile, say
 * so in one line on stderr, and run CMD directly (execvp semantics on the
 * user's argv: no shell ever sees the arguments) as our child, its output
 * passed through, and when it fails explain's cause in that output under
 * it (run_explain.c); --no-explain execs CMD in our place instead. The
 * exit status is CMD's (128 + N when signal N ended it); like env(1), 125
 * when gpudoctor itself fails, 126 when CMD cannot be run, 127 when it is
 * not found. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "core/plat.h"
#include "probe/supervisor.h"
#include "run_tee.h"
#include "trace_cli.h"
#include "wa_common.h"

enum { RUN_EXIT_OWN = 125, RUN_EXIT_NOEXEC = 126, RUN_EXIT_NOTFOUND = 127 };

static const char *const trace_modes[] = {"hang", "log",   "rewrite",
					  "deep", "hooks", NULL};

const struct gd_opt gd_opts_run[] = {
    {"profile", 'p', 'p', GD_ARG_REQUIRED, "NAME",
     "a named profile ($XDG_CONFIG_HOME/gpudoctor/NAME.profile)\nor a path to "
     "a profile file",
     NULL, NULL},
    {"quiet", 'q', 'q', GD_ARG_NONE, NULL, "no line on stderr before CMD", NULL,
     NULL},
    {"dry-run", 'n', 'n', GD_ARG_NONE, NULL,
     "print what would run (with --json: as JSON) and stop", NULL, NULL},
    {"trace", 0, 'T', GD_ARG_OPTIONAL, "MODE",
     "preload libgpudoctor-trace.so (MODE hang, log, rewrite,\ndeep (CUPTI "
     "driver API too), hooks (no CUPTI), or a\ncomma list; log prints the "
     "call log's path; see\ndocs/trace.md)",
     trace_modes, NULL},
    {"watch", 0, 'W', GD_ARG_REQUIRED, "S",
     "supervise CMD with --trace; at S seconds name the GPU call\neach stuck "
     "thread is in, why it can block and, for Python,\nthe line "
     "(PYTHONFAULTHANDLER); end CMD, exit 124.\nGPUDOCTOR_TRACE_LOG_MAX caps "
     "the log (default 256M)",
     NULL, NULL},
    {"no-explain", 0, 'X', GD_ARG_NONE, NULL,
     "exec CMD in gpudoctor's place: no explanation when it\nfails, its "
     "output not read",
     NULL, NULL},
    {"help", 'h', 'h', GD_ARG_NONE, NULL, "this help", NULL, NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
};

static void usage(FILE *f)
{
	fprintf(
	    f, "Usage: gpudoctor run [--profile NAME] [-q] [-n] [--no-explain] "
	       "[--] CMD\n       [ARGS...]\n\n"
	       "Run CMD with a workaround profile: the one named with "
	       "--profile, else this\nGPU's saved profile (written by "
	       "'gpudoctor try --save'), else a strategy\nthe knowledge base "
	       "marks \"recommended\" (none does today), else nothing:\n"
	       "CMD then runs unchanged. A profile saved with 'try --save-as "
	       "NAME' needs\n--profile NAME. One line on stderr says what was "
	       "applied. CMD is executed\ndirectly, never through a shell; "
	       "the exit status is CMD's (128+N: killed by\nsignal N; 125: "
	       "gpudoctor failed, 126: CMD cannot run, 127: CMD not found).\n"
	       "CMD's output reaches the terminal as it comes, unchanged; when "
	       "CMD fails,\nthe cause 'gpudoctor explain' finds in that output "
	       "and a fix for CMD\nfollow on stderr (--no-explain: CMD "
	       "replaces gpudoctor instead).\n\n");
	gd_opts_help(f, gd_opts_run);
	fprintf(f, "\n");
	gd_cli_common_help(f);
	fprintf(f, "\nWith --json the stderr line is one JSON object, and when "
		   "CMD fails a second\none says how, with the cause. CMD "
		   "starts at the first word that is not an\noption (or "
		   "after --): everything from there, options included, "
		   "belongs\nto CMD.\n");
}

static json_t *run_json(const struct gd_pick *pk, char **argv)
{
	json_t *doc = gd_cli_json_doc("run");
	json_t *args = json_array();

	json_object_update_new(doc, gd_wa_pick_json(pk));
	for (size_t i = 0; argv[i]; i++)
		json_array_append_new(args, gd_wa_jstr(argv[i]));
	json_object_set_new(doc, "argv", args);
	return doc;
}

static void announce(struct gd_cli *cli, const struct gd_pick *pk, char **argv,
		     int quiet, int dry)
{
	char line[1024];

	if (cli->json) {
		json_t *doc = run_json(pk, argv);

		if (dry) {
			gd_cli_emit_json(cli, doc);
			return;
		}
		json_dumpf(doc, stderr,
			   JSON_COMPACT | JSON_PRESERVE_ORDER |
			       JSON_ENSURE_ASCII);
		fputc('\n', stderr);
		json_decref(doc);
		return;
	}
	gd_wa_describe(pk, line, sizeof line);
	if (dry) {
		printf("%s\nwould run:", line);
		for (size_t i = 0; argv[i]; i++)
			printf(" [%s]", argv[i]);
		printf("\n");
	} else if (!quiet) {
		fprintf(stderr, "gpudoctor: %s\n", line);
	}
}

struct run_opts {
	const char *profile;
	int quiet, dry, trace, no_explain;
	double watch;
};

static int parse_opts(struct gd_cli *cli, int argc, char **argv,
		      struct run_opts *o)
{
	struct gd_getopt g;
	int c;

	/* '+': stop at CMD, so its own options stay its own. */
	gd_opts_build(&g, gd_opts_run, 1);
	while ((c = getopt_long(argc, argv, g.so, g.lo, NULL)) != -1) {
		switch (c) {
		case 'p':
			o->profile = optarg;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 'n':
			o->dry = 1;
			break;
		case 'X':
			o->no_explain = 1;
			break;
		case 'T':
			o->trace = gd_trace_mode_parse(optarg);
			if (o->trace < 0)
				return gd_cli_usage_error(
				    cli, "run",
				    "bad "
				    "--trace '%s' (hang, log, rewrite, deep, "
				    "hooks; a comma list)",
				    optarg);
			break;
		case 'W':
			o->watch = strtod(optarg, NULL);
			if (!(o->watch > 0) || o->watch > 86400)
				return gd_cli_usage_error(
				    cli, "run",
				    "bad "
				    "--watch '%s' (seconds, > 0)",
				    optarg);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			return gd_cli_usage_error(cli, "run", "unknown option");
		}
	}
	if (optind >= argc)
		return gd_cli_usage_error(cli, "run", "no command given");
	/* --watch names the stuck call where the tracer exists; elsewhere
	 * (Windows) it is the deadline alone */
	if (o->watch > 0 && !o->trace && gd_trace_available())
		o->trace = GD_TRACE_M_HANG;
	return -1;
}

struct watch {
	struct gd_trace_run *tr;
	int nstuck;
	struct gd_trace_stuck stuck[GD_TRACE_MAX_STUCK];
	char unrecorded[120]; /* slots ran out */
};

static void watch_line(void *arg, int is_phase, const char *line)
{
	struct watch *w = arg;

	if (!is_phase && !gd_trace_capture(w->tr, line))
		printf("%s\n", line);
	fflush(stdout);
}

static int watch_deadline(void *arg, int pid)
{
	struct watch *w = arg;

	(void)pid;
	return gd_trace_deadline(w->tr, w->stuck, GD_TRACE_MAX_STUCK,
				 &w->nstuck, w->unrecorded,
				 sizeof w->unrecorded);
}

/* Windows: the exit status of CMD, which ran as our child; a crash (an
 * NTSTATUS 0xC...) is said by name. */
static int run_status(const char *cmd, unsigned status)
{
	char crash[64];

	if ((status & 0xF0000000u) == 0xC0000000u) {
		gd_plat_crash_name(status, crash, sizeof crash);
		fprintf(stderr, "gpudoctor run: %s crashed: %s\n", cmd, crash);
	}
	return (int)status;
}

/* The signal that interrupted `run --watch` (any that would end us:
 * gd_plat_interrupts_catch), 0 none: the supervisor then ends CMD's whole
 * group, as at the deadline, before we exit. */
static volatile int run_cancel;

/* --watch: CMD runs supervised; at the deadline the hang report. */
static int run_watched(struct gd_trace_run *tr, char **cmd, char **env,
		       double secs)
{
	struct gd_child_spec spec;
	struct gd_child_result res;
	struct watch w;
	int rc;

	memset(&spec, 0, sizeof spec);
	memset(&res, 0, sizeof res);
	memset(&w, 0, sizeof w);
	w.tr = tr;
	spec.argv = cmd;
	spec.envp = env;
	spec.timeout_s = secs;
	spec.search_path = 1;
	spec.on_line = watch_line;
	spec.on_deadline = watch_deadline;
	spec.arg = &w;
	spec.cancel = &run_cancel;
	run_cancel = 0;
	gd_plat_interrupts_catch(&run_cancel);
	rc = gd_child_run(&spec, &res);
	gd_plat_interrupts_restore();
	if (rc < 0) {
		fprintf(stderr, "gpudoctor run: cannot start a child\n");
		return RUN_EXIT_OWN;
	}
	if (res.cancelled && run_cancel) {
		fprintf(
		    stderr, "gpudoctor run: interrupted by SIG%s; %s stopped\n",
		    sigabbrev_np(run_cancel) ? sigabbrev_np(run_cancel) : "?",
		    cmd[0]);
		return 128 + run_cancel;
	}
	if (res.outcome == GD_CHILD_NOSTART) {
		fprintf(stderr, "gpudoctor run: %s\n", res.error);
		return RUN_EXIT_NOTFOUND;
	}
	if (res.outcome == GD_CHILD_SIGNALED) {
		char crash[64];

		gd_plat_crash_name((unsigned)res.signo, crash, sizeof crash);
		fprintf(stderr, "gpudoctor run: %s crashed: %s\n", cmd[0],
			crash);
		/* a shell's 128 + signal; Windows: the NTSTATUS itself, as
		 * cmd.exe reports a crashed program's exit code */
		return res.signo < 128 ? 128 + res.signo : res.signo;
	}
	if (res.outcome == GD_CHILD_EXITED)
		return res.exit_code;
	fprintf(stderr, "gpudoctor run: no exit after %.1f s; stopped.%s\n",
		res.seconds,
		w.nstuck || !tr->map || w.unrecorded[0]
		    ? ""
		    : " No thread was inside a traced GPU call.");
	gd_trace_finish(tr, w.stuck, w.nstuck);
	for (int i = 0; i < w.nstuck; i++) {
		fprintf(stderr, "gpudoctor run: %s\n", w.stuck[i].line);
		if (w.stuck[i].python[0])
			fprintf(stderr, "gpudoctor run:   python: %s\n",
				w.stuck[i].python);
		if (w.stuck[i].why[0])
			fprintf(stderr, "gpudoctor run:   why: %s\n",
				w.stuck[i].why);
	}
	if (w.unrecorded[0])
		fprintf(stderr, "gpudoctor run: %s\n", w.unrecorded);
	return 124; /* as timeout(1) */
}

/* --trace: the library, the region and the log; NULL env on failure
 * (message said). The region's fd outlives us across exec. */
static char **add_trace(struct gd_cli *cli, const struct run_opts *o,
			struct gd_trace_run *tr, char **env)
{
	if (!env || !o->trace || o->dry)
		return env;
	if (gd_trace_start(tr, cli->ctx.self_exe, o->trace) < 0) {
		gd_env_free(env);
		return NULL;
	}
	env = gd_trace_env(tr, env);
	if (tr->log[0] && !o->quiet)
		fprintf(stderr, "gpudoctor: trace log: %s\n", tr->log);
	return env;
}

/* CMD in our place (POSIX), or waited on (Windows). */
static int run_exec(struct gd_cli *cli, char **cmd, char **env)
{
	unsigned status = 0;
	int e;

	fflush(stdout);
	fflush(stderr);
	gd_fs_close(&cli->ctx.fs);
	/* CMD is looked up in the PATH of the environment CMD gets, as
	 * env(1) does and as a shell that evaluated `gpudoctor env` would.
	 * Windows has no exec: CMD runs in a job we wait on, and its exit
	 * status is ours. */
	e = gd_plat_exec(cmd, env, &status);
	if (!e) {
		gd_env_free(env);
		return run_status(cmd[0], status);
	}
	e = -e;
	fprintf(stderr, "gpudoctor run: cannot run '%s': %s\n", cmd[0],
		strerror(e));
	return e == ENOENT || e == ENOTDIR ? RUN_EXIT_NOTFOUND
					   : RUN_EXIT_NOEXEC;
}

/* CMD as our child, explained when it fails; else (--no-explain, or no
 * way to here) exec'd. */
static int run_cmd(struct gd_cli *cli, const struct run_opts *o,
		   struct gd_machine *m, struct gd_pick *pk, char **cmd,
		   char **env)
{
	json_t *doc = NULL;
	int rc = -1;

	if (!o->no_explain) {
		doc = cli->json ? run_json(pk, cmd) : NULL;
		rc = gd_run_explained(cli, m, doc, cmd, env);
		json_decref(doc);
	}
	gd_machine_free(m);
	gd_pick_free(pk);
	if (rc >= 0) {
		gd_env_free(env);
		return rc;
	}
	return run_exec(cli, cmd, env);
}

int gd_cmd_run(struct gd_cli *cli, int argc, char **argv)
{
	struct run_opts o = {NULL, 0, 0, 0, 0, 0};
	struct gd_trace_run tr = {.fd = -1};
	struct gd_machine m;
	struct gd_pick pk;
	char **env, **cmd;
	int rc;

	rc = parse_opts(cli, argc, argv, &o);
	if (rc == GD_EXIT_ERROR)
		return RUN_EXIT_OWN;
	if (rc >= 0)
		return rc;
	cmd = argv + optind;
	if (gd_wa_pick(cli, "run", o.profile, &m, &pk) < 0) {
		gd_machine_free(&m);
		gd_pick_free(&pk);
		return RUN_EXIT_OWN;
	}
	env = add_trace(cli, &o, &tr, gd_profile_apply(&pk.prof, cli->ctx.env));
	if (env && !o.quiet && !o.dry)
		gd_trace_rewrite_note(cli, &m, o.trace);
	announce(cli, &pk, cmd, o.quiet, o.dry);
	if (!env || o.dry || o.watch > 0) {
		gd_machine_free(&m);
		gd_pick_free(&pk);
	}
	if (!env) {
		fprintf(stderr, "gpudoctor run: cannot prepare the "
				"environment\n");
		return RUN_EXIT_OWN;
	}
	if (o.dry) {
		gd_env_free(env);
		return GD_EXIT_OK;
	}
	if (o.watch > 0) {
		rc = run_watched(&tr, cmd, env, o.watch);
		gd_env_free(env);
		gd_trace_stop(&tr);
		return rc;
	}
	rc = run_cmd(cli, &o, &m, &pk, cmd, env);
	gd_trace_stop(&tr); /* reached when CMD ran as our child */
	return rc;
}
