/* check --brief: one line per GPU in the report's own words, for apps that
 * onboard their users (issue #13). Everything here is read from the
 * doctor's verdict (status, headline, workloads) and the kb; a verdict is
 * never re-judged. */
#include "check_brief.h"
#include "discover/vendor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "kb/kb.h"

static int wl_usable(const struct gd_workload_advice *w)
{
	return strcmp(w->verdict, "cpu") && strcmp(w->verdict, "no") &&
	       strcmp(w->verdict, "unknown") && strcmp(w->backend, "CPU");
}

/* The backend an app would use: the first workload (the kb lists
 * CTranslate2, PyTorch, llama.cpp in that order) with a GPU backend. */
static void pick_backend(const struct gd_verdict *v, char *buf, size_t cap)
{
	snprintf(buf, cap, "CPU");
	for (size_t i = 0; i < v->workloads.n; i++)
		if (wl_usable(&v->workloads.v[i])) {
			snprintf(buf, cap, "%s", v->workloads.v[i].backend);
			return;
		}
}

/* "rdna1" from "RDNA 1": the guide's section for unsupported families. */
static void family_slug(const char *fam, char *buf, size_t cap)
{
	size_t n = 0;

	for (; fam && *fam && n + 1 < cap; fam++) {
		if (*fam == '(')
			break;
		if ((*fam >= 'A' && *fam <= 'Z') ||
		    (*fam >= 'a' && *fam <= 'z') ||
		    (*fam >= '0' && *fam <= '9'))
			buf[n++] =
			    (char)(*fam |
				   (*fam >= 'A' && *fam <= 'Z' ? 0x20 : 0));
	}
	buf[n] = '\0';
}

/* Which section of `gpudoctor guide` helps with this GPU. */
static void guide_for(struct gd_cli *cli, const struct gd_gpu *g,
		      enum gd_verdict_status s, char *buf, size_t cap)
{
	struct gd_kb_target t;
	char slug[24];

	if (!g) {
		snprintf(buf, cap, "cpu");
	} else if (g->vendor == GD_VENDOR_NVIDIA) {
		snprintf(buf, cap, "nvidia");
	} else if (g->vendor != GD_VENDOR_AMD) {
		snprintf(buf, cap, "%s",
			 g->vendor == GD_VENDOR_INTEL ? "intel" : "cpu");
	} else if (g->integrated && (s == GD_V_WORKS || s == GD_V_SETUP)) {
		snprintf(buf, cap, "amd#apu");
	} else if (s == GD_V_WORKS || s == GD_V_SETUP) {
		snprintf(buf, cap, "amd#rocm");
	} else {
		gd_kb_target_get(cli->ctx.kb, g->gfx, &t);
		family_slug(t.family, slug, sizeof slug);
		snprintf(buf, cap, "amd#%s",
			 !strcmp(slug, "rdna1") ? "rdna1" : "unsupported");
	}
}

/* The headline is "NAME (FAMILY, TARGET): why"; split at the first ": ". */
static void split_headline(const struct gd_verdict *v, struct gd_brief *b)
{
	const char *colon = strstr(v->headline, ": ");
	size_t n = colon ? (size_t)(colon - v->headline) : 0;
	char *see;

	if (n >= sizeof b->label)
		n = sizeof b->label - 1;
	memcpy(b->label, v->headline, n);
	b->label[n] = '\0';
	snprintf(b->reason, sizeof b->reason, "%s",
		 colon ? colon + 2 : v->headline);
	see = strstr(b->reason, " (see steps)");
	if (see)
		*see = '\0';
}

/* A workaround's reason: the kb's override for the target, when it has one. */
static void workaround_reason(struct gd_cli *cli, const struct gd_gpu *g,
			      struct gd_brief *b)
{
	struct gd_kb_target t;
	const char *ov;

	gd_kb_target_get(cli->ctx.kb, g->gfx, &t);
	ov = t.override.value;

	if (strcmp(b->backend, "ROCm"))
		return;
	if (g->ovr.gfx[0] && strcmp(g->gfx_effective, g->gfx))
		snprintf(b->reason, sizeof b->reason,
			 "HSA_OVERRIDE_GFX_VERSION "
			 "already set: %s runs as %s",
			 g->gfx, g->gfx_effective);
	else if (ov)
		snprintf(b->reason, sizeof b->reason,
			 "HSA_OVERRIDE_GFX_VERSION=%s", ov);
}

void gd_brief_fill(struct gd_cli *cli, const struct gd_check_data *d, size_t i,
		   struct gd_brief *b)
{
	const struct gd_verdict *v = &d->diag.v[i];
	const struct gd_gpu *g = d->m.n_gpus ? &d->m.gpus[i] : NULL;

