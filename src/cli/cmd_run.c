/* gpudoctor run — placeholder until its issue lands. */
#include "cli.h"

int gd_cmd_run(struct gd_cli *cli, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return gd_cli_error(cli, "'run' is not built yet");
}
