/* gpudoctor scan PATH... — GPU targets and runtime needs of binaries,
 * libraries and wheels, judged against the GPUs present or --gpu. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "binscan/binscan.h"
#include "cli.h"
#include "core/json.h"
#include "discover/discover.h"
#include "discover/vendor.h"

#define MAX_GPUS 16
#define MAX_DLL_DIRS 32

const struct gd_opt gd_opts_scan[] = {
    {"gpu", 0, 'g', GD_ARG_REQUIRED, "TARGET",
     "judge against this GPU instead of the ones present:\ngfx1010, "
     "gfx90a:xnack+, sm_90, 8.6 (repeatable)",
     NULL, NULL},
    {"dll-path", 0, 'd', GD_ARG_REQUIRED, "DIR",
     "look here for the DLLs a Windows file imports, after\nits own directory "
     "(e.g. a copy of ROCm\\6.2\\bin; repeatable)",
     NULL, NULL},
    {"max-files", 0, 'm', GD_ARG_REQUIRED, "N",
     "stop a directory walk after N files (default 100000)", NULL, NULL},
    {"help", 'h', 'h', GD_ARG_NONE, NULL, "this help", NULL, NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
};

static void help(void)
{
	printf(
	    "Usage: gpudoctor scan [--gpu TARGET]... [--dll-path DIR]... "
	    "PATH...\n\n"
	    "Lists the GPU code inside binaries, shared libraries, code "
	    "objects,\n"
	    "fatbins and wheels (gfx targets, sm_XX cubins, PTX), the "
	    "libraries they\n"
	    "need and where the loader finds them, and whether that fits the "
	    "GPUs\n"
	    "present. Directories are scanned recursively; wheels in place.\n"
	    "Windows DLLs and .pyd files are read too (imports, .hip_fat, "
	    ".nv_fatb).\n\n"
	    "Options:\n");
	gd_opts_help(stdout, gd_opts_scan);
	printf("\nWith --root DIR (a capture of another machine), the "
	       "libraries a file\n"
	       "needs are looked up on that captured machine, also for PATHs "
	       "outside\n"
	       "DIR: a file of this machine may then read \"not found on the "
	       "captured\n"
	       "machine\".\n\n");
	gd_cli_common_help(stdout);
	printf(
	    "\nExit status: 0 every file fits, 1 a file has no code for the "
	    "GPU, needs\n"
	    "a library that is missing, or could not be read, 3 usage error\n"
	    "(also: a PATH that does not exist).\n");
}

/* The installed NVIDIA driver's version, for the PTX JIT ceiling. */
static void nv_ceiling(gd_ctx *ctx, struct gd_bs_gpu *g)
{
	char buf[1024], *p;

	if (gd_fs_read(&ctx->fs, "/proc/driver/nvidia/version", buf, sizeof buf,
		       NULL))
		return;
	for (p = buf; *p; p++)
		if (*p >= '1' && *p <= '9' && p[1] >= '0' && p[1] <= '9' &&
		    p[2] >= '0' && p[2] <= '9' && p[3] == '.' &&
		    (p == buf || p[-1] == ' ')) {
			gd_bs_ptx_ceiling(p, &g->ptx_max_major,
					  &g->ptx_max_minor);
			return;
		}
}

static size_t present_gpus(struct gd_cli *cli, struct gd_bs_gpu *g, size_t cap)
{
	struct gd_machine m;
	size_t n = 0;

	if (gd_discover(&cli->ctx, &m) < 0)
		return 0;
	for (size_t i = 0; i < m.n_gpus && n < cap; i++) {
		const struct gd_gpu *gp = &m.gpus[i];
		const char *t = gd_gpu_run_target(gp);

		if (!t[0] || gd_bs_gpu_parse(t, &g[n]))
			continue;
		if (!g[n].amd)
			nv_ceiling(&cli->ctx, &g[n]);
		n++;
	}
	gd_machine_free(&m);
	return n;
}

static const char *fit_name(enum gd_bs_fit f)
{
	static const char *const n[] = {"none", "yes", "ptx", "no", "nogpu"};

	return n[f];
}

