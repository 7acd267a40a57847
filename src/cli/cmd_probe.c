/* gpudoctor probe: the op matrix per backend, each backend in a supervised
 * child with deadlines (docs/probe.md). Exit 0 when a backend works on a
 * hardware GPU with every op right, 1 when an op fails/hangs/crashes or is
 * wrong, 2 when no hardware device was found (CPU implementations only),
 * 3 on usage errors. --selftest: 0 when every fault probe is classified
 * right, 1 otherwise. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "core/plat.h"
#include "doctor/probe_cause.h"
#include "probe/backend.h"
#include "report/render_probe.h"

/* Set by SIGINT, SIGTERM and every signal that would end us (Windows:
 * Ctrl-C, Ctrl-Break):
 * the supervisor then stops the children at once (gd_plat_interrupts_catch). */
static volatile int probe_cancel;

/* The op list of --help, from the op table (* = in the --quick set). */
static void help_ops(FILE *f)
{
	const struct gd_op_info *t = gd_ops();

	fprintf(f, "Ops (* = --quick):\n");
	for (int i = 0; i < GD_OP_COUNT; i++)
		if (!t[i].parent)
			fprintf(f, "  %-18s %s %s\n", t[i].name,
				t[i].quick ? "*" : " ", t[i].title);
	fprintf(f, "\n");
}

/* The backends --backend takes: the probe's table, less the selftest. */
static size_t backend_names(const char **out, size_t cap)
{
	size_t n, k = 0;
	const struct gd_backend *const *t = gd_backends(&n);

	for (size_t i = 0; i < n && k < cap; i++)
		if (strcmp(t[i]->name, "selftest"))
			out[k++] = t[i]->name;
	if (k < cap)
		out[k++] = "all";
	return k;
}

/* The ops --only takes, from the op table. */
static size_t op_names(const char **out, size_t cap)
{
	const struct gd_op_info *t = gd_ops();
	size_t k = 0;

	for (int i = 0; i < GD_OP_COUNT && k < cap; i++)
		if (!t[i].parent)
			out[k++] = t[i].name;
	return k;
}