	memset(b, 0, sizeof *b);
	b->index = g ? (int)i : -1;
	b->vendor = g ? gd_vendor_name(g->vendor) : "cpu";
	b->status = gd_verdict_status_name(v->status);
	b->usable = v->status == GD_V_WORKS || v->status == GD_V_WORKAROUND;
	split_headline(v, b);
	if (g) {
		snprintf(b->name, sizeof b->name, "%s", g->name.v);
		snprintf(b->target, sizeof b->target, "%s",
			 gd_gpu_code_target(g));
		snprintf(b->target_eff, sizeof b->target_eff, "%s",
			 gd_gpu_run_target(g));
	}
	if (!b->label[0])
		snprintf(b->label, sizeof b->label, "%s", g ? b->name : "CPU");
	pick_backend(v, b->backend, sizeof b->backend);
	if (g && v->status == GD_V_WORKAROUND)
		workaround_reason(cli, g, b);
	guide_for(cli, g, v->status, b->guide, sizeof b->guide);
}

void gd_brief_line(const struct gd_brief *b, char *buf, size_t cap)
{
	const char *see = " — see gpudoctor guide --vendor ";

	if (b->index < 0) {
		snprintf(buf, cap, "No supported GPU found — CPU mode");
	} else if (!strcmp(b->status, "works")) {
		snprintf(buf, cap, "%s: usable via %s", b->label, b->backend);
	} else if (!strcmp(b->status, "workaround")) {
		snprintf(buf, cap,
			 "%s: usable with a workaround via %s (%s)%s%s",
			 b->label, b->backend, b->reason, see, b->guide);
	} else if (!strcmp(b->status, "needs-setup")) {
		snprintf(buf, cap, "%s: usable via %s after setup (%s)%s%s",
			 b->label, b->backend, b->reason, see, b->guide);
	} else if (strcmp(b->backend, "CPU")) {
		snprintf(buf, cap,
			 "%s: not usable for ML via ROCm or CUDA (%s); "
			 "%s works for some apps, else CPU mode%s%s",
			 b->label, b->reason, b->backend, see, b->guide);
	} else {
		snprintf(buf, cap, "%s: not usable (%s) — CPU mode%s%s",
			 b->label, b->reason, see, b->guide);
	}
}

json_t *gd_brief_group(json_t *lines)
{
	json_t *out = json_array();
	size_t n = json_array_size(lines);
	char *seen = calloc(n ? n : 1, 1);

	for (size_t i = 0; out && seen && i < n; i++) {
		const char *s = json_string_value(json_array_get(lines, i));
		size_t count = 0;

		if (seen[i] || !s)
			continue;
		for (size_t k = i; k < n; k++) {
			const char *t =
			    json_string_value(json_array_get(lines, k));

			if (!seen[k] && t && !strcmp(s, t)) {
				seen[k] = 1;
				count++;
			}
		}
		if (count > 1)
			json_array_append_new(
			    out, json_sprintf("%d\xc3\x97 %s", (int)count, s));
		else
			json_array_append_new(out, json_string(s));
	}
	free(seen);
	json_decref(lines);
	return out;
}

void gd_check_brief_text(struct gd_cli *cli, FILE *f,
			 const struct gd_check_data *d)
{
	json_t *doc = gd_check_brief_json(cli, d);
	json_t *lines = json_object_get(doc, "lines");

	for (size_t i = 0; i < json_array_size(lines); i++)
		fprintf(f, "%s\n", json_string_value(json_array_get(lines, i)));
	json_decref(doc);
}

json_t *gd_brief_gpu_json(const struct gd_brief *b, const char *line)
{
	return json_pack(
	    "{s:i, s:o, s:o, s:o, s:o, s:b, s:o, s:o, s:o, s:o}", "index",
	    b->index, "name", gd_json_str(b->name), "vendor",
	    gd_json_str(b->vendor), "target", gd_json_str_or_null(b->target),
	    "status", gd_json_str(b->status), "usable", b->usable, "backend",
	    gd_json_str(b->backend), "reason", gd_json_str(b->reason), "guide",
	    gd_json_str(b->guide), "line", gd_json_str(line));
}

/* The fields issue #13 asks for, plus each GPU's brief line and "lines"
 * (what the text form prints, identical GPUs as one "8\u00d7" line), so
 * an app shows the same words. */
json_t *gd_check_brief_json(struct gd_cli *cli, const struct gd_check_data *d)
{
	json_t *doc = gd_cli_json_doc("check-brief");
	json_t *gpus = json_array(), *lines = json_array();
	struct gd_brief b;
	char line[1400];

	for (size_t i = 0; i < d->diag.n; i++) {
		gd_brief_fill(cli, d, i, &b);
		gd_brief_line(&b, line, sizeof line);
		json_array_append_new(lines, gd_json_str(line));
		if (b.index >= 0)
			json_array_append_new(gpus,
					      gd_brief_gpu_json(&b, line));
	}
	json_object_set_new(doc, "gpus", gpus);
	json_object_set_new(doc, "cpu_only", json_boolean(!d->diag.any_gpu));
	json_object_set_new(doc, "lines", gd_brief_group(lines));
	json_object_set_new(doc, "exit_code",
			    json_integer(gd_check_exit_code(d)));
	return doc;
}
