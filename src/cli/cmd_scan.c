/* gpudoctor scan — placeholder until its issue lands. */
#include "cli.h"

int gd_cmd_scan(struct gd_cli *cli, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return gd_cli_error(cli, "'scan' is not built yet");
}