static json_t *file_json(const struct gd_bs_file *f)
{
	json_t *o = json_object(), *ts = json_array(), *ns = json_array();

	json_object_set_new(o, "path", gd_json_str(f->path));
	json_object_set_new(
	    o, "format", f->format[0] ? gd_json_str(f->format) : json_null());
	json_object_set_new(o, "size", json_integer((json_int_t)f->size));
	json_object_set_new(o, "error",
			    f->error[0] ? gd_json_str(f->error) : json_null());
	for (size_t i = 0; i < f->targets.n; i++) {
		const struct gd_bs_target *t = &f->targets.v[i];
		json_t *j = json_object();

		json_object_set_new(j, "kind",
				    gd_json_str(gd_bs_kind_name(t->kind)));
		json_object_set_new(j, "target", gd_json_str(t->target));
		json_object_set_new(j, "features", gd_json_str(t->features));
		json_object_set_new(j, "container", gd_json_str(t->container));
		json_object_set_new(j, "count", json_integer(t->count));
		json_object_set_new(j, "compressed",
				    json_boolean(t->compressed));
		if (t->kind == GD_BS_PTX) {
			char v[16];

			gd_fmt(v, sizeof v, "%u.%u", t->ptx_major,
			       t->ptx_minor);
			json_object_set_new(j, "ptx_isa", gd_json_str(v));
		}
		if (t->co_version)
			json_object_set_new(j, "code_object_version",
					    json_integer(t->co_version));
		json_array_append_new(ts, j);
	}
	json_object_set_new(o, "targets", ts);
	for (size_t i = 0; i < f->needs.n; i++) {
		const struct gd_bs_need *nd = &f->needs.v[i];
		json_t *j = json_object();

		json_object_set_new(j, "soname", gd_json_str(nd->soname));
		json_object_set_new(j, "found", json_boolean(nd->found));
		json_object_set_new(
		    j, "path", nd->found ? gd_json_str(nd->path) : json_null());
		json_object_set_new(
		    j, "how", nd->found ? gd_json_str(nd->how) : json_null());
		json_object_set_new(j, "note", gd_json_str(nd->note));
		json_object_set_new(j, "missing_symbols",
				    json_integer(nd->missing_syms));
		if (nd->missing_syms)
			json_object_set_new(j, "first_missing",
					    gd_json_str(nd->missing_first));
		json_array_append_new(ns, j);
	}
	json_object_set_new(o, "needed", ns);
	json_object_set_new(o, "soname", gd_json_str(f->dyn.soname));
	json_object_set_new(
	    o, "runpath",
	    gd_json_str(f->dyn.runpath[0] ? f->dyn.runpath : f->dyn.rpath));
	json_object_set_new(o, "gpu_fit", gd_json_str(fit_name(f->fit)));
	json_object_set_new(o, "runtime_ok", json_boolean(f->runtime_ok));
	json_object_set_new(o, "fits",
			    f->error[0] ? json_null()
					: json_boolean(gd_bs_file_ok(f)));
	json_object_set_new(o, "detail",
			    gd_json_str(f->error[0] ? f->error : f->detail));
	return o;
}

static void print_targets(struct gd_cli *cli, const struct gd_bs_file *f)
{
	char b1[256], b2[256];

	printf("  targets: ");
	if (!f->targets.n)
		printf("%snone (host code only)%s", gd_c_dim(cli),
		       gd_c_off(cli));
	for (size_t i = 0; i < f->targets.n; i++) {
		const struct gd_bs_target *t = &f->targets.v[i];

		printf("%s%s%s%s", i ? ", " : "",
		       gd_cli_term(b1, sizeof b1, t->target),
		       t->features[0] ? ":" : "",
		       gd_cli_term(b2, sizeof b2, t->features));
		if (t->count > 1)
			printf(" x%u", t->count);
	}
	if (f->targets.n)
		printf("  %s[%s%s]%s", gd_c_dim(cli), f->targets.v[0].container,
		       f->targets.v[0].compressed ? ", compressed" : "",
		       gd_c_off(cli));
	printf("\n");
}

static const char *file_color(const struct gd_cli *cli,
			      const struct gd_bs_file *f)
{
	if (!gd_bs_file_ok(f))
		return gd_c_red(cli);
	return f->fit == GD_FIT_PTX ? gd_c_yellow(cli) : gd_c_green(cli);
}

static void print_file(struct gd_cli *cli, const struct gd_bs_file *f)
{
	/* under --root the loader looked on the captured machine */
	int captured = !cli->ctx.fs.is_slash;

	size_t missing = 0;
	char b1[4096], b2[1024], b3[1024]; /* file bytes, made terminal-safe */

	printf("%s%s%s", gd_c_bold(cli), gd_cli_term(b1, sizeof b1, f->path),
	       gd_c_off(cli));
	if (f->error[0]) {
		printf(": %serror: %s%s\n", gd_c_red(cli),
		       gd_cli_term(b2, sizeof b2, f->error), gd_c_off(cli));
		return;
	}
	printf("  %s(%s, %.1f MiB)%s\n", gd_c_dim(cli), f->format,
	       (double)f->size / (1024.0 * 1024.0), gd_c_off(cli));
	print_targets(cli, f);
	for (size_t i = 0; i < f->needs.n; i++) {
		const struct gd_bs_need *nd = &f->needs.v[i];

		if (nd->found && !nd->missing_syms)
			continue;
		missing++;
		if (!nd->found)
			printf("  %smissing:%s %s%s%s%s\n", gd_c_red(cli),
			       gd_c_off(cli),
			       gd_cli_term(b2, sizeof b2, nd->soname),
			       captured ? " (not found on the captured machine)"
					: "",
			       nd->note[0] ? " — " : "",
			       gd_cli_term(b3, sizeof b3, nd->note));
		else
			printf(
			    "  %s%s%s lacks %u versioned symbol(s), e.g. %s\n",
			    gd_c_red(cli), gd_cli_term(b2, sizeof b2, nd->path),
			    gd_c_off(cli), nd->missing_syms,
			    gd_cli_term(b3, sizeof b3, nd->missing_first));
	}
	if (f->needs.n && !missing)
		printf("  needs:   %zu libraries, all found\n", f->needs.n);
	if (f->fit == GD_FIT_NOGPU)
		printf("  verdict: %sno GPU to compare with (use --gpu)%s\n",
		       gd_c_dim(cli), gd_c_off(cli));
	else if (f->detail[0])
		printf("  verdict: %s%s%s\n", file_color(cli, f),
		       gd_cli_term(b2, sizeof b2, f->detail), gd_c_off(cli));
}

