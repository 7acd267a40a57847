/* gpudoctor kb [TARGET]: what the knowledge base knows about a GPU target
 * (gfx name, PCI device id, NVIDIA sm_XX or an issue id), with sources as
 * [n] footnotes. Without TARGET: a table of every known target. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli.h"
#include "core/json.h"
#include "kb/kb_raw.h"

/* Footnotes: source ids in order of first use. */
struct notes {
	const char *id[128];
	int n;
};

static int note_no(struct notes *fn, const char *id)
{
	for (int i = 0; i < fn->n; i++)
		if (!strcmp(fn->id[i], id))
			return i + 1;
	if (fn->n >= 128)
		return 0;
	fn->id[fn->n++] = id;
	return fn->n;
}

/* " [1][4]" for an object's "sources" list, into buf. */
static const char *refs(struct notes *fn, const json_t *o, char *buf,
			size_t cap)
{
	size_t i, len = 0;
	json_t *s;

	buf[0] = '\0';
	json_array_foreach(json_object_get(o, "sources"), i, s)
	{
		int k = note_no(fn, json_string_value(s));

		if (k && len + 8 < cap)
			len +=
			    (size_t)snprintf(buf + len, cap - len, "[%d]", k);
	}
	return buf;
}

static const char *str_or(const json_t *o, const char *key, const char *def)
{
	const char *s = gd_kb_str(o, key);

	return s && *s ? s : def;
}

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
	       "  rocm-2527                a known issue\n\n"
	       "--stale: entries whose newest source was checked more than N\n"
	       "days before today (SOURCE_DATE_EPOCH overrides today).\n\n"
	       "Exit status: 0 found (--stale: none stale), 1 some stale,\n"
	       "3 unknown TARGET or bad usage.\n\n");
	gd_opts_help(f, gd_opts_kb);
	fprintf(f, "\n");
	gd_cli_common_help(f);
}

static void print_list(struct gd_cli *cli, const gd_kb *kb)
{
	size_t i;
	json_t *t;

	printf("%s%-8s %-14s %-26s %-12s %-13s %-8s %s%s\n", gd_c_bold(cli),
	       "TARGET", "FAMILY", "GENERATION", "ROCM LINUX", "ROCM WINDOWS",
	       "OVERRIDE", "PCI IDS", gd_c_off(cli));
	json_array_foreach(json_object_get(gd_kb_root(kb), "targets"), i, t)
	{
		char ids[64] = "";
		size_t j, k, len = 0;
		json_t *p, *id;

		json_array_foreach(json_object_get(t, "products"), j, p)
		    json_array_foreach(json_object_get(p, "pci_ids"), k,
				       id) if (len + 8 < sizeof ids) len +=
		    (size_t)snprintf(ids + len, sizeof ids - len, "%s%s",
				     len ? " " : "", json_string_value(id) + 2);
		if (len + 8 >= sizeof ids)
			strcpy(ids + sizeof ids - 5, "...");
		printf(
		    "%-8s %-14s %-26.26s %-12s %-13s %-8s %s\n",
		    gd_kb_str(t, "gfx"), str_or(t, "family", "?"),
		    str_or(t, "generation", "?"),
		    str_or(json_object_get(t, "rocm_linux"), "status", "?"),
		    str_or(json_object_get(t, "rocm_windows"), "status", "?"),
		    str_or(json_object_get(t, "override"), "value", "-"), ids);
	}
	printf("\n%zu targets; 'gpudoctor kb TARGET' for details. "
	       "Knowledge base: %s (%s).\n",
	       json_array_size(json_object_get(gd_kb_root(kb), "targets")),
	       gd_kb_origin(kb), str_or(gd_kb_root(kb), "kb_date", "?"));
}

static void print_sources(struct gd_cli *cli, const gd_kb *kb, struct notes *fn)
{
	printf("\n%sSources%s\n", gd_c_bold(cli), gd_c_off(cli));
	for (int i = 0; i < fn->n; i++) {
		const json_t *s = gd_kb_source(kb, fn->id[i]);
		const char *url = gd_kb_str(s, "url");

		printf("  [%d] %s%s%s%s\n", i + 1,
		       str_or(s, "title", fn->id[i]), url ? " <" : "",
		       url ? url : "", url ? ">" : "");
	}
}

/* One "label: status since/until, note [n]" line for a support object. */
static void support_line(struct notes *fn, const char *label, const json_t *o)
{
	char r[96];
	const json_t *st = json_object_get(o, "status");

	if (!o)
		return;
	/* rocblas_amd has no status: "since" is the release that builds it. */
	printf("  %-15s %s", label,
	       json_is_string(st)      ? json_string_value(st)
	       : json_is_true(st)      ? "yes"
	       : json_is_false(st)     ? "no"
	       : gd_kb_str(o, "since") ? "built"
				       : "not built");
	if (gd_kb_str(o, "since"))
		printf(", since %s", gd_kb_str(o, "since"));
	if (gd_kb_str(o, "until"))
		printf(", until %s", gd_kb_str(o, "until"));
	if (gd_kb_str(o, "family"))
		printf(" (%s)", gd_kb_str(o, "family"));
	if (gd_kb_str(o, "note") && *gd_kb_str(o, "note"))
		printf(". %s", gd_kb_str(o, "note"));
	printf(" %s\n", refs(fn, o, r, sizeof r));
}

