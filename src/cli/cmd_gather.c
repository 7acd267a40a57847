/* gpudoctor gather — placeholder until its part lands. */
#include "cli.h"

int gd_cmd_gather(struct gd_cli *cli, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return gd_cli_error(cli, "'gather' is not built yet");
}
