/* gpudoctor [check]: the main job. Every GPU, its compute stack, a verdict
 * and numbered next steps; then the stack and the probe results. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "check_brief.h"
#include "check_data.h"
#include "core/json.h"
#include "render_gpu.h"
#include "render_inventory.h"
#include "render_verdict.h"

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

static void machine_json(struct gd_cli *cli, const struct gd_check_data *d,
			 json_t *doc)
{
	json_t *gpus;

	json_object_set_new(doc, "root", gd_json_str(cli->ctx.fs.root));
	gd_render_machine_json(doc, &d->m);
	gpus = json_object_get(doc, "gpus");
	for (size_t i = 0; i < d->m.n_gpus; i++)
		json_object_set_new(json_array_get(gpus, i), "verdict",
				    gd_render_verdict_json(&d->diag.v[i]));
	json_object_set_new(
	    doc, "verdict",
	    d->m.n_gpus ? json_null() : gd_render_verdict_json(&d->diag.v[0]));
	json_object_set_new(doc, "runtimes", gd_render_runtimes_json(&d->inv));
}

/* Index of an earlier GPU with the same verdict (identical cards, MI300
 * partitions of several GPUs), or -1: those are printed once. */
static int same_lines(const gd_lines *a, const gd_lines *b, int skip_first)
{
	if (a->n != b->n)
		return 0;
	/* the first fact is the PCI address, which always differs */
	for (size_t i = skip_first ? 1 : 0; i < a->n; i++)
		if (strcmp(a->v[i].text, b->v[i].text))
			return 0;
	return 1;
}

static long same_as_earlier(const struct gd_check_data *d, size_t i)
{
	const struct gd_verdict *v = &d->diag.v[i];

	for (size_t k = 0; k < i; k++) {
		const struct gd_verdict *w = &d->diag.v[k];

		if (w->status == v->status &&
		    !strcmp(w->headline, v->headline) &&
		    same_lines(&w->facts, &v->facts, 1) &&
		    same_lines(&w->steps, &v->steps, 0))
			return (long)k;
	}
	return -1;
}

json_t *gd_check_json(struct gd_cli *cli, const struct gd_check_data *d)
{
	json_t *doc = gd_cli_json_doc("check");

	machine_json(cli, d, doc);
	gd_check_extra_json(cli, d, doc);
	json_object_set_new(doc, "diagnostics", gd_cli_diags_json(cli));
	json_object_set_new(doc, "exit_code",
			    json_integer(gd_check_exit_code(d)));
	return doc;
}

static void check_text(struct gd_cli *cli, const struct gd_check_data *d,
		       int verbose)
{
	FILE *f = stdout;

	for (size_t i = 0; i < d->diag.n; i++) {
		long same =
		    d->m.n_gpus && !verbose ? same_as_earlier(d, i) : -1;

		if (d->m.n_gpus)
			fprintf(f, "%sGPU %zu%s  ", gd_c_bold(cli), i,
				gd_c_off(cli));
		if (same >= 0) {
			fprintf(f,
				"%s at %s: same verdict as GPU %ld (-v shows "
				"each in full)\n",
				d->m.gpus[i].name.v, d->m.gpus[i].pci.bdf,
				same);
			continue;
		}
		gd_render_verdict_text(cli, f, &d->diag.v[i]);
		if (verbose && d->m.n_gpus)
			gd_render_gpu_text(cli, f, &d->m.gpus[i], 1);
		gd_render_sources_text(cli, f, &d->diag.v[i]);
		fprintf(f, "\n");
	}
	if (d->m.n_gpus > 1)
		fprintf(f, "\n");
	gd_render_inventory_text(cli, f, &d->inv);
	gd_check_extra_text(cli, f, d);
	if (d->probe_note[0])
		fprintf(f, "%sprobes: %s%s\n", gd_c_dim(cli), d->probe_note,
			gd_c_off(cli));
	gd_cli_print_diags(cli, stderr);
}

int gd_cmd_check(struct gd_cli *cli, int argc, char **argv)
{
	struct gd_getopt g;
	struct gd_check_opts o = {1, 10.0};
	struct gd_check_data d;
	int c, verbose = 0, brief = 0, rc;
	char *end;

	gd_opts_build(&g, gd_opts_check, 0);
	while ((c = getopt_long(argc, argv, g.so, g.lo, NULL)) != -1) {
		switch (c) {
		case 'h':
			help();
			return GD_EXIT_OK;
		case 'n':
			o.probes = 0;
			break;
		case 'v':
			verbose = 1;
			break;
		case 'b':
			brief = 1;
			break;
		case 't':
			o.probe_timeout = strtod(optarg, &end);
			if (*end ||
			    !(o.probe_timeout > 0 && o.probe_timeout <= 86400))
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
	if (gd_ctx_is_windows(&cli->ctx))
		return gd_check_windows(cli, verbose, brief);
	if (gd_check_collect(cli, &o, &d) < 0) {
		gd_check_free(&d);
		return gd_cli_error(cli, "out of memory");
	}
	if (brief) {
		if (cli->json)
			gd_cli_emit_json(cli, gd_check_brief_json(cli, &d));
		else
			gd_check_brief_text(cli, stdout, &d);
	} else if (cli->json) {
		gd_cli_emit_json(cli, gd_check_json(cli, &d));
	} else {
		check_text(cli, &d, verbose);
	}
	rc = gd_check_exit_code(&d);
	gd_check_free(&d);
	return rc;
}