static void print_products(const json_t *t)
{
	size_t i, j;
	json_t *p, *id;

	json_array_foreach(json_object_get(t, "products"), i, p)
	{
		printf("  - %s", str_or(p, "name", "?"));
		json_array_foreach(json_object_get(p, "pci_ids"), j, id)
		    printf("%s%s", j ? " " : "  [", json_string_value(id));
		printf("%s\n", json_array_size(json_object_get(p, "pci_ids"))
				   ? "]"
				   : "");
	}
}

static void print_override(struct notes *fn, const json_t *t)
{
	const json_t *ov = json_object_get(t, "override");
	char r[96];
	size_t i;
	json_t *a;

	if (!ov)
		return;
	printf("  %-15s %s", "override",
	       gd_kb_str(ov, "value") ? gd_kb_str(ov, "value") : "none");
	json_array_foreach(json_object_get(ov, "alternatives"), i, a)
	    printf("%s%s", i ? ", " : " (alternatives: ", json_string_value(a));
	if (json_array_size(json_object_get(ov, "alternatives")))
		printf(")");
	printf(". %s %s\n", str_or(ov, "caveat", ""),
	       refs(fn, ov, r, sizeof r));
}

static void print_advice(struct gd_cli *cli, struct notes *fn, const json_t *t)
{
	const char *k;
	json_t *a;
	char r[96];

	printf("\n%sWhat to use%s\n", gd_c_bold(cli), gd_c_off(cli));
	json_object_foreach(json_object_get(t, "advice"), k, a)
	{
		printf("  %-12s %s (%s): %s %s\n", k, str_or(a, "verdict", "?"),
		       str_or(a, "backend", "?"), str_or(a, "text", ""),
		       refs(fn, a, r, sizeof r));
		if (gd_kb_str(a, "install") && *gd_kb_str(a, "install"))
			printf("  %-12s install: %s\n", "",
			       gd_kb_str(a, "install"));
	}
}

static void print_issues(struct gd_cli *cli, const gd_kb *kb, struct notes *fn,
			 const json_t *t)
{
	size_t i;
	json_t *id;
	char r[96];

	if (!json_array_size(json_object_get(t, "issues")))
		return;
	printf("\n%sKnown issues%s\n", gd_c_bold(cli), gd_c_off(cli));
	json_array_foreach(json_object_get(t, "issues"), i, id)
	{
		const json_t *is = gd_kb_issue(kb, json_string_value(id));

		printf("  %s (%s): %s %s\n", json_string_value(id),
		       str_or(is, "status", "?"), str_or(is, "title", ""),
		       refs(fn, is, r, sizeof r));
		if (gd_kb_str(is, "workaround"))
			printf("    workaround: %s\n",
			       gd_kb_str(is, "workaround"));
	}
}

/* Strategies that name this target, in their order. */
static void print_strategies(struct gd_cli *cli, const gd_kb *kb,
			     struct notes *fn, const char *gfx)
{
	size_t i, j;
	json_t *s, *g;
	char r[96];
	int any = 0;

	json_array_foreach(gd_kb_get(kb, "strategies"), i, s)
	{
		const char *k;
		json_t *v;
		int hit = 0;

		json_array_foreach(json_object_get(s, "targets"), j, g) hit |=
		    gd_streq(json_string_value(g), gfx);
		if (!hit)
			continue;
		if (!any++)
			printf("\n%sWorkaround strategies%s (tried in order by "
			       "'gpudoctor try')\n",
			       gd_c_bold(cli), gd_c_off(cli));
		printf("  %s%s:", gd_kb_str(s, "id"),
		       gd_streq(gd_kb_str(s, "kind"), "user-step")
			   ? " (a step for you, never applied)"
			   : "");
		json_object_foreach(json_object_get(s, "env"), k, v)
		    printf(" %s=%s", k, json_string_value(v));
		if (!json_object_size(json_object_get(s, "env")) &&
		    !gd_kb_str(s, "steps"))
			printf(" (nothing changed)");
		printf(" %s\n    %s\n", refs(fn, s, r, sizeof r),
		       str_or(s, "reason", ""));
		if (gd_kb_str(s, "steps"))
			printf("    steps: %s\n", gd_kb_str(s, "steps"));
		if (gd_kb_str(s, "caveat") && *gd_kb_str(s, "caveat"))
			printf("    caveat: %s\n", gd_kb_str(s, "caveat"));
	}
}

