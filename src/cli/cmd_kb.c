/* gpudoctor kb [TARGET]: what the knowledge base knows about a GPU target
 * (gfx name, PCI device id, NVIDIA sm_XX or an issue id), with sources as
 * [n] footnotes. Without TARGET: a table of every known target. The text
 * rendering is in cmd_kb_text.c. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli.h"
#include "cmd_kb.h"
#include "core/json.h"
#include "kb/kb_raw.h"

const struct gd_opt gd_opts_kb[] = {
    {"stale", 0, 's', GD_ARG_NONE, NULL,
     "list entries whose sources were last checked over --days ago", NULL,
     NULL},
    {"days", 0, 'd', GD_ARG_REQUIRED, "N",
     "age in days that counts as stale (default 365)", NULL, NULL},
    {"help", 'h', 'h', GD_ARG_NONE, NULL, "this help", NULL, NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
};

static void usage(FILE *f)
{
	fprintf(
	    f, "Usage: gpudoctor kb [--json] [TARGET]\n"
	       "       gpudoctor kb [--json] --stale [--days N]\n\n"
	       "Without TARGET: every GPU target the knowledge base knows.\n"
	       "TARGET is one of:\n"
	       "  gfx1010, gfx90a:xnack-   an AMD gfx target\n"
	       "  0x731f, 731f             a PCI device id (AMD, then NVIDIA)\n"
	       "  sm_90, 9.0               an NVIDIA compute capability\n"
	       "  rocm-2527                a known issue\n"
	       "  cuda-driver-insufficient a signature of explain, with its "
	       "causes\n"
	       "  container-gpu-not-requested\n"
	       "                           a cause (explain --json's "
	       "causes[].id),\n"
	       "                           with the signatures that name it\n\n"
	       "--stale: entries whose newest source was checked more than N\n"
	       "days before today (SOURCE_DATE_EPOCH overrides today).\n\n"
	       "Exit status: 0 found (--stale: none stale), 1 some stale,\n"
	       "3 unknown TARGET or bad usage.\n\n");
	gd_opts_help(f, gd_opts_kb);
	fprintf(f, "\n");
	gd_cli_common_help(f);
}

/* Collect every source id referenced below o into the map out. */
static void collect_sources(const gd_kb *kb, const json_t *o, json_t *out)
{
	const char *k;
	json_t *m, *s;
	size_t i;

	if (json_is_array(o)) {
		json_array_foreach(o, i, m) collect_sources(kb, m, out);
		return;
	}
	json_object_foreach((json_t *)o, k, m)
	{
		if (strcmp(k, "sources")) {
			collect_sources(kb, m, out);
			continue;
		}
		json_array_foreach(m, i, s)
		{
			const char *id = json_string_value(s);
			const json_t *src = gd_kb_source(kb, id);

			if (id && src)
				json_object_set_new(out, id,
						    json_deep_copy(src));
		}
	}
}

static int emit_json(struct gd_cli *cli, const gd_kb *kb, const char *query,
		     const char *kind, json_t *found)
{
	json_t *doc = gd_cli_json_doc("kb"), *info = json_object();
	json_t *srcs = json_object();

	json_object_set_new(info, "origin", gd_json_str(gd_kb_origin(kb)));
	json_object_set(info, "kb_date",
			json_object_get(gd_kb_root(kb), "kb_date"));
	json_object_set(info, "schema_version",
			json_object_get(gd_kb_root(kb), "schema_version"));
	json_object_set_new(doc, "kb", info);
	json_object_set_new(doc, "query",
			    query ? gd_json_str(query) : json_null());
	json_object_set_new(doc, "kind", gd_json_str(kind));
	json_object_set_new(doc, "result", found);
	collect_sources(kb, found, srcs);
	json_object_set_new(doc, "sources", srcs);
	return gd_cli_emit_json(cli, doc) < 0 ? GD_EXIT_ERROR : GD_EXIT_OK;
}

