/* gpudoctor list — placeholder until its part lands. */
#include "cli.h"

int gd_cmd_list(struct gd_cli *cli, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return gd_cli_error(cli, "'list' is not built yet");
}
