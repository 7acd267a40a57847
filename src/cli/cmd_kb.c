/* gpudoctor kb — placeholder until its issue lands. */
#include "cli.h"

int gd_cmd_kb(struct gd_cli *cli, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return gd_cli_error(cli, "'kb' is not built yet");
}