static json_t *target_json(const gd_kb *kb, const json_t *t)
{
	json_t *r = json_object(), *iss = json_array(), *strat = json_array();
	size_t i, j;
	json_t *id, *s, *g;

	json_object_set_new(r, "target", json_deep_copy(t));
	json_array_foreach(json_object_get(t, "issues"), i, id)
	{
		const json_t *is = gd_kb_issue(kb, json_string_value(id));

		if (is)
			json_array_append_new(iss, json_deep_copy(is));
	}
	json_array_foreach(gd_kb_get(kb, "strategies"), i, s)
	    json_array_foreach(
		json_object_get(s, "targets"), j,
		g) if (gd_streq(json_string_value(g), gd_kb_str(t, "gfx")))
		json_array_append_new(strat, json_deep_copy(s));
	json_object_set_new(r, "issues", iss);
	json_object_set_new(r, "strategies", strat);
	return r;
}

static json_t *list_json(const gd_kb *kb)
{
	json_t *r = json_object(), *arr = json_array(), *t;
	size_t i;

	json_array_foreach(json_object_get(gd_kb_root(kb), "targets"), i, t)
	{
		json_t *o = json_object();

		json_object_set_new(o, "gfx", gd_json_str(gd_kb_str(t, "gfx")));
		json_object_set(o, "gfx_target_version",
				json_object_get(t, "gfx_target_version"));
		json_object_set(o, "family", json_object_get(t, "family"));
		json_object_set(o, "generation",
				json_object_get(t, "generation"));
		json_object_set(
		    o, "rocm_linux",
		    json_object_get(json_object_get(t, "rocm_linux"),
				    "status"));
		json_object_set(
		    o, "rocm_windows",
		    json_object_get(json_object_get(t, "rocm_windows"),
				    "status"));
		json_object_set(
		    o, "override",
		    json_object_get(json_object_get(t, "override"), "value"));
		json_array_append_new(arr, o);
	}
	json_object_set_new(r, "targets", arr);
	json_object_set_new(
	    r, "nvidia_compute_capabilities",
	    json_deep_copy(json_object_get(gd_kb_get(kb, "nvidia"),
					   "compute_capabilities")));
	return r;
}

/* "0x731f" or "731f" (exactly 4 hex digits without the prefix). */
static long parse_pci(const char *s)
{
	const char *h = !strncasecmp(s, "0x", 2) ? s + 2 : s;
	char *end;
	long v;

	if (strlen(h) != 4 || strspn(h, "0123456789abcdefABCDEF") != 4)
		return -1;
	v = strtol(h, &end, 16);
	return *end ? -1 : v;
}

static int show(struct gd_cli *cli, const gd_kb *kb, const char *q)
{
	const json_t *t = NULL, *gpu = NULL, *cc = NULL, *is = NULL;
	long pci = parse_pci(q);
	json_t *r;

	if (!strncasecmp(q, "gfx", 3))
		t = gd_kb_target(kb, q);
	else if (pci >= 0 && !(t = gd_kb_target_for_pci(kb, (unsigned)pci)))
		gpu = gd_kb_nvidia_for_pci(kb, (unsigned)pci);
	else if (!(is = gd_kb_issue(kb, q)))
		cc = gd_kb_nvidia_cc(kb, q);
	if (gpu)
		cc = gd_kb_nvidia_cc(kb, gd_kb_str(gpu, "sm"));
	if (!t && !gpu && !cc && !is) {
		const char *kind = NULL;
		json_t *found = NULL;

		if (gd_cmd_kb_show_cause(cli, kb, q, &found, &kind))
			return found ? emit_json(cli, kb, q, kind, found)
				     : GD_EXIT_OK;
		fprintf(stderr,
			"gpudoctor kb: the knowledge base (%s) knows "
			"nothing about '%s'; 'gpudoctor kb' lists what it "
			"knows\n",
			gd_kb_origin(kb), q);
		return GD_EXIT_ERROR;
	}
	if (cli->json) {
		if (t)
			return emit_json(cli, kb, q, "amd-target",
					 target_json(kb, t));
		if (is)
			return emit_json(cli, kb, q, "issue",
					 json_deep_copy(is));
		r = json_object();
		json_object_set_new(r, "gpu",
				    gpu ? json_deep_copy(gpu) : json_null());
		json_object_set_new(r, "compute_capability",
				    cc ? json_deep_copy(cc) : json_null());
		json_object_set_new(
		    r, "cuda_driver_min",
		    json_deep_copy(json_object_get(gd_kb_get(kb, "nvidia"),
						   "cuda_driver_min")));
		return emit_json(cli, kb, q, "nvidia", r);
	}
	if (t)
		gd_cmd_kb_print_target(cli, kb, t);
	else if (is)
		gd_cmd_kb_print_issue(cli, kb, is);
	else
		gd_cmd_kb_print_nvidia(cli, kb, gpu, cc);
	return GD_EXIT_OK;
}

