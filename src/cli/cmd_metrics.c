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
#include "core/fs.h"
#include "core/json.h"
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
    {"nfd-dir", 0, 'N', GD_ARG_REQUIRED, "DIR",
     "also write DIR/gpudoctor (nfd's feature file) from\nthe same run", NULL,
     NULL},
    {"nfd-expiry", 0, 'e', GD_ARG_REQUIRED, "S",
     "with --nfd-dir: labels expire S seconds from now", NULL, NULL},
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
	    "  --nfd-dir DIR   also write DIR/gpudoctor, the feature file of\n"
	    "                  'gpudoctor nfd', from the same probe run\n"
	    "  --nfd-expiry S  its labels expire S seconds from now\n"
	    "  --no-probe      do not run the probes (facts from files only)\n"
	    "  --timeout S     deadline per probe in seconds (default 10)\n\n");
	gd_cli_common_help(stdout);
	printf("\nExit status: with --textfile, 0 once the file is written, 3 "
	       "when it\ncannot be; on standard output, as 'gpudoctor "
	       "check'.\n");
}

/* A label value: \\, \" and \n escaped (exposition format), and valid
 * UTF-8, which the format requires (a byte that is not, from a GPU name in
 * amdgpu.ids or pci.ids, becomes U+FFFD, as in the JSON output). */
static void lv(FILE *f, const char *name, const char *v, int first)
{
	size_t left = v ? strlen(v) : 0;

	fprintf(f, "%s%s=\"", first ? "" : ",", name);
	while (left) {
		int n = gd_utf8_seq((const unsigned char *)v, left);

		if (*v == '\\' || *v == '"')
			fprintf(f, "\\%c", *v);
		else if (*v == '\n')
			fputs("\\n", f);
		else if (n > 0)
			fwrite(v, 1, (size_t)n, f);
		else
			fputs("\xef\xbf\xbd", f); /* U+FFFD */
		v += n > 0 ? n : 1;
		left -= n > 0 ? (size_t)n : 1;
	}
	fputc('"', f);
}

static void head(FILE *f, const char *name, const char *type, const char *text)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, text, name, type);
}

/* The labels that say which GPU a series is about, named as the exporters
 * an operator already runs name them, so PromQL can join on them:
 * dcgm-exporter's pci_bus_id ("00000000:3B:00.0", NVML's 8-digit domain
 * form) and UUID (NVIDIA, when the driver tells it), AMD
 * device-metrics-exporter's gpu_id (the AMD GPU's index) and serial_number
 * (when sysfs has it). Absent, never empty, when unknown. */
static void gpu_ids(struct gd_cli *cli, FILE *f, const struct gd_check_data *d,
		    size_t i)
{
	const struct gd_gpu *g = &d->m.gpus[i];
	char buf[160], path[96];
	int amd = 0;

	snprintf(buf, sizeof buf, "%zu", i);
	lv(f, "gpu", buf, 1);
	snprintf(buf, sizeof buf, "%08X:%02X:%02X.%X", g->pci.domain,
		 g->pci.bus, g->pci.dev, g->pci.fn);
	if (g->pci.bdf[0])
		lv(f, "pci_bus_id", buf, 0);
	if (g->vendor == GD_VENDOR_NVIDIA && gd_known(&g->nv.uuid) &&
	    g->nv.uuid.v[0])
		lv(f, "UUID", g->nv.uuid.v, 0);
	if (g->vendor != GD_VENDOR_AMD)
		return;
	for (size_t k = 0; k < i; k++)
		amd += d->m.gpus[k].vendor == GD_VENDOR_AMD;
	snprintf(buf, sizeof buf, "%d", amd);
	lv(f, "gpu_id", buf, 0);
	snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/serial_number",
		 g->pci.bdf);
	if (g->pci.bdf[0] &&
	    gd_fs_read_line(&cli->ctx.fs, path, buf, sizeof buf) >= 0 && buf[0])
		lv(f, "serial_number", buf, 0);
}

