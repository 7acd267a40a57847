/* check --brief: one line per GPU in the report's own words, for apps that
 * onboard their users (issue #13). Everything here is read from the
 * doctor's verdict (status, label, reason, workloads) and the kb; a verdict is
 * never re-judged. */
#include "check_brief.h"
#include "check_win.h"
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

/* Which section of `gpudoctor guide` helps with this GPU: RDNA 1 has its
 * own (amd#rocm does not list it), whatever the OS and status. */
void gd_brief_guide(struct gd_cli *cli, const struct gd_gpu *g,
		    const char *status, char *buf, size_t cap)
{
	struct gd_kb_target t;
	char slug[24] = "";
	int ok = status &&
		 (!strcmp(status, "works") || !strcmp(status, "needs-setup"));

	if (g && g->vendor == GD_VENDOR_AMD &&
	    gd_kb_target_get(cli->ctx.kb, g->gfx, &t) == 0) {
		family_slug(t.family, slug, sizeof slug);
		/* a workaround for a target ROCm supports (Windows: another
		 * HIP SDK) is ROCm's section, not the unsupported one */
		ok |= status && !strcmp(status, "workaround") &&
		      t.rocm_linux.status &&
		      !strcmp(t.rocm_linux.status, "supported");
	}
	if (!g) {
		snprintf(buf, cap, "cpu");
	} else if (g->vendor == GD_VENDOR_NVIDIA) {
		snprintf(buf, cap, "nvidia");
	} else if (g->vendor != GD_VENDOR_AMD) {
		snprintf(buf, cap, "%s",
			 g->vendor == GD_VENDOR_INTEL ? "intel" : "cpu");
	} else if (!strcmp(slug, "rdna1")) {
		snprintf(buf, cap, "amd#rdna1");
	} else if (g->integrated && ok) {
		snprintf(buf, cap, "amd#apu");
	} else {
		snprintf(buf, cap, "amd#%s", ok ? "rocm" : "unsupported");
	}
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
	if (g->ovr.gfx[0] && strcmp(g->gfx_effective, g->gfx)) {
		snprintf(b->reason, sizeof b->reason,
			 "HSA_OVERRIDE_GFX_VERSION "
			 "already set: %s runs as %s",
			 g->gfx, g->gfx_effective);
		gd_wa_add_env(&b->wa,
			      g->ovr.var[0] ? g->ovr.var
					    : "HSA_OVERRIDE_GFX_VERSION",
			      g->ovr.value);
	} else if (ov) {
		snprintf(b->reason, sizeof b->reason,
			 "HSA_OVERRIDE_GFX_VERSION=%s", ov);
		gd_wa_add_env(&b->wa, "HSA_OVERRIDE_GFX_VERSION", ov);
	}
	if (b->wa.any)
		snprintf(b->wa.note, sizeof b->wa.note,
			 "ROCm runs %s with the kernels of the override's "
			 "target; set it before the app starts",
			 g->gfx);
}

/* The GPU's number among the earlier GPUs of the same backend. */
static int ordinal(const struct gd_check_data *d, size_t i, const char *backend)
{
	char other[32];
	int n = 0;

	for (size_t k = 0; k < i && k < d->diag.n; k++) {
		pick_backend(&d->diag.v[k], other, sizeof other);
		n += !strcmp(other, backend);
	}
	return n;
}

void gd_brief_frameworks(struct gd_brief *b, int ordinal)
{
	gd_fw_devices_for(b->backend, ordinal, b->target, &b->fw);
}

void gd_brief_fill(struct gd_cli *cli, const struct gd_check_data *d, size_t i,
		   struct gd_brief *b)
{
	const struct gd_verdict *v = &d->diag.v[i];
	const struct gd_gpu *g = d->m.n_gpus ? &d->m.gpus[i] : NULL;

	if (d->win && g) {
		*b = d->win->bs[i];
		return;
	}
	memset(b, 0, sizeof *b);
	b->index = g ? (int)i : -1;
	b->vendor = g ? gd_vendor_name(g->vendor) : "cpu";
	b->status = gd_verdict_status_name(v->status);
	b->usable = v->status == GD_V_WORKS || v->status == GD_V_WORKAROUND;
	/* the verdict's own fields, never split back out of its headline */
	snprintf(b->label, sizeof b->label, "%s", v->label);
	snprintf(b->reason, sizeof b->reason, "%s",
		 v->reason[0] ? v->reason : v->headline);
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
	gd_brief_guide(cli, g, b->status, b->guide, sizeof b->guide);
	gd_brief_frameworks(b, ordinal(d, i, b->backend));
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

static json_t *str_or_null(const char *s)
{
	return s && s[0] ? gd_json_str(s) : json_null();
}

static json_t *frameworks_json(const struct gd_fw_devices *f)
{
	return json_pack("{s:{s:o, s:o}, s:{s:o, s:i, s:o}, s:{s:o, s:o}}",
			 "torch", "device", gd_json_str(f->torch_device),
			 "dtype", str_or_null(f->torch_dtype), "ctranslate2",
			 "device", gd_json_str(f->ct2_device), "device_index",
			 f->ct2_index, "compute_type",
			 gd_json_str(f->ct2_compute), "llama.cpp", "backend",
			 gd_json_str(f->llama_backend), "device",
			 str_or_null(f->llama_device));
}

static json_t *dirs_json(const char (*d)[320], int n)
{
	json_t *a = json_array();

	for (int i = 0; i < n; i++)
		json_array_append_new(a, gd_json_str(d[i]));
	return a;
}

json_t *gd_brief_workaround_json(const struct gd_workaround *w)
{
	json_t *env = json_array();

	if (!w->any)
		return json_null();
	for (int i = 0; i < w->n_env; i++)
		json_array_append_new(
		    env,
		    json_pack("{s:o, s:o}", "name", gd_json_str(w->env[i].name),
			      "value", gd_json_str(w->env[i].value)));
	return json_pack("{s:o, s:o, s:o, s:o}", "env", env, "dll_directories",
			 dirs_json(w->dll_dirs, w->n_dll), "path_prepend",
			 dirs_json(w->path_prepend, w->n_path), "note",
			 str_or_null(w->note));
}

void gd_brief_verdict_json(const struct gd_brief *b, json_t *o)
{
	json_object_set_new(o, "status", gd_json_str(b->status));
	json_object_set_new(o, "usable", json_boolean(b->usable));
	json_object_set_new(o, "backend", gd_json_str(b->backend));
	json_object_set_new(o, "label", gd_json_str(b->label));
	json_object_set_new(o, "reason", gd_json_str(b->reason));
	json_object_set_new(o, "frameworks", frameworks_json(&b->fw));
	json_object_set_new(o, "workaround", gd_brief_workaround_json(&b->wa));
}

json_t *gd_brief_gpu_json(const struct gd_brief *b, const char *line)
{
	json_t *o =
	    json_pack("{s:i, s:o, s:o, s:o}", "index", b->index, "name",
		      gd_json_str(b->name), "vendor", gd_json_str(b->vendor),
		      "target", gd_json_str_or_null(b->target));

	gd_brief_verdict_json(b, o);
	json_object_set_new(o, "guide", gd_json_str(b->guide));
	json_object_set_new(o, "line", gd_json_str(line));
	return o;
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
