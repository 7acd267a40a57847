/* gpudoctor [check]: the main job. Every GPU, its compute stack, a verdict
 * and numbered next steps; then the stack and the probe results. */
#include <getopt.h>
#include <stdlib.h>
#include <unistd.h>

#include "api/api_int.h"
#include "cli.h"

const struct gd_opt gd_opts_check[] = {
    {"no-probe", 0, 'n', GD_ARG_NONE, NULL,
     "do not run the probes (facts from files only)", NULL, NULL},
    {"timeout", 0, 't', GD_ARG_REQUIRED, "S",
     "deadline per probe in seconds (default 10)", NULL, NULL},
    {"verbose", 'v', 'v', GD_ARG_NONE, NULL,
     "all facts per GPU (PCI link, KFD nodes, ...)", NULL, NULL},
    {"brief", 0, 'b', GD_ARG_NONE, NULL,
     "one line per GPU: usable or not, which backend, why", NULL, NULL},
    {"help", 'h', 'h', GD_ARG_NONE, NULL, "this help", NULL, NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
};

static void help(void)
{
	printf(
	    "Usage: gpudoctor [check] [OPTIONS]\n\n"
	    "Find every GPU, the compute stack installed for it (ROCm/HIP,\n"
	    "rocBLAS, CUDA, Vulkan, OpenCL) and the ML frameworks; run the\n"
	    "quick probes in supervised children; print per GPU a verdict and\n"
	    "the exact next steps for this machine.\n\n"
	    "Options:\n");
	gd_opts_help(stdout, gd_opts_check);
	printf("\n");
	gd_cli_common_help(stdout);
	printf("\nExit status: 0 a GPU works as the machine is; 1 a GPU is "
	       "present "
	       "but\nneeds changes or cannot work; 2 no GPU; 3 gpudoctor's own "
	       "error.\n");
}

/* The check through the C API's functions (api/), as an app gets it: the
 * handle uses this process's context and runs the probes here, since this
 * process is gpudoctor. */
static int check_api(struct gd_cli *cli, unsigned flags, double timeout,
		     int brief)
{
	int progress =
	    (flags & GPUDOCTOR_CHECK_PROBES) && isatty(STDERR_FILENO);
	gpudoctor *h =
	    gd_api_adopt(cli, progress ? gd_render_probe_progress : NULL);
	const char *out;
	int rc;

	if (!h)
		return gd_cli_error(cli, "out of memory");
	gd_cli_cancel_begin(cli);
	rc = gpudoctor_check(h, flags, timeout);
	if (progress)
		fprintf(stderr, "\r\033[K");
	gd_cli_cancel_end(cli);
	out = rc == GPUDOCTOR_ERROR ? NULL
	      : brief ? cli->json ? gpudoctor_brief_json(h) : gpudoctor_brief(h)
	      : cli->json ? gpudoctor_report_json(h)
			  : gpudoctor_report(h);
	if (!out) {
		rc = gd_cli_error(cli, "%s", gpudoctor_errmsg(h));
	} else {
		fputs(out, stdout);
		if (!brief && !cli->json)
			gd_cli_print_diags(cli, stderr);
	}
	gpudoctor_close(h);
	return rc;
}

/* Options shared by check and __api-check; 0, or an exit code. */
static int check_opts(struct gd_cli *cli, int argc, char **argv,
		      unsigned *flags, double *timeout, int *brief)
{
	struct gd_getopt g;
	int c;
	char *end;

	gd_opts_build(&g, gd_opts_check, 0);
	while ((c = getopt_long(argc, argv, g.so, g.lo, NULL)) != -1) {
		switch (c) {
		case 'h':
			help();
			return -1;
		case 'n':
			*flags &= ~GPUDOCTOR_CHECK_PROBES;
			break;
		case 'v':
			*flags |= GPUDOCTOR_CHECK_VERBOSE;
			break;
		case 'b':
			*brief = 1;
			break;
		case 't':
			*timeout = strtod(optarg, &end);
			if (*end || !(*timeout > 0 && *timeout <= 86400))
				return gd_cli_usage_error(
				    cli, "check",
				    "--timeout needs seconds > 0");
			break;
		default:
			return gd_cli_usage_error(cli, "check",
						  "unknown option");
		}
	}
	if (optind < argc)
		return gd_cli_usage_error(
		    cli, "check", "unexpected argument '%s'", argv[optind]);
	return 0;
}

int gd_cmd_check(struct gd_cli *cli, int argc, char **argv)
{
	unsigned flags = GPUDOCTOR_CHECK_PROBES;
	double timeout = 10.0;
	int brief = 0,
	    rc = check_opts(cli, argc, argv, &flags, &timeout, &brief);

	if (rc)
		return rc < 0 ? GD_EXIT_OK : rc;
	return check_api(cli, flags, timeout, brief);
}

/* gpudoctor __api-check [--verbose] [--timeout S]: the helper a library
 * handle starts for a check with probes (api/helper_posix.c): the check
 * with probes in this process, every result written to stdout for the
 * library to read back. */
int gd_cmd_api_check(struct gd_cli *cli, int argc, char **argv)
{
	unsigned flags = GPUDOCTOR_CHECK_PROBES;
	double timeout = 10.0;
	int brief = 0,
	    rc = check_opts(cli, argc, argv, &flags, &timeout, &brief);
	gpudoctor *h;

	if (rc)
		return rc < 0 ? GD_EXIT_OK : rc;
	h = gd_api_adopt(cli, NULL);
	if (!h)
		return gd_cli_error(cli, "out of memory");
	rc = gpudoctor_check(h, flags, timeout);
	if (rc == GPUDOCTOR_ERROR || gd_api_helper_write(h, rc, stdout) < 0)
		rc = gd_cli_error(cli, "%s", gpudoctor_errmsg(h));
	gpudoctor_close(h);
	return rc;
}
