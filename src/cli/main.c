/* gpudoctor entry point: global options, then one command from the table. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "kb/kb.h"

extern char **environ;

/* One explicit table (STYLE.md habit 1); hidden rows are re-exec'd children. */
const struct gd_cmd gd_commands[] = {
	{"check", gd_cmd_check, "find GPUs, runtimes and frameworks; verdict and next steps per GPU (default)", 0},
	{"list", gd_cmd_list, "list GPUs from sysfs, in milliseconds", 0},
	{"probe", gd_cmd_probe, "run the op matrix per backend in supervised children", 0},
	{"scan", gd_cmd_scan, "GPU targets and runtime needs of binaries, libraries, wheels", 0},
	{"run", gd_cmd_run, "run a command with this GPU's workaround profile", 0},
	{"try", gd_cmd_try, "try each candidate workaround strategy, keep the first that works", 0},
	{"env", gd_cmd_env, "print the profile as shell lines to eval", 0},
	{"explain", gd_cmd_explain, "match an error log against known failure signatures", 0},
	{"report", gd_cmd_report, "Markdown (or JSON) report to paste into a bug report", 0},
	{"gather", gd_cmd_gather, "capture the files discovery reads into a .tar.gz", 0},
	{"kb", gd_cmd_kb, "what the knowledge base knows about a GPU target", 0},
	{"__probe-child", gd_cmd_probe_child, "internal: one supervised probe", 1},
	{NULL, NULL, NULL, 0},
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
	fprintf(f, "Usage: gpudoctor [OPTIONS] [COMMAND] [COMMAND OPTIONS]\n\n"
		   "Tells why GPU acceleration for ML work does or doesn't work "
		   "on this machine,\nand what to do next.\n\nCommands:\n");
	for (const struct gd_cmd *c = gd_commands; c->name; c++)
		if (!c->hidden)
			fprintf(f, "  %-9s %s\n", c->name, c->summary);
	fprintf(f, "\n");
	gd_cli_common_help(f);
	fprintf(f, "\n'gpudoctor COMMAND --help' for a command's own options; "
		   "'man gpudoctor' for more.\n"
		   "Exit status: 0 a GPU works, 1 GPU present but not usable "
		   "as is, 2 no GPU, 3 gpudoctor's own error.\n");
}

/* Global options may come before or after the command, but never after
 * "--" (everything there belongs to the user's command). They are removed
 * from argv; returns the new argc or -1 on a usage error. */
/* run and try take a command line of the user's own: it starts at the
 * first word that is not one of their options (with or without "--"),
 * and nothing from there on is ours. These of their options take a value. */
static int takes_value(const char *a)
{
	static const char *const v[] = {"-p", "--profile", "-t", "--timeout",
					 "-e", "--expect", "--save-as", NULL};

	for (size_t i = 0; v[i]; i++)
		if (!strcmp(a, v[i]))
			return 1;
	return 0;
}

static int global_opt(struct gd_cli *cli, int argc, char **argv, int *i,
		      const char **root, int *color_mode)
{
	const char *a = argv[*i];

	if (!strcmp(a, "--json")) {
		cli->json = 1;
	} else if (!strcmp(a, "--no-color") || !strcmp(a, "--no-colour")) {
		*color_mode = 0;
	} else if (!strncmp(a, "--color=", 8)) {
		if (!strcmp(a + 8, "always"))
			*color_mode = 1;
		else if (!strcmp(a + 8, "never"))
			*color_mode = 0;
		else if (!strcmp(a + 8, "auto"))
			*color_mode = -1;
		else {
			fprintf(stderr, "gpudoctor: --color takes always, never "
					"or auto, not '%s'\n", a + 8);
			return -1;
		}
	} else if (!strcmp(a, "--root") || !strcmp(a, "--kb")) {
		if (*i + 1 >= argc) {
			fprintf(stderr, "gpudoctor: %s needs a value\n", a);
			return -1;
		}
		if (a[2] == 'r')
			*root = argv[++*i];
		else
			cli->kb_path = argv[++*i];
	} else if (!strncmp(a, "--root=", 7)) {
		*root = a + 7;
	} else if (!strncmp(a, "--kb=", 5)) {
		cli->kb_path = a + 5;
	} else {
		return 0;
	}
	return 1;
}

/* Global options may come before or after the command, but never inside
 * the user's own command line (after "--", or after run's / try's first
 * non-option word). They are removed from argv; returns the new argc or -1
 * on a usage error. */