/* Today in days since 1970-01-01: SOURCE_DATE_EPOCH (reproducible-builds.org)
 * when set, so tests can move the clock; -1 when it is not a number. */
static long today_day(void)
{
	const char *s = getenv("SOURCE_DATE_EPOCH");
	char *end;
	long long t;

	if (!s)
		return (long)(time(NULL) / 86400);
	t = strtoll(s, &end, 10);
	return *s && !*end && t >= 0 ? (long)(t / 86400) : -1;
}

static int stale(struct gd_cli *cli, const gd_kb *kb, long days)
{
	long today = today_day();
	json_t *list, *e, *s;
	size_t i, j, n;

	if (today < 0)
		return gd_cli_error(cli,
				    "kb: SOURCE_DATE_EPOCH is not a number");
	list = gd_kb_stale(kb, today, days);
	if (!list)
		return gd_cli_error(cli, "out of memory");
	n = json_array_size(list);
	if (cli->json) {
		json_t *r = json_pack("{s:I, s:I, s:o}", "today_days",
				      (json_int_t)today, "days",
				      (json_int_t)days, "entries", list);
		int rc = emit_json(cli, kb, NULL, "stale", r);

		return rc != GD_EXIT_OK ? rc
		       : n		? GD_EXIT_UNUSABLE
					: GD_EXIT_OK;
	}
	printf("%zu entries last checked more than %ld days ago\n", n, days);
	json_array_foreach(list, i, e)
	{
		printf("  %-18s %-28s %s %5lld days  sources:",
		       gd_kb_str(e, "kind"), gd_cmd_kb_str_or(e, "id", "-"),
		       gd_cmd_kb_str_or(e, "checked", "never"),
		       (long long)json_integer_value(
			   json_object_get(e, "age_days")));
		json_array_foreach(json_object_get(e, "sources"), j, s)
		    printf(" %s", json_string_value(s));
		printf("\n");
	}
	json_decref(list);
	return n ? GD_EXIT_UNUSABLE : GD_EXIT_OK;
}

int gd_cmd_kb(struct gd_cli *cli, int argc, char **argv)
{
	struct gd_getopt g;
	const gd_kb *kb = cli->ctx.kb;
	long days = 365;
	int c, want_stale = 0;
	char *end;

	gd_opts_build(&g, gd_opts_kb, 0);
	while ((c = getopt_long(argc, argv, g.so, g.lo, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return GD_EXIT_OK;
		}
		if (c == 's') {
			want_stale = 1;
			continue;
		}
		if (c == 'd') {
			days = strtol(optarg, &end, 10);
			if (!*optarg || *end || days < 0)
				return gd_cli_usage_error(cli, "kb",
							  "--days takes "
							  "a number of days");
			continue;
		}
		return gd_cli_usage_error(cli, "kb", "unknown option");
	}
	if (!kb)
		return gd_cli_error(cli, "no knowledge base could be loaded");
	if (want_stale && optind < argc)
		return gd_cli_usage_error(cli, "kb", "--stale takes no TARGET");
	if (want_stale)
		return stale(cli, kb, days);
	if (argc - optind > 1)
		return gd_cli_usage_error(cli, "kb", "one TARGET at most");
	if (optind < argc)
		return show(cli, kb, argv[optind]);
	if (cli->json)
		return emit_json(cli, kb, NULL, "list", list_json(kb));
	gd_cmd_kb_print_list(cli, kb);
	return GD_EXIT_OK;
}