static const enum gd_verdict_status all_status[] = {
    GD_V_WORKS, GD_V_SETUP, GD_V_WORKAROUND, GD_V_UNSUPPORTED, GD_V_UNKNOWN};

/* Per GPU: info (the only series with name, target and backend), the
 * verdict as a state set (one series per verdict, 1 for the current one,
 * so alerts see changes), usable. */
static void gpu_metrics(struct gd_cli *cli, FILE *f,
			const struct gd_check_data *d)
{
	struct gd_brief b;

	head(f, "gpudoctor_gpu_count", "gauge", "GPUs found.");
	fprintf(f, "gpudoctor_gpu_count %zu\n", d->m.n_gpus);
	if (!d->m.n_gpus)
		return;
	head(f, "gpudoctor_gpu_info", "gauge", "A GPU as found; always 1.");
	for (size_t i = 0; i < d->m.n_gpus; i++) {
		gd_brief_fill(cli, d, i, &b);
		fputs("gpudoctor_gpu_info{", f);
		gpu_ids(cli, f, d, i);
		if (b.name[0]) /* no placeholder: a GPU without a name (WSL2's
				* paravirtual adapter) has no name label */
			lv(f, "name", b.name, 0);
		lv(f, "vendor", b.vendor, 0);
		if (b.target[0])
			lv(f, "target", b.target, 0);
		if (b.target_eff[0])
			lv(f, "target_effective", b.target_eff, 0);
		lv(f, "backend", b.backend, 0);
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
			gpu_ids(cli, f, d, i);
			lv(f, "verdict", s, 0);
			fprintf(f, "} %d\n", !strcmp(s, b.status));
		}
	}
	head(f, "gpudoctor_gpu_usable", "gauge",
	     "1 when ML work runs on the GPU now or with a known workaround.");
	for (size_t i = 0; i < d->m.n_gpus; i++) {
		gd_brief_fill(cli, d, i, &b);
		fputs("gpudoctor_gpu_usable{", f);
		gpu_ids(cli, f, d, i);
		fprintf(f, "} %d\n", b.usable);
	}
}

/* A probe's backend and device index (absent when the op has no device). */
static void probe_ids(FILE *f, const char *backend, int dev)
{
	char idx[16];

	lv(f, "backend", backend, 1);
	snprintf(idx, sizeof idx, "%d", dev);
	if (dev >= 0)
		lv(f, "device_index", idx, 0);
}

static const enum gd_probe_status all_probe_status[] = {
    GD_PS_OK,	 GD_PS_WRONG, GD_PS_ERROR,   GD_PS_MISSING,
    GD_PS_CRASH, GD_PS_HANG,  GD_PS_SKIPPED, GD_PS_NODEVICE};

static void probe_status(FILE *f, const struct gd_probe_report *r)
{
	const size_t n = sizeof all_probe_status / sizeof all_probe_status[0];

	head(f, "gpudoctor_probe_ok", "gauge",
	     "1 when the probe op worked and its result checked.");
	for (size_t i = 0; i < r->results.n; i++) {
		const struct gd_probe_result *p = &r->results.v[i];

		fputs("gpudoctor_probe_ok{", f);
		probe_ids(f, p->backend, p->dev);
		lv(f, "op", p->op, 0);
		fprintf(f, "} %d\n", p->status == GD_PS_OK);
	}
	head(f, "gpudoctor_probe_status", "gauge",
	     "1 for the probe op's outcome, 0 for the others.");
	for (size_t i = 0; i < r->results.n; i++) {
		const struct gd_probe_result *p = &r->results.v[i];

		for (size_t k = 0; k < n; k++) {
			fputs("gpudoctor_probe_status{", f);
			probe_ids(f, p->backend, p->dev);
			lv(f, "op", p->op, 0);
			lv(f, "status",
			   gd_probe_status_name(all_probe_status[k]), 0);
			fprintf(f, "} %d\n", p->status == all_probe_status[k]);
		}
	}
}

