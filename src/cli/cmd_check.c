/* gpudoctor check — placeholder until its part lands. */
#include "cli.h"

int gd_cmd_check(struct gd_cli *cli, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return gd_cli_error(cli, "'check' is not built yet");
}
