/* gpudoctor nfd: Node Feature Discovery labels in a feature file (NFD's
 * local source, features.d/: "name=value" lines, '#' comments, an
 * optional "# +expiry-time=RFC3339" directive; dot files are ignored, so
 * the file is written as a dot file and renamed). Labels live under
 * gpudoctor.io/ next to amd.com/ and nvidia.com/ ones: what those lack is
 * the gfx target, the ML verdict and the runtime majors. Values are made
 * valid Kubernetes label values by gd_k8s_label_value (core/k8s_label.h). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "core/k8s_label.h"
#include "core/plat.h"
#include "opts.h"
#include "out_file.h"
#include "probe/probe.h"
#include "report/check_brief.h"
#include "report/check_data.h"

#define NS "gpudoctor.io/"

const struct gd_opt gd_opts_nfd[] = {
    {"dir", 0, 'd', GD_ARG_REQUIRED, "DIR",
     "write DIR/gpudoctor (NFD's features.d), atomically;\ndefault: standard "
     "output",
     NULL, NULL},
    {"expiry", 0, 'e', GD_ARG_REQUIRED, "S",
     "labels expire S seconds from now (# +expiry-time)", NULL, NULL},
    {"no-probe", 0, 'n', GD_ARG_NONE, NULL,
     "do not run the probes (no backend labels)", NULL, NULL},
    {"timeout", 0, 't', GD_ARG_REQUIRED, "S",
     "deadline per probe in seconds (default 10)", NULL, NULL},
    {"help", 'h', 'h', GD_ARG_NONE, NULL, "this help", NULL, NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
};

static void help(void)
{
	printf(
	    "Usage: gpudoctor nfd [OPTIONS]\n\n"
	    "Print Node Feature Discovery labels (gpudoctor.io/...): gfx "
	    "target,\n"
	    "compute capability, verdict, working backends, HIP/CUDA "
	    "majors.\n\n"
	    "Options:\n"
	    "  --dir D         write D/gpudoctor atomically (NFD's "
	    "features.d,\n"
	    "                  "
	    "/etc/kubernetes/node-feature-discovery/features.d)\n"
	    "  --expiry S      labels expire S seconds from now (# "
	    "+expiry-time)\n"
	    "  --no-probe      do not run the probes (no backend.* labels)\n"
	    "  --timeout S     deadline per probe in seconds (default 10)\n\n");
	gd_cli_common_help(stdout);
	printf("\nExit status: with --dir, 0 once the file is written, 3 when "
	       "it cannot\nbe; on standard output, as 'gpudoctor check'.\n");
}

static void label(FILE *f, const char *name, const char *value)
{
	char v[GD_K8S_VALUE_MAX + 1];

	gd_k8s_label_value(value, v, sizeof v);
	fprintf(f, NS "%s=%s\n", name, v);
}

static void gpu_label(FILE *f, int i, const char *what, const char *value)
{
	char name[64];

	snprintf(name, sizeof name, "gpu-%d.%s", i, what);
	label(f, name, value);
}

/* "sm_90" -> "9.0" (the compute capability as NVIDIA writes it). */
static void cc_of(const char *sm, char *buf, size_t cap)
{
	size_t n = strlen(sm);

	buf[0] = '\0';
	if (n >= 5 && !strncmp(sm, "sm_", 3))
		snprintf(buf, cap, "%.*s.%c", (int)(n - 4), sm + 3, sm[n - 1]);
}

static void gpu_labels(FILE *f, const struct gd_brief *b)
{
	char cc[16];

	gpu_label(f, b->index, "vendor", b->vendor);
	if (!strcmp(b->vendor, "nvidia")) {
		cc_of(b->target, cc, sizeof cc);
		if (cc[0])
			gpu_label(f, b->index, "compute-capability", cc);
	} else if (b->target[0]) {
		gpu_label(f, b->index, "target", b->target);
		gpu_label(f, b->index, "target-effective", b->target_eff);
	}
	gpu_label(f, b->index, "verdict", b->status);
	gpu_label(f, b->index, "backend", b->backend);
	gpu_label(f, b->index, "usable", b->usable ? "true" : "false");
}

/* Node-wide: the value when every GPU agrees, else "mixed". */
static void node_labels(struct gd_cli *cli, FILE *f,
			const struct gd_check_data *d)
{
	struct gd_brief b;
	char verdict[32] = "", target[32] = "", count[16];
	int usable = 0;

	snprintf(count, sizeof count, "%zu", d->m.n_gpus);
	label(f, "gpu.count", count);
	for (size_t i = 0; i < d->m.n_gpus; i++) {
		gd_brief_fill(cli, d, i, &b);
		usable |= b.usable;
		if (i == 0) {
			snprintf(verdict, sizeof verdict, "%s", b.status);
			snprintf(target, sizeof target, "%s", b.target_eff);
		}
		if (strcmp(verdict, b.status))
			snprintf(verdict, sizeof verdict, "mixed");
		if (strcmp(target, b.target_eff))
			snprintf(target, sizeof target, "mixed");
	}
	label(f, "verdict", d->m.n_gpus ? verdict : "cpu-only");
	label(f, "usable", usable ? "true" : "false");
	if (target[0])
		label(f, "target", target);
	for (size_t i = 0; i < d->m.n_gpus; i++) {
		gd_brief_fill(cli, d, i, &b);
		gpu_labels(f, &b);
	}
}