/* A runtime's device name, once per device, on an info series of its own
 * (dcgm-exporter's "device" means "nvidia0": not used here). */
static void probe_devices(FILE *f, const struct gd_probe_report *r)
{
	if (r->devices.n)
		head(f, "gpudoctor_probe_device_info", "gauge",
		     "A device a runtime listed in the probes; always 1.");
	for (size_t i = 0; i < r->devices.n; i++) {
		const struct gd_probe_device *v = &r->devices.v[i];

		fputs("gpudoctor_probe_device_info{", f);
		probe_ids(f, v->backend, v->index);
		if (v->name[0])
			lv(f, "device_name", v->name, 0);
		if (v->isa[0])
			lv(f, "target", v->isa, 0);
		fputs("} 1\n", f);
	}
}

/* Bench figures in base units, one metric per unit (Prometheus naming:
 * the unit in the name, bytes and seconds). */
static const struct {
	const char *unit, *metric, *help;
	double scale;
} bench_units[] = {
    {"GB/s", "gpudoctor_bench_bytes_per_second",
     "A bandwidth benchmark figure, in bytes per second.", 1e9},
    {"TFLOP/s", "gpudoctor_bench_flop_per_second",
     "A compute benchmark figure, in floating-point operations per second.",
     1e12},
    {"us", "gpudoctor_bench_seconds", "A latency benchmark figure, in seconds.",
     1e-6},
};

static void bench_metrics(FILE *f, const struct gd_probe_report *r)
{
	for (size_t u = 0; u < sizeof bench_units / sizeof bench_units[0];
	     u++) {
		int headed = 0;

		for (size_t i = 0; i < r->figures.n; i++) {
			const struct gd_probe_figure *g = &r->figures.v[i];

			if (strcmp(g->unit, bench_units[u].unit))
				continue;
			if (!headed++)
				head(f, bench_units[u].metric, "gauge",
				     bench_units[u].help);
			fprintf(f, "%s{", bench_units[u].metric);
			probe_ids(f, g->backend, g->dev);
			lv(f, "figure", g->name, 0);
			fprintf(f, "} %.6g\n", g->value * bench_units[u].scale);
		}
	}
}

static void probe_metrics(FILE *f, const struct gd_probe_report *r)
{
	head(f, "gpudoctor_probes_ran", "gauge", "1 when the probes ran.");
	fprintf(f, "gpudoctor_probes_ran %d\n", r != NULL);
	if (!r)
		return;
	if (r->results.n)
		probe_status(f, r);
	probe_devices(f, r);
	bench_metrics(f, r);
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
	const char *dir = NULL, *nfd_dir = NULL;
	long expiry = 0;
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
		case 'N':
			nfd_dir = optarg;
			break;
		case 'e':
			expiry = strtol(optarg, &end, 10);
			if (*end || expiry <= 0 || expiry > 365L * 86400)
				return gd_cli_usage_error(
				    cli, "metrics",
				    "--nfd-expiry needs seconds > 0");
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
	if (cli->json)
		return gd_cli_usage_error(
		    cli, "metrics",
		    "--json: metrics writes Prometheus text only (the same "
		    "facts as JSON: 'gpudoctor --json check')");
	if (gd_cli_check_collect(cli, &o, &d) < 0) {
		gd_check_free(&d);
		return gd_cli_error(cli, "out of memory");
	}
	/* a written file is a success for cron and systemd timers; the
	 * verdict is in the file (gpudoctor_exit_code) */
	rc = emit(cli, &d, dir);
	if (rc == 0 && nfd_dir)
		rc = gd_nfd_emit(cli, &d, nfd_dir, expiry);
	if (rc == 0 && !dir && !nfd_dir)
		rc = gd_check_exit_code(&d);
	gd_check_free(&d);
	gd_cli_print_diags(cli, stderr);
	return rc;
}
