/* gpudoctor explain [FILE|-]: match a log against the knowledge base's
 * error signatures; for each hit say what it means, what on this machine
 * confirms or contradicts it, and the fix. Exit 0 when something matched,
 * 1 when nothing did (like grep), 3 on errors. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "core/json.h"
#include "doctor/errcodes.h"
#include "doctor/explain.h"
#include "report/explain_json.h"
#include "wa_common.h"

struct explain_run {
	struct gd_cli *cli;
	struct gd_machine m;
	struct gd_inventory inv;
	struct gd_explain_result r;
	struct gd_explain_view
	    v; /* all of the above, as the renderers see it */
};

const struct gd_opt gd_opts_explain[] = {
    {"cmd", 0, 'C', GD_ARG_REQUIRED, "NAME",
     "the program that wrote the log (its name or path): a\nfix for it "
     "when it has no code for this GPU",
     NULL, NULL},
    {"help", 'h', 'h', GD_ARG_NONE, NULL, "this help", NULL, NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
};

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "Usage: gpudoctor explain [--cmd NAME] [FILE|-]\n\n"
	    "Read a log (FILE, or stdin when FILE is '-' or missing), match "
	    "it against\nthe knowledge base's error signatures and, for each "
	    "one found, print what it\nmeans, the fact on this machine that "
	    "confirms or contradicts it, and the fix.\nA log longer than %u "
	    "MiB is read as its first %u MiB and its last %u MiB.\n"
	    "Known causes (by cause, whatever the framework's wording): no "
	    "code for the GPU\n(HIP/CUDA invalid device function, no kernel "
	    "image, no binary, rocBLAS Tensile\nlibrary missing, ollama "
	    "unsupported gfx), missing or wrong-version libraries\n(cuBLAS/"
	    "cuDNN sonames and DLLs, WinError 126, HSA symbols), driver "
	    "missing or\ntoo old (also in containers), hidden or refused "
	    "GPUs (CUDA_VISIBLE_DEVICES,\n/dev/kfd, overrides, KFD support), "
	    "out of memory (which case, from the\nline's numbers), and GPU "
	    "faults and hangs (illegal address, memory and page\nfaults, "
	    "ring timeouts, MES, Xid). docs/workarounds.md lists them.\n"
	    "Every runtime error code the log names (cudaError_t, CUresult, "
	    "cuBLAS, cuDNN,\nNCCL, NVRTC, hipError_t, HSA, rocBLAS, hipBLAS, "
	    "MIOpen, VkResult, OpenCL,\nLevel Zero, Unified Runtime), by name "
	    "or by number (\"CUDA error: 700\",\n\"hipError_t 98\"), is "
	    "decoded from tables generated from their headers.\n"
	    "Where one message has several causes the log cannot tell apart, "
	    "all are named,\nlikeliest first; --json gives them as cause "
	    "codes ('gpudoctor kb CODE' says\nwhat each means).\n"
	    "Exit status: 0 a signature matched or a code was decoded, 1 "
	    "neither, 3 error.\n\n",
	    GD_EXPLAIN_MAX_BYTES >> 20, GD_EXPLAIN_HEAD_BYTES >> 20,
	    GD_EXPLAIN_TAIL_BYTES >> 20);
	gd_opts_help(f, gd_opts_explain);
	fprintf(f, "\n");
	gd_cli_common_help(f);
}

/* A log is a regular file, or a pipe / terminal on stdin (read up to
 * GD_EXPLAIN_STREAM_MAX). Devices and FIFOs named as a file are refused:
 * /dev/zero never ends, a FIFO blocks until a writer comes. */
static int open_input(struct gd_cli *cli, const char *path)
{
	struct stat st;
	int fd;

	if (!path || !strcmp(path, "-")) {
		if (fstat(STDIN_FILENO, &st) == 0 && !S_ISREG(st.st_mode) &&
		    !S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode) &&
		    !isatty(STDIN_FILENO)) {
			gd_cli_error(cli,
				     "explain: stdin is a device, not a "
				     "log; name the log file or pipe it in");
			return -1;
		}
		if (isatty(STDIN_FILENO))
			fprintf(stderr, "gpudoctor explain: reading the log "
					"from stdin (end with Ctrl-D)\n");
		return STDIN_FILENO;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		gd_cli_error(cli, "explain: cannot open %s: %s", path,
			     strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		gd_cli_error(cli, "explain: %s is a directory, not a log",
			     path);
		close(fd);
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		gd_cli_error(cli,
			     "explain: %s is not a regular file (a device "
			     "or FIFO); pipe it in: ... | gpudoctor explain",
			     path);
		close(fd);
		return -1;
	}
	fcntl(fd, F_SETFL, 0); /* regular files never block anyway */
	return fd;
}

