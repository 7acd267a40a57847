#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/json.h"
#include "core/util.h"

void gd_cli_common_help(FILE *f)
{
	fprintf(f, "Options for every command:\n");
	gd_opts_help(f, gd_opts_global);
}

int gd_cli_emit_json(struct gd_cli *cli, json_t *root)
{
	gd_cli_json_finish(cli, root);
	if (json_dumpf(root, stdout,
		       JSON_INDENT(2) | JSON_PRESERVE_ORDER |
			   JSON_ENSURE_ASCII) < 0) {
		json_decref(root);
		return -1;
	}
	fputc('\n', stdout);
	json_decref(root);
	return 0;
}

int gd_cli_usage_error(struct gd_cli *cli, const char *cmd, const char *fmt,
		       ...)
{
	va_list ap;

	fprintf(stderr, "gpudoctor %s: ", cmd);
	/* getopt is silenced (opterr = 0): name what it did not take; the
	 * last word may be a known option that lacks its value */
	if (!strcmp(fmt, "unknown option") && cli->argv && optind > 0 &&
	    optind <= cli->argc) {
		fprintf(stderr,
			optind == cli->argc
			    ? "'%s' is not an option or needs a value"
			    : "unknown option '%s'",
			cli->argv[optind - 1]);
	} else {
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
	}
	fprintf(stderr, " (see 'gpudoctor %s --help')\n", cmd);
	return GD_EXIT_ERROR;
}

int gd_cli_error(struct gd_cli *cli, const char *fmt, ...)
{
	va_list ap;

	(void)cli;
	fprintf(stderr, "gpudoctor: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return GD_EXIT_ERROR;
}
