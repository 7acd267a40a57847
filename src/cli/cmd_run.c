/* gpudoctor run [--profile NAME] [--] CMD ARGS...: apply the profile, say
 * so in one line on stderr, and exec CMD directly (execvp semantics on
 * the user's argv: no shell ever sees the arguments). The exit status is
 * CMD's; like env(1), 125 when gpudoctor itself fails, 126 when CMD
 * cannot be run, 127 when it is not found. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "wa_common.h"

extern char **environ;

enum { RUN_EXIT_OWN = 125, RUN_EXIT_NOEXEC = 126, RUN_EXIT_NOTFOUND = 127 };

const struct gd_opt gd_opts_run[] = {
	{"profile", 'p', 'p', GD_ARG_REQUIRED, "NAME", "a named profile ($XDG_CONFIG_HOME/gpudoctor/NAME.profile)\nor a path to a profile file", NULL, NULL},
	{"quiet", 'q', 'q', GD_ARG_NONE, NULL, "no line on stderr", NULL, NULL},
	{"dry-run", 'n', 'n', GD_ARG_NONE, NULL, "print what would run (with --json: as JSON) and stop", NULL, NULL},
	{"help", 'h', 'h', GD_ARG_NONE, NULL, "this help", NULL, NULL},
	{NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: gpudoctor run [--profile NAME] [-q] [-n] [--] CMD [ARGS...]\n\n"
		"Run CMD with a workaround profile: the one named with "
		"--profile, else this\nGPU's saved profile (written by "
		"'gpudoctor try --save'), else a strategy\nthe knowledge base "
		"marks \"recommended\" (none does today), else nothing:\n"
		"CMD then runs unchanged. A profile saved with 'try --save-as "
		"NAME' needs\n--profile NAME. One line on stderr says what was "
		"applied. CMD is executed\ndirectly, never through a shell; "
		"the exit status is CMD's (125: gpudoctor\nfailed, 126: CMD "
		"cannot run, 127: CMD not found).\n\n");
	gd_opts_help(f, gd_opts_run);
	fprintf(f, "\n");
	gd_cli_common_help(f);
	fprintf(f, "\nWith --json the stderr line is one JSON object. CMD "
		   "starts at the first word\nthat is not an option (or "
		   "after --): everything from there, options\nincluded, "
		   "belongs to CMD.\n");
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

static void announce(struct gd_cli *cli, const struct gd_pick *pk,
		     char **argv, int quiet, int dry)
{
	char line[1024];

	if (cli->json) {
		json_t *doc = run_json(pk, argv);

		if (dry) {
			gd_cli_emit_json(cli, doc);
			return;
		}
		json_dumpf(doc, stderr, JSON_COMPACT | JSON_PRESERVE_ORDER |
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

static int parse_opts(struct gd_cli *cli, int argc, char **argv,
		      const char **profile, int *quiet, int *dry)
{
	struct gd_getopt g;
	int c;

	/* '+': stop at CMD, so its own options stay its own. */
	gd_opts_build(&g, gd_opts_run, 1);
	while ((c = getopt_long(argc, argv, g.so, g.lo, NULL)) != -1) {
		switch (c) {
		case 'p':
			*profile = optarg;
			break;
		case 'q':
			*quiet = 1;
			break;
		case 'n':
			*dry = 1;
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
	return -1;
}

int gd_cmd_run(struct gd_cli *cli, int argc, char **argv)
{
	const char *profile = NULL;
	int quiet = 0, dry = 0, rc, e;
	struct gd_machine m;
	struct gd_pick pk;
	char **env, **cmd;

	rc = parse_opts(cli, argc, argv, &profile, &quiet, &dry);
	if (rc == GD_EXIT_ERROR)
		return RUN_EXIT_OWN;
	if (rc >= 0)
		return rc;
	cmd = argv + optind;
	if (gd_wa_pick(cli, "run", profile, &m, &pk) < 0) {
		gd_machine_free(&m);
		gd_pick_free(&pk);
		return RUN_EXIT_OWN;
	}
	env = gd_profile_apply(&pk.prof, cli->ctx.env);
	announce(cli, &pk, cmd, quiet, dry);
	gd_machine_free(&m);
	gd_pick_free(&pk);
	if (!env) {
		fprintf(stderr, "gpudoctor run: out of memory\n");
		return RUN_EXIT_OWN;
	}
	if (dry) {
		gd_env_free(env);
		return GD_EXIT_OK;
	}
	fflush(stdout);
	fflush(stderr);
	gd_fs_close(&cli->ctx.fs);
	/* execvp looks CMD up in the PATH of the environment CMD gets, as
	 * env(1) does and as a shell that evaluated `gpudoctor env` would. */
	environ = env;
	execvp(cmd[0], cmd);
	e = errno;
	fprintf(stderr, "gpudoctor run: cannot run '%s': %s\n", cmd[0],
		strerror(e));
	return e == ENOENT || e == ENOTDIR ? RUN_EXIT_NOTFOUND
					   : RUN_EXIT_NOEXEC;
}
