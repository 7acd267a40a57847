/* gpudoctor env — placeholder until its issue lands. */
#include "cli.h"

int gd_cmd_env(struct gd_cli *cli, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return gd_cli_error(cli, "'env' is not built yet");
}
