/* doctor/probe_verdict: judgement of probe results: one verdict (level
 * and line) per backend and device, for `probe` and for `check` ("Vulkan
 * works on ...", "CPU only: Vulkan device is llvmpipe (software)", "HIP on
 * gfx1010: gemm_fp32 hangs in phase 'hipblasSgemm'; Vulkan works on this
 * machine"). cli/ only prints these lines. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "evidence.h"
#include "probe/backend.h"

static const char *title_of(const char *backend)
{
	const struct gd_backend *b = gd_backend_find(backend);

	return b ? b->title : backend;
}

static const struct gd_probe_result *find_op(const struct gd_probe_report *r,
					     const char *b, const char *op)
{
	for (size_t i = 0; i < r->results.n; i++)
		if (!strcmp(r->results.v[i].backend, b) &&
		    !strcmp(r->results.v[i].op, op))
			return &r->results.v[i];
	return NULL;
}

/* The one place that says "no device" of a backend's init: the runtime's
 * own answer (hipErrorNoDevice, CUDA_ERROR_NO_DEVICE, CL_DEVICE_NOT_FOUND,
 * no Vulkan ICD), which each probe backend reports as GD_PS_NODEVICE. */
int gd_probe_init_says_no_device(const struct gd_probe_result *init)
{
	return init->status == GD_PS_NODEVICE;
}

/* The backend could not start: missing, skipped, no device, init fails. */
static int init_verdict(const struct gd_probe_result *init,
			struct gd_probe_verdict *v)
{
	const char *t = title_of(init->backend);

	switch (init->status) {
	case GD_PS_OK:
	case GD_PS_WRONG:
		return 0;
	case GD_PS_MISSING:
		v->level = GD_PV_ABSENT;
		gd_fmt(v->text, sizeof v->text, "%s: not available (%s)", t,
		       init->detail);
		break;
	case GD_PS_SKIPPED:
		/* "skipped: no NVIDIA GPU (where it looked)": the head only */
		v->level = GD_PV_ABSENT;
		{
			const char *d = init->detail;

			if (!strncmp(d,
				     "skipped: ", 9)) /* no "skipped" twice */
				d += 9;
			gd_fmt(v->text, sizeof v->text, "%s: %.*s", t,
			       (int)strcspn(d, "("), d);
		}
		gd_trim(v->text);
		break;
	case GD_PS_NODEVICE: /* the runtime's own "no device" code */
	case GD_PS_ERROR:
		v->level = gd_probe_init_says_no_device(init) ? GD_PV_ABSENT
							      : GD_PV_BROKEN;
		gd_fmt(v->text, sizeof v->text, "%s: %s: %s", t,
		       v->level == GD_PV_ABSENT ? "no usable device"
						: "fails at init",
		       init->detail);
		break;
	case GD_PS_HANG:
		v->level = GD_PV_BROKEN;
		gd_fmt(v->text, sizeof v->text,
		       "%s hangs at init%s%s%s: killed after %.1f s", t,
		       init->phase[0] ? " in '" : "", init->phase,
		       init->phase[0] ? "'" : "", init->seconds);
		break;
	case GD_PS_CRASH:
		v->level = GD_PV_BROKEN;
		gd_fmt(v->text, sizeof v->text, "%s crashes at init: %s", t,
		       init->detail);
		break;
	}
	return 1;
}

static const char *verb(enum gd_probe_status s)
{
	switch (s) {
	case GD_PS_WRONG:
		return "gives wrong results";
	case GD_PS_HANG:
		return "hangs";
	case GD_PS_CRASH:
		return "crashes";
	default:
		return "fails";
	}
}

/* Every failure on this device was the whole-run deadline's doing. */
static int cut_short(const struct gd_probe_report *r,
		     const struct gd_probe_device *d)
{
	int n = 0;

	for (size_t i = 0; i < r->results.n; i++) {
		const struct gd_probe_result *x = &r->results.v[i];

		if (strcmp(x->backend, d->backend) ||
		    (x->dev != d->index && x->dev != -1) ||
		    x->status == GD_PS_OK || x->status == GD_PS_SKIPPED ||
		    x->status == GD_PS_MISSING)
			continue;
		if (x->status != GD_PS_HANG ||
		    !strstr(x->detail, "whole-run deadline"))
			return 0;
		n++;
	}
	return n > 0;
}

static void device_verdict(const struct gd_probe_report *r,
			   const struct gd_probe_device *d,
			   struct gd_probe_verdict *v)
{
	const char *t = title_of(d->backend);
	char bad[256] = "", missing[128] = "";
	int nbad = 0;

