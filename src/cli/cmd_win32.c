/* Commands the Windows build does not have yet (issue #14): they say so
 * instead of pretending. */
#include <stdio.h>

#include "cli.h"

/* main.c's command table names the option tables; these commands take
 * none here. */
const struct gd_opt gd_opts_probe[] = {
    {"help", 'h', 'h', GD_ARG_NONE, NULL, "this help", NULL, NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
};
const struct gd_opt gd_opts_try[] = {
    {"help", 'h', 'h', GD_ARG_NONE, NULL, "this help", NULL, NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
};

static int not_yet(const char *cmd)
{
	fprintf(stderr,
		"gpudoctor: '%s' is not in the Windows build yet; "
		"'check', 'list' and 'scan' are\n",
		cmd);
	return 3;
}

int gd_cmd_probe(struct gd_cli *cli, int argc, char **argv)
{
	(void)cli;
	(void)argc;
	(void)argv;
	return not_yet("probe");
}

int gd_cmd_try(struct gd_cli *cli, int argc, char **argv)
{
	(void)cli;
	(void)argc;
	(void)argv;
	return not_yet("try");
}