/* Several causes: the signature's line alone cannot tell them apart, so
 * all are named, likeliest first (one adds nothing to "means"). */
static void print_causes(const struct explain_run *x,
			 const struct gd_explain_match *mt,
			 enum gd_check_verdict v)
{
	const gd_kb *kb = x->cli->ctx.kb;
	const char *c[GD_EXPLAIN_MAX_CAUSES];
	size_t n = gd_explain_causes_here(kb, mt, v, c, GD_EXPLAIN_MAX_CAUSES);

	if (n < 2)
		return;
	printf("    causes:  one of %zu, likeliest first:", n);
	for (size_t i = 0; i < n; i++)
		printf(" (%zu) %s%s", i + 1, gd_kb_cause_text(kb, c[i]),
		       i + 1 < n ? ";" : "\n");
}

static void print_match(struct explain_run *x, size_t k,
			const struct gd_explain_match *mt)
{
	struct gd_cli *cli = x->cli;
	const char *title = mt->sig.title;
	const char *col, *fix;
	char fact[1024], pfix[1024];
	enum gd_check_verdict v;

	v = gd_explain_check(&cli->ctx, mt->sig.check, &x->m, &x->inv, fact,
			     sizeof fact);
	col = v == GD_CHECK_CONFIRMED	   ? gd_c_red(cli)
	      : v == GD_CHECK_CONTRADICTED ? gd_c_green(cli)
					   : gd_c_dim(cli);
	printf("\n%s[%zu] %s%s%s (line %lu%s)\n", gd_c_bold(cli), k + 1, mt->id,
	       title ? ": " : "", title ? title : "", mt->line,
	       mt->in_tail ? " of the last part read" : "");
	printf("%s", gd_c_off(cli));
	printf("    log:     %s\n", mt->text);
	if (mt->detail[0])
		printf("    so:      %s\n", mt->detail);
	printf("    means:   %s\n", mt->sig.meaning
					? mt->sig.meaning
					: "(the knowledge base says nothing)");
	if (mt->alternative[0])
		printf("    likelier: %s\n", mt->alternative);
	print_causes(x, mt, v);
	printf("    here:    %s%s%s%s\n", col, gd_check_verdict_prefix(v), fact,
	       gd_c_off(cli));
	fix = gd_explain_fix(&x->v, mt, pfix, sizeof pfix);
	printf("    fix:     %s\n", fix ? fix : "-");
	if (mt->urls[0])
		printf("    source:  %s\n", mt->urls);
}

/* The runtime error codes the log names, decoded. */
static void print_codes(struct explain_run *x)
{
	struct gd_cli *cli = x->cli;

	if (!x->r.codes.n)
		return;
	printf("\n%sError codes in the log%s (decoded from the runtimes' "
	       "headers and error texts):\n",
	       gd_c_bold(cli), gd_c_off(cli));
	for (size_t i = 0; i < x->r.codes.n; i++) {
		const struct gd_explain_code *e = &x->r.codes.v[i];
		const struct gd_errcode *c = e->c;
		char num[32], fix[1024];

		/* ze_result_t and HSA codes are hex in their headers */
		gd_fmt(num, sizeof num, c->value > 0xffff ? "0x%llx" : "%lld",
		       c->value);
		printf("\n  %s = %s (%s), line %lu%s\n", c->name, num,
		       gd_errcode_apis[c->api].type, e->line,
		       e->in_tail ? " of the last part read" : "");
		printf("    log:     %s\n", e->text);
		printf("    means:   %s\n", c->meaning);
		if (c->cause[0])
			printf("    usually: %s\n", c->cause);
		if (gd_explain_code_fix(&x->v, e, fix, sizeof fix))
			printf("    fix:     %s\n", fix);
	}
}

/* "3.1 MiB" */
static void mib(char *out, size_t cap, unsigned long long n)
{
	gd_fmt(out, cap, "%.1f MiB", (double)n / (1024.0 * 1024.0));
}

