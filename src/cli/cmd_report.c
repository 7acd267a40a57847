/* gpudoctor report — placeholder until its part lands. */
#include "cli.h"

int gd_cmd_report(struct gd_cli *cli, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return gd_cli_error(cli, "'report' is not built yet");
}