static void runtime_labels(FILE *f, const struct gd_inventory *inv)
{
	const struct gd_rocm_install *pick = NULL;
	char v[32];

	for (size_t i = 0; i < inv->n_rocm; i++)
		if (inv->rocm[i].hip_major &&
		    (!pick || inv->rocm[i].loader_pick))
			pick = &inv->rocm[i];
	if (pick) {
		snprintf(v, sizeof v, "%u", pick->hip_major);
		label(f, "hip-runtime.major", v);
	}
	if (gd_known(&inv->cuda_driver)) {
		snprintf(v, sizeof v, "%.*s",
			 (int)strcspn(inv->cuda_driver.v, "."),
			 inv->cuda_driver.v);
		label(f, "cuda-driver.major", v);
	}
	if (gd_known(&inv->cuda_driver_api)) {
		snprintf(v, sizeof v, "%.*s",
			 (int)strcspn(inv->cuda_driver_api.v, "."),
			 inv->cuda_driver_api.v);
		label(f, "cuda.major", v);
	}
}

/* A backend works when an op past init ran right on a real (not software)
 * device: lavapipe or PoCL on the CPU say nothing about the GPU. */
static int real_device(const struct gd_probe_report *r, const char *be, int dev)
{
	for (size_t i = 0; i < r->devices.n; i++)
		if (!strcmp(r->devices.v[i].backend, be) &&
		    r->devices.v[i].index == dev)
			return !r->devices.v[i].software;
	return 0;
}

static void probe_labels(FILE *f, const struct gd_probe_report *r)
{
	static const char *const be[] = {"cuda", "hip", "vulkan", "opencl"};
	char name[32];

	for (size_t k = 0; r && k < sizeof be / sizeof be[0]; k++) {
		int works = 0;

		for (size_t i = 0; i < r->results.n && !works; i++) {
			const struct gd_probe_result *p = &r->results.v[i];

			works = !strcmp(p->backend, be[k]) &&
				p->status == GD_PS_OK && p->dev >= 0 &&
				strcmp(p->op, "init") &&
				real_device(r, be[k], p->dev);
		}
		snprintf(name, sizeof name, "backend.%s", be[k]);
		label(f, name, works ? "true" : "false");
	}
}

static void nfd_text(struct gd_cli *cli, FILE *f, const struct gd_check_data *d,
		     long expiry)
{
	char when[32];
	time_t t = time(NULL) + expiry;
	struct tm tm;

	fprintf(f, "# gpudoctor %s: NFD local feature file\n", GD_VERSION);
	if (expiry > 0 && gmtime_r(&t, &tm) &&
	    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm))
		fprintf(f, "# +expiry-time=%s\n", when);
	node_labels(cli, f, d);
	runtime_labels(f, &d->inv);
	probe_labels(f, gd_check_extra_probes(d));
}

int gd_nfd_emit(struct gd_cli *cli, const struct gd_check_data *d,
		const char *dir, long expiry)
{
	char *buf = NULL, err[4200];
	size_t len = 0;
	gd_memstream ms;
	FILE *f;
	int r;

	if (!dir) {
		nfd_text(cli, stdout, d, expiry);
		return 0;
	}
	f = gd_plat_memstream_open(&ms);
	if (!f)
		return gd_cli_error(cli, "out of memory");
	nfd_text(cli, f, d, expiry);
	if (gd_plat_memstream_close(&ms, &buf, &len) != 0)
		return gd_cli_error(cli, "out of memory");
	r = gd_out_write_atomic(dir, "gpudoctor", buf, len, err, sizeof err);
	free(buf);
	return r < 0 ? gd_cli_error(cli, "%s", err) : 0;
}

int gd_cmd_nfd(struct gd_cli *cli, int argc, char **argv)
{
	struct gd_getopt go;
	struct gd_check_opts o = {1, 10.0, NULL};
	struct gd_check_data d;
	const char *dir = NULL;
	long expiry = 0;
	int c, rc;
	char *end;

	gd_opts_build(&go, gd_opts_nfd, 0);
	while ((c = getopt_long(argc, argv, go.so, go.lo, NULL)) != -1) {
		switch (c) {
		case 'h':
			help();
			return GD_EXIT_OK;
		case 'd':
			dir = optarg;
			break;
		case 'e':
			expiry = strtol(optarg, &end, 10);
			if (*end || expiry <= 0 || expiry > 365L * 86400)
				return gd_cli_usage_error(
				    cli, "nfd", "--expiry needs seconds > 0");
			break;
		case 'n':
			o.probes = 0;
			break;
		case 't':
			o.probe_timeout = strtod(optarg, &end);
			if (*end ||
			    !(o.probe_timeout > 0 && o.probe_timeout <= 86400))
				return gd_cli_usage_error(
				    cli, "nfd", "--timeout needs seconds > 0");
			break;
		default:
			return gd_cli_usage_error(cli, "nfd", "unknown option");
		}
	}
	if (optind < argc)
		return gd_cli_usage_error(
		    cli, "nfd", "unexpected argument '%s'", argv[optind]);
	if (cli->json)
		return gd_cli_usage_error(
		    cli, "nfd",
		    "--json: nfd writes NFD feature-file lines only (the same "
		    "facts as JSON: 'gpudoctor --json check')");
	if (gd_cli_check_collect(cli, &o, &d) < 0) {
		gd_check_free(&d);
		return gd_cli_error(cli, "out of memory");
	}
	/* a written file is a success for cron and systemd timers */
	rc = gd_nfd_emit(cli, &d, dir, expiry);
	if (rc == 0 && !dir)
		rc = gd_check_exit_code(&d);
	gd_check_free(&d);
	gd_cli_print_diags(cli, stderr);
	return rc;
}