/* --dll-path DIR: kept as given (argv outlives the scan). */
static int add_dll_dir(struct gd_cli *cli, const char *dir, const char **dirs,
		       size_t *n)
{
	struct stat st;

	if (*n >= MAX_DLL_DIRS)
		return gd_cli_usage_error(cli, "scan", "at most %d --dll-path",
					  MAX_DLL_DIRS);
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return gd_cli_usage_error(
		    cli, "scan", "bad --dll-path '%s': not a directory", dir);
	dirs[(*n)++] = dir;
	return 0;
}

static int parse_args(struct gd_cli *cli, int argc, char **argv,
		      struct gd_bs_gpu *gpus, size_t *n_gpus,
		      struct gd_bs_opts *o, const char **dll_dirs,
		      size_t *n_dll)
{
	struct gd_getopt g;
	int c;
	uint32_t v;

	gd_opts_build(&g, gd_opts_scan, 0);
	while ((c = getopt_long(argc, argv, g.so, g.lo, NULL)) != -1) {
		switch (c) {
		case 'g':
			if (*n_gpus >= MAX_GPUS ||
			    gd_bs_gpu_parse(optarg, &gpus[*n_gpus]))
				return gd_cli_usage_error(
				    cli, "scan",
				    "bad --gpu '%s' "
				    "(gfx1010, gfx90a:xnack+, sm_90, 8.6)",
				    optarg);
			if (!gpus[*n_gpus].amd)
				nv_ceiling(&cli->ctx, &gpus[*n_gpus]);
			(*n_gpus)++;
			break;
		case 'd':
			if ((c = add_dll_dir(cli, optarg, dll_dirs, n_dll)))
				return c;
			break;
		case 'm':
			if (gd_parse_u32(optarg, 10, &v) || !v)
				return gd_cli_usage_error(
				    cli, "scan", "bad --max-files '%s'",
				    optarg);
			o->max_files = v;
			break;
		case 'h':
			help();
			return -1;
		default:
			return gd_cli_usage_error(cli, "scan",
						  "unknown option");
		}
	}
	if (optind >= argc)
		return gd_cli_usage_error(cli, "scan", "no PATH given");
	for (int i = optind; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st) && errno == ENOENT)
			return gd_cli_usage_error(
			    cli, "scan", "%s: no such file or directory",
			    argv[i]);
	}
	return 0;
}

int gd_cmd_scan(struct gd_cli *cli, int argc, char **argv)
{
	struct gd_bs_gpu gpus[MAX_GPUS];
	struct gd_bs_opts o = GD_BS_OPTS_DEFAULT;
	struct gd_bs_env env;
	gd_bs_files files = {0};
	const char *dll_dirs[MAX_DLL_DIRS];
	size_t n_gpus = 0, bad = 0, n_dll = 0;
	int rc =
	    parse_args(cli, argc, argv, gpus, &n_gpus, &o, dll_dirs, &n_dll);
	json_t *doc, *arr;

	if (rc < 0)
		return GD_EXIT_OK;
	if (rc)
		return rc;
	if (!n_gpus)
		n_gpus = present_gpus(cli, gpus, MAX_GPUS);
	for (int i = optind; i < argc; i++)
		if (gd_bs_scan_path(&cli->ctx, argv[i], &o, &files) < 0)
			return gd_cli_error(cli, "out of memory");
	gd_bs_env_init(&cli->ctx, &env, gpus, n_gpus);
	env.dll_dirs = dll_dirs;
	env.n_dll_dirs = n_dll;
	for (size_t i = 0; i < files.n; i++) {
		gd_bs_judge(&cli->ctx, &env, &files.v[i]);
		bad += !gd_bs_file_ok(&files.v[i]);
	}
	gd_bs_env_free(&env);
	if (cli->json) {
		doc = gd_cli_json_doc("scan");
		arr = json_array();
		for (size_t i = 0; i < n_gpus; i++)
			json_array_append_new(arr, gd_json_str(gpus[i].name));
		json_object_set_new(doc, "gpus", arr);
		arr = json_array();
		for (size_t i = 0; i < files.n; i++)
			json_array_append_new(arr, file_json(&files.v[i]));
		json_object_set_new(doc, "files", arr);
		gd_cli_emit_json(cli, doc);
	} else {
		for (size_t i = 0; i < files.n; i++)
			print_file(cli, &files.v[i]);
		if (!files.n)
			printf("no binaries found\n");
	}
	gd_cli_print_diags(cli, stderr);
	gd_bs_files_free(&files);
	return bad ? GD_EXIT_UNUSABLE : GD_EXIT_OK;
}
