/* gpudoctor entry point: global options, then one command from the table. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "core/plat.h"
#include "gd_version.h"
#include "kb/kb.h"

/* One explicit table (docs/style.md habit 1); hidden rows are re-exec'd
 * children and the completion helper. */
const struct gd_cmd gd_commands[] = {
    {"check", gd_cmd_check,
     "find GPUs, runtimes and frameworks; verdict and next steps per GPU "
     "(default)",
     0, gd_opts_check, NULL, 0},
    {"list", gd_cmd_list, "list GPUs from sysfs, in milliseconds", 0,
     gd_opts_list, NULL, 0},
    {"probe", gd_cmd_probe,
     "run the op matrix per backend in supervised children", 0, gd_opts_probe,
     NULL, 0},
    {"scan", gd_cmd_scan,
     "GPU targets and runtime needs of binaries, libraries, wheels", 0,
     gd_opts_scan, "PATH...", 0},
    {"run", gd_cmd_run, "run a command with this GPU's workaround profile", 0,
     gd_opts_run, "CMD [ARGS...]", 1},
    {"try", gd_cmd_try,
     "try each candidate workaround strategy, keep the first that works", 0,
     gd_opts_try, "CMD [ARGS...]", 1},
    {"env", gd_cmd_env, "print the profile as shell lines to eval", 0,
     gd_opts_env, NULL, 0},
    {"explain", gd_cmd_explain,
     "match an error log against known failure signatures", 0, gd_opts_explain,
     "[LOG|-]", 0},
    {"report", gd_cmd_report,
     "Markdown (or JSON) report to paste into a bug report", 0, gd_opts_report,
     NULL, 0},
    {"gather", gd_cmd_gather,
     "capture the files discovery reads into a .tar.gz", 0, gd_opts_gather,
     "FILE.tar.gz", 0},
    {"kb", gd_cmd_kb, "what the knowledge base knows about a GPU target", 0,
     gd_opts_kb, "[TARGET]", 0},
    {"guide", gd_cmd_guide,
     "GPU setup guide per vendor, from the knowledge base", 0, gd_opts_guide,
     NULL, 0},
    {"nfd", gd_cmd_nfd, "Node Feature Discovery labels (features.d file)", 0,
     gd_opts_nfd, NULL, 0},
    {"metrics", gd_cmd_metrics,
     "the verdicts as Prometheus metrics (node exporter textfile)", 0,
     gd_opts_metrics, NULL, 0},
    {"__probe-child", gd_cmd_probe_child, "internal: one supervised probe", 1,
     NULL, NULL, 0},
    {"__api-check", gd_cmd_api_check,
     "internal: a check with probes for the C API (api/)", 1, gd_opts_check,
     NULL, 0},
    {"__complete", gd_cmd_complete, "internal: shell completion (completion/)",
     1, NULL, NULL, 1},
    {NULL, NULL, NULL, 0, NULL, NULL, 0},
};

enum { OPT_ROOT = 1, OPT_JSON, OPT_KB, OPT_COLOR, OPT_NO_COLOR };
static const char *const color_values[] = {"always", "never", "auto", NULL};