const struct gd_opt gd_opts_probe[] = {
    {"backend", 0, 'b', GD_ARG_REQUIRED, "LIST",
     "cuda,hip,vulkan,opencl (default: all)", NULL, backend_names},
    {"timeout", 0, 't', GD_ARG_REQUIRED, "S",
     "deadline per op (default 10, quick 5)", NULL, NULL},
    {"total-timeout", 0, 'T', GD_ARG_REQUIRED, "S",
     "deadline for the whole run (default 120, quick 8)", NULL, NULL},
    {"quick", 0, 'q', GD_ARG_NONE, NULL, "the small set `gpudoctor check` runs",
     NULL, NULL},
    {"bench", 0, 'B', GD_ARG_NONE, NULL, "bandwidth, launch latency, GEMM rate",
     NULL, NULL},
    {"selftest", 0, 's', GD_ARG_NONE, NULL,
     "fault probes that test the supervisor", NULL, NULL},
    {"only", 0, 'o', GD_ARG_REQUIRED, "OPS",
     "just these ops and what they need (list below)", NULL, op_names},
    {"miopen-find-mode", 0, 'm', GD_ARG_REQUIRED, "M",
     "MIOPEN_FIND_MODE for conv_fwd (HIP)", NULL, NULL},
    {"json", 0, 'j', GD_ARG_NONE, NULL, NULL, NULL, NULL}, /* also global */
    {"help", 'h', 'h', GD_ARG_NONE, NULL, "this help", NULL, NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
};

static void help(FILE *f)
{
	fprintf(
	    f, "Usage: gpudoctor probe [--backend LIST] [--timeout S] "
	       "[--total-timeout S]\n"
	       "                       [--quick] [--bench] [--selftest] "
	       "[--only OPS]\n"
	       "                       [--miopen-find-mode M] [--json]\n\n"
	       "Run the op matrix (init, allocation, copies, a JIT-compiled "
	       "kernel, GEMM,\nconvolution, context cycling) for each backend "
	       "in a supervised child with\na deadline, and report what works, "
	       "fails, gives wrong results or hangs.\n\n");
	gd_opts_help(f, gd_opts_probe);
	fprintf(
	    f, "\nEnvironment: GPUDOCTOR_LIB_PATH=DIR[:DIR] loads the runtimes "
	       "only from there.\n\n");
	help_ops(f);
	gd_cli_common_help(f);
	fprintf(f, "\nExit status: 0 a backend works on a GPU, 1 an op fails, "
		   "2 no GPU (CPU only), 3 error.\n");
}

static int exit_code(const struct gd_probe_report *r)
{
	struct gd_probe_verdict v[16];
	size_t n;
	int works = 0, bad = 0;

	if (r->selftest) {
		for (size_t i = 0; i < r->results.n; i++)
			if (!gd_probe_selftest_pass(&r->results.v[i]))
				return GD_EXIT_UNUSABLE;
		return r->results.n ? GD_EXIT_OK : GD_EXIT_UNUSABLE;
	}
	n = gd_probe_verdicts(r, v, 16);
	for (size_t i = 0; i < n; i++) {
		works |= v[i].level == GD_PV_WORKS;
		bad |=
		    v[i].level == GD_PV_PARTIAL || v[i].level == GD_PV_BROKEN;
	}
	return bad ? GD_EXIT_UNUSABLE : works ? GD_EXIT_OK : GD_EXIT_NO_GPU;
}

static int check_backends(struct gd_cli *cli, const char *list)
{
	char buf[128], *save = NULL;

	gd_strlcpy(buf, list, sizeof buf);
	for (char *t = strtok_r(buf, ",", &save); t;
	     t = strtok_r(NULL, ",", &save))
		if (strcmp(t, "all") &&
		    (!gd_backend_find(t) || !strcmp(t, "selftest")))
			return gd_cli_usage_error(
			    cli, "probe",
			    "unknown backend '%s' (cuda, hip, vulkan, "
			    "opencl)",
			    t);
	return 0;
}

static int parse_only(struct gd_cli *cli, const char *list,
		      struct gd_probe_opts *o)
{
	char bad[48], names[600];

	if (!gd_op_parse_list(list, &o->only, bad, sizeof bad))
		return 0;
	gd_op_names(names, sizeof names, ", ");
	return gd_cli_usage_error(cli, "probe", "%s%s%s (%s)",
				  bad[0] ? "unknown op '"
					 : "--only needs op "
					   "names",
				  bad, bad[0] ? "'" : "", names);
}

static int parse(struct gd_cli *cli, int argc, char **argv,
		 struct gd_probe_opts *o)
{
	struct gd_getopt g;
	int c;
	char *end;

	gd_opts_build(&g, gd_opts_probe, 0);
	while ((c = getopt_long(argc, argv, g.so, g.lo, NULL)) != -1) {
		switch (c) {
		case 'b':
			if (!*optarg)
				return gd_cli_usage_error(
				    cli, "probe",
				    "--backend "
				    "needs a list: cuda, hip, vulkan, opencl");
			if (check_backends(cli, optarg))
				return GD_EXIT_ERROR;
			o->backends = optarg;
			break;
		case 't':
		case 'T': {
			double v = strtod(optarg, &end);

			if (*end || !(v > 0 && v <= 86400))
				return gd_cli_usage_error(
				    cli, "probe", "bad number of seconds '%s'",
				    optarg);
			*(c == 't' ? &o->timeout_s : &o->total_timeout_s) = v;
		} break;
		case 'q':
			o->quick = 1;
			break;
		case 'B':
			o->bench = 1;
			break;
		case 's':
			o->selftest = 1;
			break;
		case 'm':
			o->miopen_find_mode = optarg;
			break;
		case 'o':
			if (parse_only(cli, optarg, o))
				return GD_EXIT_ERROR;
			break;
		case 'j':
			cli->json = 1;
			break;
		case 'h':
			help(stdout);
			return -1;
		default:
			return gd_cli_usage_error(cli, "probe",
						  "unknown option");
		}
	}
	if (optind < argc)
		return gd_cli_usage_error(cli, "probe", "unexpected '%s'",
					  argv[optind]);
	return 0;
}

/* A failed init gets its cause from the machine's facts (discover and
 * inventory run only then: a probe that works needs neither). */
static void judge(struct gd_cli *cli, struct gd_probe_report *r)
{
	struct gd_machine m;
	struct gd_inventory inv;
	int failed = 0, hm, hi;

	for (size_t i = 0; i < r->results.n; i++)
		failed |= !strcmp(r->results.v[i].op, "init") &&
			  r->results.v[i].status != GD_PS_OK &&
			  r->results.v[i].status != GD_PS_WRONG;
	if (!failed || r->selftest)
		return;
	memset(&m, 0, sizeof m);
	memset(&inv, 0, sizeof inv);
	hm = gd_discover(&cli->ctx, &m) == 0;
	hi = gd_inventory_collect(&cli->ctx, &inv) == 0;
	gd_probe_judge(&cli->ctx, hm ? &m : NULL, hi ? &inv : NULL, r);
	gd_inventory_free(&inv);
	gd_machine_free(&m);
}

int gd_cmd_probe(struct gd_cli *cli, int argc, char **argv)
{
	struct gd_probe_opts o;
	struct gd_probe_report r;
	int rc;

	memset(&o, 0, sizeof o);
	rc = parse(cli, argc, argv, &o);
	if (rc)
		return rc < 0 ? GD_EXIT_OK : rc;
	o.cancel = &probe_cancel;
	if (isatty(STDERR_FILENO)) {
		o.on_progress = gd_render_probe_progress;
		o.arg = cli;
	}
	probe_cancel = 0;
	gd_plat_interrupts_catch(&probe_cancel);
	rc = gd_probe_run(&cli->ctx, &o, &r);
	gd_plat_interrupts_restore();
	if (o.on_progress)
		fprintf(stderr, "\r\033[K");
	if (rc < 0) {
		gd_cli_print_diags(cli, stderr);
		gd_probe_report_free(&r);
		return gd_cli_error(cli, "probe could not run: %s",
				    strerror(-rc));
	}
	judge(cli, &r);
	if (cli->json) {
		json_t *doc = gd_cli_json_doc("probe");

		gd_render_probe_json(doc, &r);
		gd_cli_emit_json(cli, doc);
	} else {
		gd_render_probe_text(cli, stdout, &r);
	}
	rc = probe_cancel ? GD_EXIT_ERROR : exit_code(&r);
	gd_probe_report_free(&r);
	return rc;
}