static void print_target(struct gd_cli *cli, const gd_kb *kb, const json_t *t)
{
	struct notes fn = {.n = 0};
	const json_t *v = json_object_get(t, "gfx_target_version");
	const char *gfx = gd_kb_str(t, "gfx");
	char r[96];

	printf("%s%s%s  %s, %s %s\n", gd_c_bold(cli), gfx, gd_c_off(cli),
	       str_or(t, "family", "?"), str_or(t, "generation", "?"),
	       refs(&fn, t, r, sizeof r));
	if (json_is_integer(v))
		printf("  %-15s %lld\n", "KFD version",
		       (long long)json_integer_value(v));
	else
		printf("  %-15s none (the kernel's KFD does not report this "
		       "target)\n",
		       "KFD version");
	printf("  %-15s %s\n  %-15s %lld%s\n  %-15s %s\n", "LLVM generic",
	       str_or(t, "llvm_generic", "none"), "wave size",
	       (long long)json_integer_value(json_object_get(t, "wave_size")),
	       json_integer_value(json_object_get(t, "wave_size")) == 32
		   ? " (wave64 capable)"
		   : "",
	       "APU", json_is_true(json_object_get(t, "apu")) ? "yes" : "no");
	if (gd_kb_str(t, "note"))
		printf("  %-15s %s\n", "note", gd_kb_str(t, "note"));
	printf("\n%sProducts%s\n", gd_c_bold(cli), gd_c_off(cli));
	print_products(t);
	printf("\n%sSupport%s\n", gd_c_bold(cli), gd_c_off(cli));
	support_line(&fn, "ROCm Linux", json_object_get(t, "rocm_linux"));
	support_line(&fn, "ROCm Windows", json_object_get(t, "rocm_windows"));
	support_line(&fn, "AMD rocBLAS", json_object_get(t, "rocblas_amd"));
	support_line(&fn, "PyTorch wheels",
		     json_object_get(t, "pytorch_wheels"));
	support_line(&fn, "TheRock", json_object_get(t, "therock"));
	support_line(&fn, "Debian", json_object_get(t, "debian"));
	print_override(&fn, t);
	print_issues(cli, kb, &fn, t);
	print_strategies(cli, kb, &fn, gfx);
	print_advice(cli, &fn, t);
	print_sources(cli, kb, &fn);
}

static void print_nvidia(struct gd_cli *cli, const gd_kb *kb, const json_t *gpu,
			 const json_t *cc)
{
	struct notes fn = {.n = 0};
	char r[96];
	size_t i;
	json_t *g;

	if (gpu)
		printf("%s%s%s  %s, %s %s\n", gd_c_bold(cli),
		       gd_kb_str(gpu, "name"), gd_c_off(cli),
		       gd_kb_str(gpu, "pci_id"), gd_kb_str(gpu, "sm"),
		       refs(&fn, gpu, r, sizeof r));
	if (cc) {
		printf("%s%s%s  compute capability %s, %s %s\n", gd_c_bold(cli),
		       gd_kb_str(cc, "sm"), gd_c_off(cli),
		       str_or(cc, "cc", "?"), str_or(cc, "arch", "?"),
		       refs(&fn, cc, r, sizeof r));
		printf("  %-15s %s\n  %-15s %s\n", "first CUDA",
		       str_or(cc, "min_cuda", "unknown"), "last CUDA",
		       str_or(cc, "last_cuda", "still supported"));
		if (gd_kb_str(cc, "note"))
			printf("  %-15s %s\n", "note", gd_kb_str(cc, "note"));
		printf("\n%sGPUs with %s%s\n", gd_c_bold(cli),
		       gd_kb_str(cc, "sm"), gd_c_off(cli));
		json_array_foreach(
		    json_object_get(gd_kb_get(kb, "nvidia"), "gpus"), i,
		    g) if (gd_streq(gd_kb_str(g, "sm"), gd_kb_str(cc, "sm")))
		    printf("  - %s [%s]\n", gd_kb_str(g, "name"),
			   gd_kb_str(g, "pci_id"));
	}
	printf("\n%sMinimum driver per CUDA major%s\n", gd_c_bold(cli),
	       gd_c_off(cli));
	json_array_foreach(
	    json_object_get(gd_kb_get(kb, "nvidia"), "cuda_driver_min"), i, g)
	    printf("  CUDA %-6s Linux >= %-10s Windows >= %-8s %s\n",
		   gd_kb_str(g, "cuda"), str_or(g, "linux", "?"),
		   str_or(g, "windows", "?"), refs(&fn, g, r, sizeof r));
	print_sources(cli, kb, &fn);
}

static void print_issue(struct gd_cli *cli, const gd_kb *kb, const json_t *is)
{
	struct notes fn = {.n = 0};
	char r[96];

	printf("%s%s%s  %s (%s) %s\n  %s\n", gd_c_bold(cli),
	       gd_kb_str(is, "id"), gd_c_off(cli), str_or(is, "title", ""),
	       str_or(is, "status", "?"), refs(&fn, is, r, sizeof r),
	       str_or(is, "url", ""));
	printf("  %s\n", str_or(is, "summary", ""));
	if (gd_kb_str(is, "workaround"))
		printf("  workaround: %s\n", gd_kb_str(is, "workaround"));
	print_sources(cli, kb, &fn);
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
		print_target(cli, kb, t);
	else if (is)
		print_issue(cli, kb, is);
	else
		print_nvidia(cli, kb, gpu, cc);
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
		       gd_kb_str(e, "kind"), str_or(e, "id", "-"),
		       str_or(e, "checked", "never"),
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
	print_list(cli, kb);
	return GD_EXIT_OK;
}
