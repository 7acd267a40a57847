/* gpudoctor gather FILE.tar.gz: capture exactly the files discovery and
 * inventory read, so the machine can be replayed anywhere with --root. */
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "binscan/binscan.h"
#include "cli.h"
#include "core/capture.h"
#include "core/json.h"
#include "core/util.h"
#include "core/wincap.h"
#include "discover/discover.h"
#include "doctor/verdict.h"
#include "gather_win.h"
#include "inventory/frameworks.h"
#include "inventory/inventory.h"
#include "inventory/win_inventory.h"
#include "inventory/win_python.h"

const struct gd_opt gd_opts_gather[] = {
    {"force", 'f', 'f', GD_ARG_NONE, NULL, "replace an existing FILE", NULL,
     NULL},
    {"help", 'h', 'h', GD_ARG_NONE, NULL, "this help", NULL, NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
};

static void help(void)
{
	printf(
	    "Usage: gpudoctor gather [--force] [OPTIONS] FILE.tar.gz\n\n"
	    "Capture exactly the files gpudoctor reads on this machine "
	    "(sysfs,\n"
	    "procfs, ids files, ROCm/CUDA/Vulkan/OpenCL install layout) and "
	    "the\n"
	    "environment variables it consults, into FILE.tar.gz. Libraries "
	    "are\n"
	    "stored as empty files (only their presence matters), so "
	    "framework\n"
	    "libraries show up on a replay without the GPU code inside "
	    "them.\n"
	    "Device nodes are not stored: the GPU ones (/dev/nvidia*, "
	    "/dev/kfd,\n"
	    "/dev/dri/*, /dev/dxg) are listed with their mode and group in\n"
	    ".gpudoctor/devnodes, from which a replay judges access. Replay "
	    "it\n"
	    "anywhere:\n\n"
	    "  mkdir cap && tar xzf FILE.tar.gz -C cap && gpudoctor --root "
	    "cap\n\n"
	    "On Windows (or given a Windows capture with --root) the archive\n"
	    "is a Windows capture: the registry keys gpudoctor reads as\n"
	    "registry/*.reg (as `reg export` writes them), the files under\n"
	    "fs/<drive>/ (DLLs cut down to their headers, imports and version\n"
	    "resource), the whole environment. Unpack it with tar -xzf.\n\n"
	    "Attach the archive to a bug report: it holds no file contents\n"
	    "beyond system information, but it does hold the values of\n"
	    "variables such as PATH, HOME and LD_LIBRARY_PATH (see\n"
	    ".gpudoctor/environ inside).\n\n"
	    "The archive is reproducible (every mtime 0, or "
	    "SOURCE_DATE_EPOCH)\n"
	    "and appears only once complete; an existing FILE is kept unless\n"
	    "--force is given.\n\n");
	gd_opts_help(stdout, gd_opts_gather);
	printf("\n");
	gd_cli_common_help(stdout);
}

/* SOURCE_DATE_EPOCH (reproducible-builds.org): the live environment, not
 * a captured one; unset or empty gives 0. */
static int source_date_epoch(long long *out)
{
	const char *s = getenv("SOURCE_DATE_EPOCH");
	uint64_t v;

	*out = 0;
	if (!s || !*s)
		return 0;
	if (gd_parse_u64(s, 10, &v) < 0 || v > 077777777777ULL)
		return -1; /* ustar's 11 octal digits */
	*out = (long long)v;
	return 0;
}

/* What discovery saw and the archive lacks goes to stderr, one per line,
 * so a bug report built from the archive is known to be incomplete. */
static void report_failures(const struct gd_capture_stats *st)
{
	char line[1024];

	for (size_t i = 0; i < st->failures.n; i++) {
		fprintf(stderr, "gpudoctor: gather: not stored: %s\n",
			gd_cli_term(line, sizeof line, st->failures.v[i]));
	}
	if (st->failed)
		fprintf(stderr,
			"gpudoctor: gather: %zu entr%s could not be "
			"stored; the archive is incomplete\n",
			st->failed, st->failed == 1 ? "y" : "ies");
}

static json_t *gather_json(const char *file, const struct gd_capture_stats *st)
{
	json_t *doc = gd_cli_json_doc("gather"), *f = json_array();

	json_object_set_new(doc, "file", gd_json_str(file));
	json_object_set_new(doc, "files", json_integer((json_int_t)st->files));
	json_object_set_new(doc, "dirs", json_integer((json_int_t)st->dirs));
	json_object_set_new(doc, "links", json_integer((json_int_t)st->links));
	json_object_set_new(doc, "bytes", json_integer((json_int_t)st->bytes));
	json_object_set_new(doc, "skipped",
			    json_integer((json_int_t)st->skipped));
	json_object_set_new(doc, "failed",
			    json_integer((json_int_t)st->failed));
	for (size_t i = 0; i < st->failures.n; i++)
		json_array_append_new(f, gd_json_str(st->failures.v[i]));
	json_object_set_new(doc, "failures", f);
	return doc;
}

int gd_cmd_gather(struct gd_cli *cli, int argc, char **argv)
{
	struct gd_getopt g;
	struct gd_tar_opts topts = {0, 0};
	struct gd_capture *cap;
	struct gd_capture_stats st;
	struct gd_machine m;
	struct gd_inventory inv;
	struct gd_frameworks fws;
	struct gd_win_inventory wi;
	struct gw *win = NULL;
	gd_strvec env_read = {0};
	char err[512], safe[1024];
	int c, rc;

	gd_opts_build(&g, gd_opts_gather, 0);
	while ((c = getopt_long(argc, argv, g.so, g.lo, NULL)) != -1) {
		if (c == 'f') {
			topts.force = 1;
			continue;
		}
		if (c == 'h') {
			help();
			return GD_EXIT_OK;
		}
		return gd_cli_usage_error(cli, "gather", "unknown option");
	}
	if (optind != argc - 1)
		return gd_cli_usage_error(cli, "gather",
					  "expected one FILE.tar.gz");
	if (source_date_epoch(&topts.mtime) < 0)
		return gd_cli_error(cli, "gather: SOURCE_DATE_EPOCH is not a "
					 "number of seconds");
	cap = gd_capture_new();
	if (!cap)
		return gd_cli_error(cli, "out of memory");
	/* Windows (live, or a Windows capture replayed): the same walk,
	 * written in the Windows capture format (gather_win.c) */
	if (gd_ctx_is_windows(&cli->ctx) && !(win = gd_gather_win_new(cap))) {
		gd_capture_free(cap);
		return gd_cli_error(cli, "out of memory");
	}
	if (win)
		gd_gather_win_env(&cli->ctx, &env_read);
	gd_capture_set_stub(cap, gd_elf_stub);
	cli->ctx.fs.hook = gd_capture_hook;
	cli->ctx.fs.hook_arg = cap;
	cli->ctx.env_read = &env_read;
	gd_discover(&cli->ctx, &m);
	memset(&inv, 0, sizeof inv);
	memset(&wi, 0, sizeof wi);
	if (win) {
		struct gd_win_python *py = calloc(1, sizeof *py);

		gd_win_inventory_collect(&cli->ctx, &wi);
		/* the Python environments' framework DLLs (large: heap) */
		if (py)
			gd_win_python_collect(&cli->ctx, py);
		free(py);
	} else {
		gd_inventory_collect(&cli->ctx, &inv);
		gd_doctor_deps(&cli->ctx, &inv);
	}
	memset(&fws, 0, sizeof fws);
	gd_frameworks_collect(&cli->ctx, &fws);
	cli->ctx.fs.hook = NULL;
	rc = gd_capture_write(cap, &cli->ctx, argv[optind], &topts, &st, err,
			      sizeof err);
	gd_gather_win_free(win);
	cli->ctx.env_read = NULL;
	gd_strvec_free(&env_read);
	gd_machine_free(&m);
	gd_inventory_free(&inv);
	gd_frameworks_free(&fws);
	gd_capture_free(cap);
	if (rc < 0) {
		gd_capture_stats_free(&st);
		return gd_cli_error(cli, "gather: %s",
				    gd_cli_term(safe, sizeof safe, err));
	}
	rc = st.failed ? GD_EXIT_ERROR : GD_EXIT_OK;
	report_failures(&st);
	if (cli->json)
		gd_cli_emit_json(cli, gather_json(argv[optind], &st));
	else
		printf("Wrote %s: %zu files (%zu bytes), %zu directories, %zu "
		       "links%s.\nReplay: mkdir cap && tar xzf %s -C cap && "
		       "gpudoctor --root cap\n",
		       gd_cli_term(safe, sizeof safe, argv[optind]), st.files,
		       st.bytes, st.dirs, st.links,
		       st.skipped
			   ? " (device nodes and unreadable files left out)"
			   : "",
		       safe);
	gd_capture_stats_free(&st);
	return rc;
}
