/* doctor/probe_verdict: judgement of probe results: one verdict (level
 * and line) per backend and device, for `probe` and for `check` ("Vulkan
 * works on ...", "CPU only: Vulkan device is llvmpipe (software)", "HIP on
 * gfx1010: gemm_fp32 hangs in phase 'hipblasSgemm'; Vulkan works on this
 * machine"). cli/ only prints these lines. */
#include <string.h>

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

size_t gd_probe_verdicts(const struct gd_probe_report *r,
			 struct gd_probe_verdict *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < r->results.n && n < max; i++) {
		const char *b = r->results.v[i].backend;
		const struct gd_probe_result *init;
		int seen = 0, ndev = 0;

		for (size_t k = 0; k < n; k++)
			seen |= !strcmp(out[k].backend, b);
		if (seen || !strcmp(b, "selftest"))
			continue;
		memset(&out[n], 0, sizeof out[n]);
		gd_strlcpy(out[n].backend, b, sizeof out[n].backend);
		init = find_op(r, b, "init");
		if (init && init_verdict(init, &out[n])) {
			const struct gd_probe_diag *dg = gd_probe_diag_of(r, b);

			if (dg && dg->cause_code[0]) {
				gd_strlcpy(out[n].cause_code, dg->cause_code,
					   sizeof out[n].cause_code);
				gd_strlcpy(out[n].cause, dg->cause,
					   sizeof out[n].cause);
				gd_strlcpy(out[n].fix, dg->fix,
					   sizeof out[n].fix);
			}
			n++;
			continue;
		}
		for (size_t k = 0; k < r->devices.n && n < max; k++)
			if (!strcmp(r->devices.v[k].backend, b)) {
				device_verdict(r, &r->devices.v[k], &out[n++]);
				ndev++;
			}
		if (!ndev && n < max) {
			out[n].level = GD_PV_ABSENT;
			gd_fmt(out[n].text, sizeof out[n].text,
			       "%s: no device reported", title_of(b));
			n++;
		}
	}
	add_advice(out, n);
	return n;
}
