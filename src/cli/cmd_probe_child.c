/* gpudoctor probe-child — placeholder until its issue lands. */
#include "cli.h"

int gd_cmd_probe_child(struct gd_cli *cli, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return gd_cli_error(cli, "'probe-child' is not built yet");
}