static void emit_text(struct explain_run *x)
{
	const char *in = x->v.input;
	char tot[32], skip[32], parts[1200];

	mib(tot, sizeof tot, x->r.total);
	mib(skip, sizeof skip, x->r.skipped);
	gd_fmt(parts, sizeof parts,
	       "the first %u MiB and the last %u MiB of "
	       "%s (%s in all; %s in between skipped)",
	       GD_EXPLAIN_HEAD_BYTES >> 20, GD_EXPLAIN_TAIL_BYTES >> 20, in,
	       tot, skip);
	if (!x->r.m.n && x->r.skipped)
		printf("gpudoctor explain: no known signature in the parts "
		       "read: %s (%zu signatures, %lu line%s looked at).\n",
		       parts, x->r.n_signatures, x->r.lines,
		       x->r.lines == 1 ? "" : "s");
	else if (!x->r.m.n && x->r.codes.n)
		printf("gpudoctor explain: no known error signature in %s "
		       "(%zu signatures, %lu line%s), but %zu runtime error "
		       "code%s:\n",
		       in, x->r.n_signatures, x->r.lines,
		       x->r.lines == 1 ? "" : "s", x->r.codes.n,
		       x->r.codes.n == 1 ? "" : "s");
	else if (!x->r.m.n)
		printf("gpudoctor explain: no known error signature in %s "
		       "(%zu signatures, %lu line%s looked at).\n",
		       in, x->r.n_signatures, x->r.lines,
		       x->r.lines == 1 ? "" : "s");
	else
		printf("gpudoctor explain: %zu known error%s in %s (%lu "
		       "line%s)\n",
		       x->r.m.n, x->r.m.n == 1 ? "" : "s", in, x->r.lines,
		       x->r.lines == 1 ? "" : "s");
	for (size_t i = 0; i < x->r.m.n; i++)
		print_match(x, i, &x->r.m.v[i]);
	print_codes(x);
	if (x->r.skipped && x->r.m.n)
		printf("\nnote: read %s; a signature only in the skipped part "
		       "is not shown.\n",
		       parts);
}

static int explain_parse_args(struct gd_cli *cli, int argc, char **argv,
			      const char **path, const char **program)
{
	struct gd_getopt g;
	int c;

	gd_opts_build(&g, gd_opts_explain, 0);
	while ((c = getopt_long(argc, argv, g.so, g.lo, NULL)) != -1) {
		if (c == 'C') {
			const char *s = strrchr(optarg, '/');

			*program = s ? s + 1 : optarg;
			continue;
		}
		if (c == 'h') {
			usage(stdout);
			return GD_EXIT_OK;
		}
		return gd_cli_usage_error(cli, "explain", "unknown option");
	}
	if (argc - optind > 1)
		return gd_cli_usage_error(cli, "explain", "one log at a time");
	*path = optind < argc ? argv[optind] : NULL;
	return -1;
}

int gd_cmd_explain(struct gd_cli *cli, int argc, char **argv)
{
	struct explain_run x;
	const char *path = NULL, *program = NULL;
	struct gd_explain_log log;
	int fd, rc;

	rc = explain_parse_args(cli, argc, argv, &path, &program);
	if (rc >= 0)
		return rc;
	memset(&x, 0, sizeof x);
	x.cli = cli;
	x.v =
	    (struct gd_explain_view){&cli->ctx,
				     path && strcmp(path, "-") ? path : "stdin",
				     &x.m,
				     &x.inv,
				     &x.r,
				     &log,
				     program && program[0] ? program : NULL};
	fd = open_input(cli, path);
	if (fd < 0)
		return GD_EXIT_ERROR;
	rc = gd_explain_read_log(fd, GD_EXPLAIN_HEAD_BYTES,
				 GD_EXPLAIN_TAIL_BYTES, &log);
	if (fd != STDIN_FILENO)
		close(fd);
	if (rc < 0)
		return gd_cli_error(cli, "explain: cannot read %s: %s",
				    x.v.input, strerror(-rc));
	if (log.stream_cut)
		fprintf(stderr,
			"gpudoctor explain: stopped reading %s after "
			"%llu MiB\n",
			x.v.input, GD_EXPLAIN_STREAM_MAX >> 20);
	if (gd_explain_here(&cli->ctx, &log, &x.m, &x.inv, &x.r) < 0) {
		rc = gd_cli_error(cli, "explain: out of memory");
	} else {
		if (cli->json)
			gd_cli_emit_json(cli, gd_explain_doc(&x.v));
		else
			emit_text(&x);
		rc = x.r.m.n || x.r.codes.n ? GD_EXIT_OK : 1;
	}
	gd_explain_log_free(&log);
	gd_explain_result_free(&x.r);
	gd_machine_free(&x.m);
	gd_inventory_free(&x.inv);
	return rc;
}
