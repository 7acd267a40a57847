/* gpudoctor try — placeholder until its issue lands. */
#include "cli.h"

int gd_cmd_try(struct gd_cli *cli, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return gd_cli_error(cli, "'try' is not built yet");
}