static int take_globals(struct gd_cli *cli, int argc, char **argv,
			const char **root, int *color_mode)
{
	const char *cmd = NULL;
	int out = 1, i, r;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--"))
			break;
		r = global_opt(cli, argc, argv, &i, root, color_mode);
		if (r < 0)
			return -1;
		if (r)
			continue;
		if (a[0] != '-' && !cmd) {
			cmd = a;
		} else if (a[0] != '-' && (!strcmp(cmd, "run") || !strcmp(cmd, "try"))) {
			break; /* the user's command starts here */
		} else if (cmd && takes_value(a) && i + 1 < argc) {
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
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return 0;
	n = fread(head, 1, sizeof head - 1, f);
	fclose(f);
	head[n] = '\0';
	p = strstr(head, "\"kb_date\"");
	if (!p || !builtin_date || sscanf(p, "\"kb_date\" : \"%31[^\"]\"", date) != 1)
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
	if (!path && installed_newer(GD_KB_INSTALLED,
					 gd_kb_date(cli->ctx.kb)))
		path = GD_KB_INSTALLED;
#endif
	if (!path)
		return;
	kb = gd_kb_load_file(path, err, sizeof err);
	if (!kb) {
		fprintf(stderr, "gpudoctor: %s; using the built-in knowledge "
				"base\n", err);
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
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return NULL;
	}
	if (argc > 1 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))) {
		printf("gpudoctor %s\n", GD_VERSION);
		return NULL;
	}
	if (argc > 1 && !strcmp(argv[1], "help")) {
		if (argc > 2 && (cmd = gd_cli_find(argv[2]))) {
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
		fprintf(stderr, "gpudoctor: unknown command '%s' "
				"(see 'gpudoctor --help')\n", argv[1]);
		*rc = GD_EXIT_ERROR;
	}
	return cmd;
}

/* The context, colour rule, our own path (for re-exec) and the kb. */
static int cli_setup(struct gd_cli *cli, const char *root, int color_mode)
{
	const char *nc, *term;
	ssize_t n;
	int rc;

	cli->tty = isatty(STDOUT_FILENO);
	rc = gd_ctx_init(&cli->ctx, root, environ);
	if (rc < 0) {
		const char *env_root = getenv("GPUDOCTOR_ROOT");

		fprintf(stderr, "gpudoctor: cannot use root '%s': %s\n",
			root ? root : env_root && *env_root ? env_root : "/",
			strerror(-rc));
		return -1;
	}
	/* the user's terminal settings, even when judging a captured machine */
	nc = gd_ctx_live_getenv(&cli->ctx, "NO_COLOR");
	term = gd_ctx_live_getenv(&cli->ctx, "TERM");
	cli->color = color_mode >= 0 ? color_mode
		     : cli->tty && !(nc && *nc) && !gd_streq(term, "dumb");
	n = readlink("/proc/self/exe", cli->ctx.self_exe,
		     sizeof cli->ctx.self_exe - 1);
	if (n > 0)
		cli->ctx.self_exe[n] = '\0';
	load_kb(cli);
	return 0;
}

int main(int argc, char **argv)
{
	struct gd_cli cli;
	const struct gd_cmd *cmd;
	const char *root = NULL;
	int color_mode = -1, rc, cmd_argc;
	char **cmd_argv;
	char *help_argv[3] = {NULL, "--help", NULL};

	memset(&cli, 0, sizeof cli);
	cli.prog = argv[0];
	argc = take_globals(&cli, argc, argv, &root, &color_mode);
	if (argc < 0)
		return GD_EXIT_ERROR;
	cmd = pick_command(argc, argv, &cmd_argc, &cmd_argv, help_argv, &rc);
	if (!cmd)
		return rc;
	if (cli_setup(&cli, root, color_mode) < 0) {
		gd_ctx_free(&cli.ctx);
		return GD_EXIT_ERROR;
	}
	optind = 0; /* each command runs its own getopt_long from a clean state */
	opterr = 0; /* one message, ours (gd_cli_usage_error), not two */
	cli.argc = cmd_argc;
	cli.argv = cmd_argv;
	rc = cmd->fn(&cli, cmd_argc, cmd_argv);
	fflush(stdout);
	gd_kb_free(cli.ctx.kb);
	gd_ctx_free(&cli.ctx);
	return rc;
}
