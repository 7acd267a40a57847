/* gpudoctor kb: the text rendering of a target, an NVIDIA GPU or compute
 * capability, an issue and the list of targets, with sources as [n]
 * footnotes. Split out of cmd_kb.c (over 600 lines), which keeps the
 * options, the lookup, --json and --stale. */
#include <stdio.h>
#include <string.h>

#include "cmd_kb.h"
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

const char *gd_cmd_kb_str_or(const json_t *o, const char *key, const char *def)
{
	const char *s = gd_kb_str(o, key);

	return s && *s ? s : def;
}

void gd_cmd_kb_print_list(struct gd_cli *cli, const gd_kb *kb)
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
		printf("%-8s %-14s %-26.26s %-12s %-13s %-8s %s\n",
		       gd_kb_str(t, "gfx"), gd_cmd_kb_str_or(t, "family", "?"),
		       gd_cmd_kb_str_or(t, "generation", "?"),
		       gd_cmd_kb_str_or(json_object_get(t, "rocm_linux"),
					"status", "?"),
		       gd_cmd_kb_str_or(json_object_get(t, "rocm_windows"),
					"status", "?"),
		       gd_cmd_kb_str_or(json_object_get(t, "override"), "value",
					"-"),
		       ids);
	}
	printf("\n%zu targets; 'gpudoctor kb TARGET' for details. "
	       "Knowledge base: %s (%s).\n",
	       json_array_size(json_object_get(gd_kb_root(kb), "targets")),
	       gd_kb_origin(kb),
	       gd_cmd_kb_str_or(gd_kb_root(kb), "kb_date", "?"));
}

static void print_sources(struct gd_cli *cli, const gd_kb *kb, struct notes *fn)
{
	printf("\n%sSources%s\n", gd_c_bold(cli), gd_c_off(cli));
	for (int i = 0; i < fn->n; i++) {
		const json_t *s = gd_kb_source(kb, fn->id[i]);
		const char *url = gd_kb_str(s, "url");

		printf("  [%d] %s%s%s%s\n", i + 1,
		       gd_cmd_kb_str_or(s, "title", fn->id[i]), url ? " <" : "",
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
		printf("  - %s", gd_cmd_kb_str_or(p, "name", "?"));
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
	printf(". %s %s\n", gd_cmd_kb_str_or(ov, "caveat", ""),
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
		printf("  %-12s %s (%s): %s %s\n", k,
		       gd_cmd_kb_str_or(a, "verdict", "?"),
		       gd_cmd_kb_str_or(a, "backend", "?"),
		       gd_cmd_kb_str_or(a, "text", ""),
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
		       gd_cmd_kb_str_or(is, "status", "?"),
		       gd_cmd_kb_str_or(is, "title", ""),
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
		       gd_cmd_kb_str_or(s, "reason", ""));
		if (gd_kb_str(s, "steps"))
			printf("    steps: %s\n", gd_kb_str(s, "steps"));
		if (gd_kb_str(s, "caveat") && *gd_kb_str(s, "caveat"))
			printf("    caveat: %s\n", gd_kb_str(s, "caveat"));
	}
}

void gd_cmd_kb_print_target(struct gd_cli *cli, const gd_kb *kb,
			    const json_t *t)
{
	struct notes fn = {.n = 0};
	const json_t *v = json_object_get(t, "gfx_target_version");
	const char *gfx = gd_kb_str(t, "gfx");
	char r[96];

	printf("%s%s%s  %s, %s %s\n", gd_c_bold(cli), gfx, gd_c_off(cli),
	       gd_cmd_kb_str_or(t, "family", "?"),
	       gd_cmd_kb_str_or(t, "generation", "?"),
	       refs(&fn, t, r, sizeof r));
	if (json_is_integer(v))
		printf("  %-15s %lld\n", "KFD version",
		       (long long)json_integer_value(v));
	else
		printf("  %-15s none (the kernel's KFD does not report this "
		       "target)\n",
		       "KFD version");
	printf("  %-15s %s\n  %-15s %lld%s\n  %-15s %s\n", "LLVM generic",
	       gd_cmd_kb_str_or(t, "llvm_generic", "none"), "wave size",
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

void gd_cmd_kb_print_nvidia(struct gd_cli *cli, const gd_kb *kb,
			    const json_t *gpu, const json_t *cc)
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
		       gd_cmd_kb_str_or(cc, "cc", "?"),
		       gd_cmd_kb_str_or(cc, "arch", "?"),
		       refs(&fn, cc, r, sizeof r));
		printf("  %-15s %s\n  %-15s %s\n", "first CUDA",
		       gd_cmd_kb_str_or(cc, "min_cuda", "unknown"), "last CUDA",
		       gd_cmd_kb_str_or(cc, "last_cuda", "still supported"));
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
		   gd_kb_str(g, "cuda"), gd_cmd_kb_str_or(g, "linux", "?"),
		   gd_cmd_kb_str_or(g, "windows", "?"),
		   refs(&fn, g, r, sizeof r));
	print_sources(cli, kb, &fn);
}

void gd_cmd_kb_print_issue(struct gd_cli *cli, const gd_kb *kb,
			   const json_t *is)
{
	struct notes fn = {.n = 0};
	char r[96];

	printf("%s%s%s  %s (%s) %s\n  %s\n", gd_c_bold(cli),
	       gd_kb_str(is, "id"), gd_c_off(cli),
	       gd_cmd_kb_str_or(is, "title", ""),
	       gd_cmd_kb_str_or(is, "status", "?"), refs(&fn, is, r, sizeof r),
	       gd_cmd_kb_str_or(is, "url", ""));
	printf("  %s\n", gd_cmd_kb_str_or(is, "summary", ""));
	if (gd_kb_str(is, "workaround"))
		printf("  workaround: %s\n", gd_kb_str(is, "workaround"));
	print_sources(cli, kb, &fn);
}
