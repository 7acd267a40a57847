/* gpudoctor metrics: the verdicts as Prometheus text exposition, for node
 * exporter's textfile collector (--textfile DIR writes DIR/gpudoctor.prom
 * atomically) or stdout. Format: prometheus.io/docs/instrumenting/
 * exposition_formats (HELP/TYPE once per name, label values quoted with \\,
 * \" and \n escaped, legacy-safe names). No timestamps on samples: the
 * textfile collector rejects them; the run's time is its own gauge. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "core/plat.h"
#include "kb/kb.h"
#include "opts.h"
#include "out_file.h"
#include "probe/probe.h"
#include "report/check_brief.h"
#include "report/check_data.h"

const struct gd_opt gd_opts_metrics[] = {
    {"textfile", 0, 'f', GD_ARG_REQUIRED, "DIR",
     "write DIR/gpudoctor.prom for node_exporter's textfile\ncollector, "
     "atomically; default: standard output",
     NULL, NULL},
    {"no-probe", 0, 'n', GD_ARG_NONE, NULL, "do not run the probes", NULL,
     NULL},
    {"timeout", 0, 't', GD_ARG_REQUIRED, "S",
     "deadline per probe in seconds (default 10)", NULL, NULL},
    {"help", 'h', 'h', GD_ARG_NONE, NULL, "this help", NULL, NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
};

static void help(void)
{
	printf(
	    "Usage: gpudoctor metrics [OPTIONS]\n\n"
	    "Print the verdict per GPU, probe outcomes and bench figures as\n"
	    "Prometheus metrics (text exposition format).\n\n"
	    "Options:\n"
	    "  --textfile DIR  write DIR/gpudoctor.prom atomically, for node\n"
	    "                  exporter's --collector.textfile.directory\n"
	    "  --no-probe      do not run the probes (facts from files only)\n"
	    "  --timeout S     deadline per probe in seconds (default 10)\n\n");
	gd_cli_common_help(stdout);
	printf("\nExit status: as 'gpudoctor check'; 3 when the file cannot be "
	       "written.\n");
}

/* A label value: \\, \" and \n escaped (exposition format). */
static void lv(FILE *f, const char *name, const char *v, int first)
{
	fprintf(f, "%s%s=\"", first ? "" : ",", name);
	for (; v && *v; v++) {
		if (*v == '\\' || *v == '"')
			fprintf(f, "\\%c", *v);
		else if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
	fputc('"', f);
}

static void head(FILE *f, const char *name, const char *type, const char *text)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, text, name, type);
}

static void gpu_labels(FILE *f, const struct gd_brief *b)
{
	char idx[16];

	snprintf(idx, sizeof idx, "%d", b->index);
	lv(f, "gpu", idx, 1);
	lv(f, "name", b->name, 0);
	lv(f, "target", b->target, 0);
}

static const enum gd_verdict_status all_status[] = {
    GD_V_WORKS, GD_V_SETUP, GD_V_WORKAROUND, GD_V_UNSUPPORTED, GD_V_UNKNOWN};

/* Per GPU: info, the verdict as a state set (one series per verdict, 1 for
 * the current one, so alerts see changes), usable with its backend. */
static void gpu_metrics(struct gd_cli *cli, FILE *f,
			const struct gd_check_data *d)
{
	struct gd_brief b;

	head(f, "gpudoctor_gpus", "gauge", "GPUs found.");
	fprintf(f, "gpudoctor_gpus %zu\n", d->m.n_gpus);
	if (!d->m.n_gpus)
		return;
	head(f, "gpudoctor_gpu_info", "gauge", "A GPU as found; always 1.");
	for (size_t i = 0; i < d->m.n_gpus; i++) {
		gd_brief_fill(cli, d, i, &b);
		fputs("gpudoctor_gpu_info{", f);
		gpu_labels(f, &b);
		lv(f, "vendor", b.vendor, 0);
		lv(f, "pci", d->m.gpus[i].pci.bdf, 0);
		lv(f, "target_effective", b.target_eff, 0);
		fputs("} 1\n", f);
	}
	head(f, "gpudoctor_gpu_verdict", "gauge",
	     "1 for the GPU's current verdict, 0 for the others.");
	for (size_t i = 0; i < d->m.n_gpus; i++) {
		gd_brief_fill(cli, d, i, &b);
		for (size_t k = 0; k < sizeof all_status / sizeof all_status[0];
		     k++) {
			const char *s = gd_verdict_status_name(all_status[k]);

			fputs("gpudoctor_gpu_verdict{", f);
			gpu_labels(f, &b);
			lv(f, "verdict", s, 0);
			fprintf(f, "} %d\n", !strcmp(s, b.status));
		}
	}
	head(f, "gpudoctor_gpu_usable", "gauge",
	     "1 when ML work runs on the GPU now or with a known workaround.");
	for (size_t i = 0; i < d->m.n_gpus; i++) {
		gd_brief_fill(cli, d, i, &b);
		fputs("gpudoctor_gpu_usable{", f);
		gpu_labels(f, &b);
		lv(f, "backend", b.backend, 0);
		fprintf(f, "} %d\n", b.usable);
	}
}

