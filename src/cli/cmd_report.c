/* gpudoctor report: the check's findings as Markdown to paste into a bug
 * report (or --json, the same document as `check --json`). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "gd_version.h"
#include "report/check_data.h"
#include "report/render_gpu.h"
#include "report/render_inventory.h"
#include "report/render_verdict.h"

const struct gd_opt gd_opts_report[] = {
    {"no-probe", 0, 'n', GD_ARG_NONE, NULL, "do not run the probes", NULL,
     NULL},
    {"output", 'o', 'o', GD_ARG_REQUIRED, "FILE",
     "write to FILE instead of standard output", NULL, NULL},
    {"help", 'h', 'h', GD_ARG_NONE, NULL, "this help", NULL, NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
};

static void help(void)
{
	printf("Usage: gpudoctor report [OPTIONS]\n\n"
	       "Everything `gpudoctor check` finds, as Markdown to paste into "
	       "a bug\n"
	       "report or a forum post: verdicts, facts per GPU, the compute "
	       "stack,\n"
	       "and the full JSON in a collapsed block.\n\n"
	       "Options:\n");
	gd_opts_help(stdout, gd_opts_report);
	printf("\n");
	gd_cli_common_help(stdout);
}

/* Plain text blocks (facts, stack) go into fenced code blocks, without
 * colour, so they paste unchanged. */
static void fenced_begin(FILE *f, const char *lang)
{
	fprintf(f, "```%s\n", lang);
}

static void report_md(struct gd_cli *cli, FILE *f,
		      const struct gd_check_data *d)
{
	const struct gd_kernel_info *k = &d->m.kernel;
	int saved = cli->color;
	char date[32] = "";
	time_t now = time(NULL);
	struct tm tm;

	cli->color = 0;
	if (gmtime_r(&now, &tm))
		strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", &tm);
	fprintf(f, "# gpudoctor report\n\n");
	fprintf(f, "- gpudoctor %s, %s\n", GD_VERSION_FULL, date);
	fprintf(f, "- platform: %s\n", cli->ctx.platform);
	if (gd_known(&k->release))
		fprintf(f, "- kernel: %s\n", k->release.v);
	if (!cli->ctx.fs.is_slash)
		fprintf(f, "- captured machine replayed from `%s`\n",
			cli->ctx.fs.root);
	fprintf(f, "\n## Verdicts\n\n");
	for (size_t i = 0; i < d->diag.n; i++) {
		gd_render_verdict_md(f, &d->diag.v[i]);
		if (d->m.n_gpus) {
			fenced_begin(f, "text");
			gd_render_gpu_text(cli, f, &d->m.gpus[i], 1);
			fprintf(f, "```\n\n");
		}
	}
	fprintf(f, "## Compute stack\n\n");
	fenced_begin(f, "text");
	gd_check_stack_text(cli, f, d);
	fprintf(f, "```\n\n");
	{
		json_t *doc = gd_check_json(cli, d);

		fprintf(f, "<details><summary>gpudoctor check --json</summary>"
			   "\n\n```json\n");
		json_dumpf(doc, f,
			   JSON_INDENT(2) | JSON_PRESERVE_ORDER |
			       JSON_ENSURE_ASCII);
		fprintf(f, "\n```\n\n</details>\n\n");
		json_decref(doc);
	}
	if (cli->ctx.diags.n) {
		fprintf(f, "## Diagnostics\n\n");
		for (size_t i = 0; i < cli->ctx.diags.n; i++)
			fprintf(f, "- %s: %s\n", cli->ctx.diags.v[i].source,
				cli->ctx.diags.v[i].msg);
		fprintf(f, "\n");
	}
	cli->color = saved;
}

int gd_cmd_report(struct gd_cli *cli, int argc, char **argv)
{
	struct gd_getopt g;
	struct gd_check_opts o = {1, 10.0, NULL};
	struct gd_check_data d;
	const char *out = NULL;
	FILE *f = stdout;
	int c, rc;

	gd_opts_build(&g, gd_opts_report, 0);
	while ((c = getopt_long(argc, argv, g.so, g.lo, NULL)) != -1) {
		if (c == 'h') {
			help();
			return GD_EXIT_OK;
		} else if (c == 'n') {
			o.probes = 0;
		} else if (c == 'o') {
			out = optarg;
		} else {
			return gd_cli_usage_error(cli, "report",
						  "unknown option");
		}
	}
	if (optind < argc)
		return gd_cli_usage_error(
		    cli, "report", "unexpected argument '%s'", argv[optind]);
	if (cli->json) {
		/* the report bundle is the check document */
		char *av[] = {"check", o.probes ? NULL : "--no-probe", NULL};

		return gd_cmd_check(cli, o.probes ? 1 : 2, av);
	}
	if (out && !(f = fopen(out, "w")))
		return gd_cli_error(cli, "cannot write %s", out);
	if (gd_cli_check_collect(cli, &o, &d) < 0) {
		gd_check_free(&d);
		if (out)
			fclose(f);
		return gd_cli_error(cli, "out of memory");
	}
	report_md(cli, f, &d);
	rc = gd_check_exit_code(&d);
	gd_check_free(&d);
	if (out && fclose(f) != 0)
		return gd_cli_error(cli, "writing %s failed", out);
	return rc;
}