	for (size_t i = 0; i < r->results.n; i++) {
		const struct gd_probe_result *x = &r->results.v[i];
		size_t l = strlen(bad);

		if (strcmp(x->backend, d->backend) ||
		    (x->dev != d->index && x->dev != -1))
			continue;
		if (x->status == GD_PS_MISSING && strlen(missing) < 100)
			gd_fmt(missing + strlen(missing),
			       sizeof missing - strlen(missing), "%s%s",
			       missing[0] ? ", " : "", x->op);
		if (x->status == GD_PS_OK || x->status == GD_PS_SKIPPED ||
		    x->status == GD_PS_MISSING)
			continue;
		if (nbad++ < 3)
			gd_fmt(bad + l, sizeof bad - l, "%s%s %s%s%s%s",
			       l ? ", " : "", x->op, verb(x->status),
			       x->phase[0] ? " in '" : "", x->phase,
			       x->phase[0] ? "'" : "");
	}
	gd_strlcpy(v->backend, d->backend, sizeof v->backend);
	if (nbad) {
		v->level = GD_PV_PARTIAL;
		gd_fmt(v->text, sizeof v->text, "%s on %s: %s", t, d->name,
		       bad);
	} else if (d->software) {
		v->level = GD_PV_SOFTWARE;
		gd_fmt(v->text, sizeof v->text,
		       "CPU only: %s device is %s (software)", t, d->name);
	} else {
		v->level = GD_PV_WORKS;
		gd_fmt(v->text, sizeof v->text, "%s works on %s%s%s%s", t,
		       d->name, d->isa[0] ? " (" : "", d->isa,
		       d->isa[0] ? ")" : "");
	}
	if (nbad && cut_short(r, d)) {
		gd_strlcpy(v->cause_code,
			   gd_code_name(GD_C_CAUSE_TOTAL_TIMEOUT),
			   sizeof v->cause_code);
		gd_strlcpy(v->cause,
			   "the whole-run deadline stopped the probe before "
			   "this op could finish (a slow or busy machine), not "
			   "the runtime",
			   sizeof v->cause);
		gd_strlcpy(v->fix,
			   "run 'gpudoctor probe' (120 s) or raise "
			   "--total-timeout",
			   sizeof v->fix);
	}
	if (missing[0] && strlen(v->text) < 200)
		gd_fmt(v->text + strlen(v->text),
		       sizeof v->text - strlen(v->text),
		       "; not tested (library missing): %s", missing);
}

/* A backend that works on real hardware is the advice for the others. */
static void add_advice(struct gd_probe_verdict *v, size_t n)
{
	const char *works = NULL;

	for (size_t i = 0; i < n; i++)
		if (v[i].level == GD_PV_WORKS)
			works = title_of(v[i].backend);
	for (size_t i = 0; works && i < n; i++)
		if ((v[i].level == GD_PV_PARTIAL ||
		     v[i].level == GD_PV_BROKEN) &&
		    strcmp(title_of(v[i].backend), works))
			gd_fmt(v[i].text + strlen(v[i].text),
			       sizeof v[i].text - strlen(v[i].text),
			       "; use %s: it works on this machine", works);
}

/* The verdicts of one backend: its init's, else one per device. */
static size_t backend_verdicts(const struct gd_probe_report *r, const char *b,
			       struct gd_probe_verdict *out, size_t max)
{
	const struct gd_probe_result *init = find_op(r, b, "init");
	size_t n = 0;

	if (!max)
		return 0;
	memset(&out[0], 0, sizeof out[0]);
	gd_strlcpy(out[0].backend, b, sizeof out[0].backend);
	if (init && init_verdict(init, &out[0])) {
		const struct gd_probe_diag *dg = gd_probe_diag_of(r, b);

		if (dg && dg->cause_code[0]) {
			gd_strlcpy(out[0].cause_code, dg->cause_code,
				   sizeof out[0].cause_code);
			gd_strlcpy(out[0].cause, dg->cause,
				   sizeof out[0].cause);
			gd_strlcpy(out[0].fix, dg->fix, sizeof out[0].fix);
		}
		return 1;
	}
	for (size_t k = 0; k < r->devices.n && n < max; k++)
		if (!strcmp(r->devices.v[k].backend, b))
			device_verdict(r, &r->devices.v[k], &out[n++]);
	if (!n) {
		out[0].level = GD_PV_ABSENT;
		gd_fmt(out[0].text, sizeof out[0].text,
		       "%s: no device reported", title_of(b));
		n = 1;
	}
	return n;
}

/* ---- a backend probed through several runtimes side by side ----
 * HIP on Windows: one child per amdhip64_N.dll the loader finds
 * (probe.c add_backend_jobs), each result's detail starting with
 * "amdhip64_7.dll: " and each device naming the DLL it loaded. The verdict
 * quotes the runtime that works best (ties: the first probed, the newest
 * major) and names the others, so "HIP 7 sees no device, HIP 6 works"
 * reads as HIP working through amdhip64_6.dll, whatever the order in
 * which the children finished. */
#define MAX_VARIANTS 4