static void probe_metrics(FILE *f, const struct gd_probe_report *r)
{
	char dev[16];

	head(f, "gpudoctor_probes_ran", "gauge", "1 when the probes ran.");
	fprintf(f, "gpudoctor_probes_ran %d\n", r != NULL);
	if (!r)
		return;
	if (r->results.n)
		head(f, "gpudoctor_probe_ok", "gauge",
		     "1 when the probe op worked and its result checked.");
	for (size_t i = 0; i < r->results.n; i++) {
		const struct gd_probe_result *p = &r->results.v[i];

		snprintf(dev, sizeof dev, "%d", p->dev);
		fputs("gpudoctor_probe_ok{", f);
		lv(f, "backend", p->backend, 1);
		lv(f, "dev", dev, 0);
		lv(f, "device", p->device, 0);
		lv(f, "op", p->op, 0);
		lv(f, "status", gd_probe_status_name(p->status), 0);
		fprintf(f, "} %d\n", p->status == GD_PS_OK);
	}
	if (r->figures.n)
		head(f, "gpudoctor_bench", "gauge",
		     "A benchmark figure in the unit its label names.");
	for (size_t i = 0; i < r->figures.n; i++) {
		const struct gd_probe_figure *g = &r->figures.v[i];

		snprintf(dev, sizeof dev, "%d", g->dev);
		fputs("gpudoctor_bench{", f);
		lv(f, "backend", g->backend, 1);
		lv(f, "dev", dev, 0);
		lv(f, "figure", g->name, 0);
		lv(f, "unit", g->unit, 0);
		fprintf(f, "} %.6g\n", g->value);
	}
}

static void metrics_text(struct gd_cli *cli, FILE *f,
			 const struct gd_check_data *d)
{
	const char *kb_date = gd_kb_date(cli->ctx.kb);

	head(f, "gpudoctor_info", "gauge",
	     "gpudoctor's version and knowledge base date; always 1.");
	fputs("gpudoctor_info{", f);
	lv(f, "version", GD_VERSION, 1);
	lv(f, "kb_date", kb_date ? kb_date : "", 0);
	fputs("} 1\n", f);
	head(f, "gpudoctor_last_run_timestamp_seconds", "gauge",
	     "When gpudoctor wrote these metrics, in seconds since the epoch.");
	fprintf(f, "gpudoctor_last_run_timestamp_seconds %lld\n",
		(long long)time(NULL));
	head(f, "gpudoctor_exit_code", "gauge",
	     "The exit status of check: 0 a GPU works, 1 not as is, 2 no GPU.");
	fprintf(f, "gpudoctor_exit_code %d\n", gd_check_exit_code(d));
	gpu_metrics(cli, f, d);
	probe_metrics(f, gd_check_extra_probes(d));
}

static int emit(struct gd_cli *cli, const struct gd_check_data *d,
		const char *dir)
{
	char *buf = NULL, err[4200];
	size_t len = 0;
	gd_memstream ms;
	FILE *f;
	int r;

	if (!dir) {
		metrics_text(cli, stdout, d);
		return 0;
	}
	f = gd_plat_memstream_open(&ms);
	if (!f)
		return gd_cli_error(cli, "out of memory");
	metrics_text(cli, f, d);
	if (gd_plat_memstream_close(&ms, &buf, &len) != 0)
		return gd_cli_error(cli, "out of memory");
	r = gd_out_write_atomic(dir, "gpudoctor.prom", buf, len, err,
				sizeof err);
	free(buf);
	return r < 0 ? gd_cli_error(cli, "%s", err) : 0;
}

int gd_cmd_metrics(struct gd_cli *cli, int argc, char **argv)
{
	struct gd_getopt go;
	struct gd_check_opts o = {1, 10.0, NULL};
	struct gd_check_data d;
	const char *dir = NULL;
	int c, rc;
	char *end;

	gd_opts_build(&go, gd_opts_metrics, 0);
	while ((c = getopt_long(argc, argv, go.so, go.lo, NULL)) != -1) {
		switch (c) {
		case 'h':
			help();
			return GD_EXIT_OK;
		case 'f':
			dir = optarg;
			break;
		case 'n':
			o.probes = 0;
			break;
		case 't':
			o.probe_timeout = strtod(optarg, &end);
			if (*end ||
			    !(o.probe_timeout > 0 && o.probe_timeout <= 86400))
				return gd_cli_usage_error(
				    cli, "metrics",
				    "--timeout needs seconds > 0");
			break;
		default:
			return gd_cli_usage_error(cli, "metrics",
						  "unknown option");
		}
	}
	if (optind < argc)
		return gd_cli_usage_error(
		    cli, "metrics", "unexpected argument '%s'", argv[optind]);
	if (gd_cli_check_collect(cli, &o, &d) < 0) {
		gd_check_free(&d);
		return gd_cli_error(cli, "out of memory");
	}
	rc = emit(cli, &d, dir);
	if (rc == 0)
		rc = gd_check_exit_code(&d);
	gd_check_free(&d);
	gd_cli_print_diags(cli, stderr);
	return rc;
}