/* Options every command takes, before or after the command's name. */
const struct gd_opt gd_opts_global[] = {
    {"root", 0, OPT_ROOT, GD_ARG_REQUIRED, "DIR",
     "read the machine under DIR (a captured tree);\ndefault $GPUDOCTOR_ROOT, "
     "else /",
     NULL, NULL},
    {"json", 0, OPT_JSON, GD_ARG_NONE, NULL,
     "machine-readable output (schema in docs/json.md)", NULL, NULL},
    {"kb", 0, OPT_KB, GD_ARG_REQUIRED, "FILE",
     "use this knowledge-base file instead of the built-in one", NULL, NULL},
    {"color", 0, OPT_COLOR, GD_ARG_OPTIONAL, "WHEN",
     "always, never or auto (default; NO_COLOR is honoured);\n--color alone is "
     "always",
     color_values, NULL},
    {"no-color", 0, OPT_NO_COLOR, GD_ARG_NONE, NULL, "same as --color=never",
     NULL, NULL},
    {"no-colour", 0, OPT_NO_COLOR, GD_ARG_NONE, NULL, NULL, NULL, NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
};

/* gpudoctor's own, before any command (pick_command reads them). */
const struct gd_opt gd_opts_top[] = {
    {"help", 'h', 'h', GD_ARG_NONE, NULL,
     "this help ('gpudoctor COMMAND --help': a command's own)", NULL, NULL},
    {"version", 'V', 'V', GD_ARG_NONE, NULL,
     "version of gpudoctor and of its knowledge base", NULL, NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
};

const struct gd_cmd *gd_cli_find(const char *name)
{
	for (const struct gd_cmd *c = gd_commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: gpudoctor [OPTIONS] [COMMAND] [COMMAND OPTIONS]\n\n"
		"Tells why GPU acceleration for ML work does or doesn't work "
		"on this machine,\nand what to do next.\n\nCommands:\n");
	for (const struct gd_cmd *c = gd_commands; c->name; c++)
		if (!c->hidden)
			fprintf(f, "  %-9s %s\n", c->name, c->summary);
	fprintf(f, "\nOptions:\n");
	gd_opts_help(f, gd_opts_top);
	fprintf(f, "\n");
	gd_cli_common_help(f);
	fprintf(f, "\n'gpudoctor COMMAND --help' for a command's own options; "
		   "'man gpudoctor' for more.\n"
		   "Exit status: 0 a GPU works, 1 GPU present but not usable "
		   "as is, 2 no GPU, 3 gpudoctor's own error.\n");
}

struct globals {
	const char *root;
	int color_mode; /* 1 always, 0 never, -1 auto */
};

/* One global option, found in gd_opts_global; *i moves past its value. */
static int global_opt(struct gd_cli *cli, const struct gd_opt *o, int argc,
		      char **argv, int *i, struct globals *g)
{
	const char *a = argv[*i], *eq = strchr(a, '='), *v = eq ? eq + 1 : NULL;
	char list[128];

	if (eq && o->arg == GD_ARG_NONE)
		return 0; /* "--json=x": not ours, the command says so */
	if (!v && o->arg == GD_ARG_REQUIRED) {
		if (*i + 1 >= argc) {
			fprintf(stderr, "gpudoctor: %s needs a value\n", a);
			return -1;
		}
		v = argv[++*i];
	}
	if (v && !gd_opts_value_ok(o, v)) {
		gd_opts_values_text(o, list, sizeof list);
		fprintf(stderr, "gpudoctor: --%s takes %s, not '%s'\n", o->name,
			list, v);
		return -1;
	}
	switch (o->id) {
	case OPT_ROOT:
		g->root = v;
		break;
	case OPT_JSON:
		cli->json = 1;
		break;
	case OPT_KB:
		cli->kb_path = v;
		break;
	case OPT_COLOR:
		g->color_mode = !v || !strcmp(v, "always") ? 1
				: !strcmp(v, "never")	   ? 0
							   : -1;
		break;
	default:
		g->color_mode = 0;
		break;
	}
	return 1;
}

/* Whether word a is the command's option o written without its value
 * ("--profile NAME", "-p NAME"), so the next word is that value. */
static int value_follows(const struct gd_opt *o, const char *a)
{
	if (!o || o->arg != GD_ARG_REQUIRED)
		return 0;
	return a[1] == '-' ? !strchr(a, '=') : a[2] == '\0';
}

/* Global options may come before or after the command, but never inside
 * the user's own command line (after "--", or after run's / try's first
 * operand). They are removed from argv; the command's own options that take
 * a value keep it (from the command's table). Returns the new argc or -1 on
 * a usage error. */
static int take_globals(struct gd_cli *cli, int argc, char **argv,
			struct globals *g)
{
	const struct gd_cmd *cmd = gd_cli_find("check"); /* until named */
	int out = 1, i, r, named = 0;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const struct gd_opt *o = NULL;

		if (!strcmp(a, "--"))
			break;
		if (a[0] == '-' && a[1] == '-')
			o = gd_opts_find(gd_opts_global, a);
		r = o ? global_opt(cli, o, argc, argv, &i, g) : 0;
		if (r < 0)
			return -1;
		if (r)
			continue;
		if (a[0] != '-' && !named) {
			named = 1;
			cmd = gd_cli_find(a);
		} else if (a[0] != '-' && cmd && cmd->own_argv) {
			break; /* the user's command starts here */
		} else if (a[0] == '-' && cmd && cmd->opts && i + 1 < argc &&
			   value_follows(gd_opts_find(cmd->opts, a), a)) {
			argv[out++] = argv[i++];
		}
		argv[out++] = argv[i];
	}
	for (; i < argc; i++)
		argv[out++] = argv[i];
	argv[out] = NULL;
	return out;
}

#ifdef GD_KB_INSTALLED
/* Whether the installed copy claims a newer kb_date than the built-in one,
 * from the first bytes of the file alone: every command starts here, and
 * a full parse (a few ms) is paid only when the file is worth loading; that
 * parse then validates everything, this glance included. */
static int installed_newer(const char *path, const char *builtin_date)
{
	char head[512], date[32];
	const char *p;
	FILE *f = gd_kb_fopen(path); /* a FIFO there must not hang us */
	size_t n;

	if (!f)
		return 0;
	n = fread(head, 1, sizeof head - 1, f);
	fclose(f);
	head[n] = '\0';
	p = strstr(head, "\"kb_date\"");
	if (!p || !builtin_date ||
	    sscanf(p, "\"kb_date\" : \"%31[^\"]\"", date) != 1)
		return 0;
	return strcmp(date, builtin_date) > 0;
}
#endif

/* The knowledge base: --kb FILE when given; else the copy installed beside
 * the program when it is newer than the built-in one (a newer file dropped
 * in without recompiling); else the built-in copy. A file that does not load
 * is reported with its line, and the built-in copy is used. */
static void load_kb(struct gd_cli *cli)
{
	char err[512];
	const char *path = cli->kb_path;
	gd_kb *kb;

	cli->ctx.kb = gd_kb_load_embedded();
#ifdef GD_KB_INSTALLED
	if (!path && installed_newer(GD_KB_INSTALLED, gd_kb_date(cli->ctx.kb)))
		path = GD_KB_INSTALLED;
#endif
	if (!path)
		return;
	kb = gd_kb_load_file(path, err, sizeof err);
	if (!kb) {
		fprintf(stderr,
			"gpudoctor: %s; using the built-in knowledge "
			"base\n",
			err);
		return;
	}
	gd_kb_free(cli->ctx.kb);
	cli->ctx.kb = kb;
}

/* Which command runs, with which argv; NULL when nothing is left to run
 * (help, version, an unknown command), *rc then holds the exit status. */
static const struct gd_cmd *pick_command(int argc, char **argv, int *cmd_argc,
					 char ***cmd_argv, char **help_argv,
					 int *rc)
{
	const struct gd_cmd *cmd;

	*rc = GD_EXIT_OK;
	*cmd_argc = argc - 1;
	*cmd_argv = argv + 1;
	if (argc > 1 &&
	    (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return NULL;
	}
	if (argc > 1 && !strcmp(argv[1], "help")) {
		if (argc > 2 && (cmd = gd_cli_find(argv[2])) && !cmd->hidden) {
			help_argv[0] = argv[2]; /* "help CMD" is "CMD --help" */
			*cmd_argv = help_argv;
			*cmd_argc = 2;
			return cmd;
		}
		usage(stdout);
		return NULL;
	}
	if (argc < 2 || argv[1][0] == '-') {
		*cmd_argc = argc;
		*cmd_argv = argv; /* argv[0] stands in for the command name */
		return gd_cli_find("check");
	}
	cmd = gd_cli_find(argv[1]);
	if (!cmd) {
		fprintf(stderr,
			"gpudoctor: unknown command '%s' "
			"(see 'gpudoctor --help')\n",
			argv[1]);
		*rc = GD_EXIT_ERROR;
	}
	return cmd;
}

/* "gpudoctor 0.2.0-12-gabc1234 (knowledge base 2026-11-22)": the build's
 * version (git describe) and the date of the kb a command would use. */
static int print_version(struct gd_cli *cli)
{
	const char *date;

	load_kb(cli);
	date = gd_kb_date(cli->ctx.kb);
	printf("gpudoctor %s (knowledge base %s)\n", GD_VERSION_FULL,
	       date ? date : "unknown");
	gd_kb_free(cli->ctx.kb);
	return GD_EXIT_OK;
}

/* The context, colour rule, our own path (for re-exec) and the kb. */
static int cli_setup(struct gd_cli *cli, const char *root, int color_mode)
{
	const char *nc, *term;
	int rc;

	cli->tty = isatty(STDOUT_FILENO);
	rc = gd_ctx_init(&cli->ctx, root, gd_plat_environ());
	if (rc < 0) {
		const char *env_root = getenv("GPUDOCTOR_ROOT");

		fprintf(stderr, "gpudoctor: cannot use root '%s': %s\n",
			root			? root
			: env_root && *env_root ? env_root
						: "/",
			strerror(-rc));
		return -1;
	}
	/* the user's terminal settings, even when judging a captured machine */
	nc = gd_ctx_live_getenv(&cli->ctx, "NO_COLOR");
	term = gd_ctx_live_getenv(&cli->ctx, "TERM");
	cli->color = color_mode >= 0
			 ? color_mode
			 : cli->tty && !(nc && *nc) && !gd_streq(term, "dumb");
	gd_plat_self_exe(cli->ctx.self_exe, sizeof cli->ctx.self_exe);
	load_kb(cli);
	return 0;
}

int main(int argc, char **argv)
{
	struct gd_cli cli;
	const struct gd_cmd *cmd;
	struct globals g = {NULL, -1};
	int rc, cmd_argc;
	char **cmd_argv;
	char *help_argv[3] = {NULL, "--help", NULL};

	memset(&cli, 0, sizeof cli);
	cli.prog = argv[0];
	/* the words being completed are the user's, global options included */
	if (argc > 1 && !strcmp(argv[1], "__complete"))
		return gd_cli_complete(argc - 2, argv + 2);
	argc = take_globals(&cli, argc, argv, &g);
	if (argc < 0)
		return GD_EXIT_ERROR;
	if (argc > 1 &&
	    (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")))
		return print_version(&cli);
	cmd = pick_command(argc, argv, &cmd_argc, &cmd_argv, help_argv, &rc);
	if (!cmd)
		return rc;
	if (cli_setup(&cli, g.root, g.color_mode) < 0) {
		gd_ctx_free(&cli.ctx);
		return GD_EXIT_ERROR;
	}
	optind =
	    0; /* each command runs its own getopt_long from a clean state */
	opterr = 0; /* one message, ours (gd_cli_usage_error), not two */
	cli.argc = cmd_argc;
	cli.argv = cmd_argv;
	rc = cmd->fn(&cli, cmd_argc, cmd_argv);
	fflush(stdout);
	gd_kb_free(cli.ctx.kb);
	gd_ctx_free(&cli.ctx);
	return rc;
}