/* "amdhip64_7.dll" from "amdhip64_7.dll: hipErrorNoDevice ..."; 0 none. */
static int result_variant(const struct gd_probe_result *x, char *out,
			  size_t cap)
{
	const char *c = strstr(x->detail, ".dll: ");
	size_t n = c ? (size_t)(c - x->detail) + 4 : 0;

	if (!n || n >= cap || strcspn(x->detail, " :\\/") < n)
		return 0;
	memcpy(out, x->detail, n);
	out[n] = '\0';
	return 1;
}

static int device_is(const struct gd_probe_device *d, const char *dll)
{
	const char *base = d->library;

	for (const char *p = d->library; *p; p++)
		if (*p == '\\' || *p == '/')
			base = p + 1;
	return !strcasecmp(base, dll);
}

/* The runtimes the backend's init results name, in report order. */
static int variants(const struct gd_probe_report *r, const char *b,
		    char v[MAX_VARIANTS][48])
{
	int n = 0;

	for (size_t i = 0; i < r->results.n && n < MAX_VARIANTS; i++) {
		const struct gd_probe_result *x = &r->results.v[i];
		int dup = 0;

		if (strcmp(x->backend, b) || strcmp(x->op, "init") ||
		    !result_variant(x, v[n], sizeof v[n]))
			continue;
		for (int k = 0; k < n; k++)
			dup |= !strcasecmp(v[k], v[n]);
		n += !dup;
	}
	return n;
}

/* The report restricted to backend b through runtime dll. */
static void only_variant(const struct gd_probe_report *r, const char *b,
			 const char *dll, struct gd_probe_report *sub)
{
	char v[48];

	memset(sub, 0, sizeof *sub);
	for (size_t i = 0; i < r->results.n; i++) {
		const struct gd_probe_result *x = &r->results.v[i];
		struct gd_probe_result *y;

		if (!strcmp(x->backend, b) && result_variant(x, v, sizeof v) &&
		    !strcasecmp(v, dll) && (y = gd_vec_push(&sub->results)))
			*y = *x;
	}
	for (size_t i = 0; i < r->devices.n; i++) {
		struct gd_probe_device *y;

		if (!strcmp(r->devices.v[i].backend, b) &&
		    device_is(&r->devices.v[i], dll) &&
		    (y = gd_vec_push(&sub->devices)))
			*y = r->devices.v[i];
	}
}

static enum gd_probe_level best_level(const struct gd_probe_verdict *v,
				      size_t n)
{
	enum gd_probe_level l = GD_PV_ABSENT;

	for (size_t i = 0; i < n; i++)
		if (v[i].level < l)
			l = v[i].level;
	return l;
}

static const char *level_words(enum gd_probe_level l)
{
	static const char *const w[] = {"works", "CPU only", "partly fails",
					"fails", "no usable device"};

	return w[l];
}

static size_t variant_verdicts(const struct gd_probe_report *r, const char *b,
			       char v[MAX_VARIANTS][48], int nv,
			       struct gd_probe_verdict *out, size_t max)
{
	struct gd_probe_verdict tmp[MAX_VARIANTS][8];
	enum gd_probe_level lv[MAX_VARIANTS];
	size_t cnt[MAX_VARIANTS], n;
	int best = 0;
	char also[200] = "";

	for (int i = 0; i < nv; i++) {
		struct gd_probe_report sub;

		only_variant(r, b, v[i], &sub);
		cnt[i] = backend_verdicts(&sub, b, tmp[i], 8);
		lv[i] = best_level(tmp[i], cnt[i]);
		if (lv[i] < lv[best])
			best = i;
		gd_vec_free(&sub.results);
		gd_vec_free(&sub.devices);
	}
	for (int i = 0; i < nv; i++)
		if (i != best)
			gd_fmt(also + strlen(also), sizeof also - strlen(also),
			       "%s%s: %s", also[0] ? ", " : "", v[i],
			       level_words(lv[i]));
	n = cnt[best] < max ? cnt[best] : max;
	for (size_t k = 0; k < n; k++) {
		out[k] = tmp[best][k];
		if (strlen(out[k].text) < 200)
			gd_fmt(out[k].text + strlen(out[k].text),
			       sizeof out[k].text - strlen(out[k].text),
			       " [through %s; also probed: %s]", v[best], also);
	}
	return n;
}

size_t gd_probe_verdicts(const struct gd_probe_report *r,
			 struct gd_probe_verdict *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < r->results.n && n < max; i++) {
		const char *b = r->results.v[i].backend;
		char v[MAX_VARIANTS][48];
		int seen = 0, nv;

		for (size_t k = 0; k < n; k++)
			seen |= !strcmp(out[k].backend, b);
		if (seen || !strcmp(b, "selftest"))
			continue;
		nv = variants(r, b, v);
		if (nv > 1)
			n += variant_verdicts(r, b, v, nv, out + n, max - n);
		else
			n += backend_verdicts(r, b, out + n, max - n);
	}
	add_advice(out, n);
	return n;
}
