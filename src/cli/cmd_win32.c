/* Commands the Windows build does not have yet (issue #14): they say so
 * instead of pretending. */
#include <stdio.h>

#include "cli.h"

static int not_yet(const char *cmd)
{
	fprintf(stderr, "gpudoctor: '%s' is not in the Windows build yet; "
		"'check', 'list' and 'scan' are\n", cmd);
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
