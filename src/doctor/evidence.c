/* doctor/evidence: probe and framework results judged into evidence lines
 * (evidence.h). Which backend speaks for which vendor, what counts as a
 * problem of an installed framework, and when a framework's CUDA is too
 * new for the driver: decided here, not where the results are printed. */
#include <stdlib.h>
#include <string.h>

#include "cuda_driver.h"
#include "discover/vendor.h"
#include "evidence.h"

static void add_line(struct gd_evidence_set *s, enum gd_vendor vendor,
		     enum gd_evidence_level level, enum gd_code code,
		     char *text)
{
	if (!text)
		return;
	if (s->n >= GD_EVIDENCE_MAX) {
		free(text);
		return;
	}
	s->texts[s->n] = text;
	s->ev[s->n].vendor = vendor;
	s->ev[s->n].level = level;
	s->ev[s->n].code = code;
	s->ev[s->n].text = text;
	s->n++;
}

static void add_copy(struct gd_evidence_set *s, enum gd_vendor vendor,
		     enum gd_evidence_level level, enum gd_code code,
		     const char *text)
{
	add_line(s, vendor, level, code, strdup(text));
}

/* What is wrong with an installed framework, one line each. */
static void framework_problems(const struct gd_frameworks *fws,
			       struct gd_evidence_set *s)
{
	char buf[512];

	for (size_t i = 0; i < fws->fw.n; i++) {
		const struct gd_framework *fw = &fws->fw.v[i];

		if (fw->no_code[0]) {
			gd_fmt(buf, sizeof buf, "%s %s: %s", fw->name,
			       fw->version, fw->no_code);
			add_copy(s, GD_VENDOR_OTHER, GD_EV_INFO,
				 GD_C_FRAMEWORK_NO_CODE, buf);
		}
		if (fw->rocm_mismatch[0])
			add_copy(s, GD_VENDOR_OTHER, GD_EV_INFO,
				 GD_C_FRAMEWORK_ROCM_MISMATCH,
				 fw->rocm_mismatch);
		if (fw->rocm_note[0])
			add_copy(s, GD_VENDOR_OTHER, GD_EV_INFO,
				 GD_C_FRAMEWORK_ROCM_NOTE, fw->rocm_note);
		for (size_t k = 0; k < fw->libs.n; k++)
			if (fw->libs.v[k].missing[0]) {
				gd_fmt(buf, sizeof buf,
				       "%s %s: %s needs %s, "
				       "not found",
				       fw->name, fw->version,
				       fw->libs.v[k].name,
				       fw->libs.v[k].missing);
				add_copy(s, GD_VENDOR_OTHER, GD_EV_INFO,
					 GD_C_FRAMEWORK_LIB_MISSING, buf);
			}
	}
}

/* A framework built for a CUDA newer than the driver allows: the classic
 * "CUDA driver version is insufficient" at import or first use. */
static void framework_cuda_steps(gd_ctx *ctx, const struct gd_inventory *inv,
				 const struct gd_frameworks *fws,
				 struct gd_evidence_set *s)
{
	const char *driver =
	    gd_known(&inv->cuda_driver) ? inv->cuda_driver.v : NULL;
	struct gd_cuda_min_table tab;

	gd_cuda_min_table_load(ctx, &tab);
	for (size_t i = 0; i < fws->fw.n; i++) {
		const struct gd_framework *f = &fws->fw.v[i];
		struct gd_cuda_check c;
		char *text;

		if (!f->cuda_version[0] || !driver)
			continue;
		memset(&c, 0, sizeof c);
		gd_cuda_driver_check(&tab, driver, f->cuda_version, &c);
		if (c.driver_ok != 0 || !(text = malloc(700)))
			continue;
		gd_fmt(
		    text, 700,
		    "%s %s is built for CUDA %s, but %s: upgrade the "
		    "NVIDIA driver to %s or newer, or install a %s build for "
		    "CUDA %s (the workloads above give the command)",
		    f->name, f->version, f->cuda_version, c.why, c.min_driver,
		    f->name,
		    gd_known(&inv->cuda_driver_api) ? inv->cuda_driver_api.v
						    : "an older release");
		add_line(s, GD_VENDOR_NVIDIA, GD_EV_STEP,
			 GD_C_FRAMEWORK_CUDA_TOO_NEW, text);
	}
}

void gd_evidence_frameworks(gd_ctx *ctx, const struct gd_inventory *inv,
			    const struct gd_frameworks *fws,
			    struct gd_evidence_set *s)
{
	framework_problems(fws, s);
	framework_cuda_steps(ctx, inv, fws, s);
}

static const enum gd_code probe_code[] = {
    [GD_PV_WORKS] = GD_C_PROBE_WORKS,
    [GD_PV_SOFTWARE] = GD_C_PROBE_SOFTWARE,
    [GD_PV_PARTIAL] = GD_C_PROBE_PARTIAL,
    [GD_PV_BROKEN] = GD_C_PROBE_BROKEN,
    [GD_PV_ABSENT] = GD_C_PROBE_ABSENT,
};

void gd_evidence_probes(const struct gd_probe_report *r,
			struct gd_evidence_set *s)
{
	struct gd_probe_verdict pv[32];
	size_t n = gd_probe_verdicts(r, pv, 32);

	for (size_t i = 0; i < n; i++) {
		enum gd_evidence_level lv = GD_EV_INFO;
		enum gd_vendor vendor = gd_vendor_of_backend(pv[i].backend);

		/* only a vendor's own runtime proves or disproves its GPU */
		if (vendor != GD_VENDOR_OTHER && pv[i].level == GD_PV_WORKS)
			lv = GD_EV_WORKS;
		else if (vendor != GD_VENDOR_OTHER &&
			 (pv[i].level == GD_PV_BROKEN ||
			  pv[i].level == GD_PV_PARTIAL))
			lv = GD_EV_BROKEN;
		add_copy(s, vendor, lv, probe_code[pv[i].level], pv[i].text);
		if (pv[i].cause_code[0] &&
		    gd_code_find(pv[i].cause_code) >= 0) {
			char t[800];

			gd_fmt(t, sizeof t, "%s probe, why: %s%s%s",
			       pv[i].backend, pv[i].cause,
			       pv[i].fix[0] ? "; fix: " : "", pv[i].fix);
			add_copy(s, vendor, GD_EV_INFO,
				 (enum gd_code)gd_code_find(pv[i].cause_code),
				 t);
		}
	}
}

void gd_evidence_view(const struct gd_evidence_set *s, struct gd_evidence *ev)
{
	ev->lines = s ? s->ev : NULL;
	ev->n = s ? s->n : 0;
}

void gd_evidence_free(struct gd_evidence_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->texts[i]);
	s->n = 0;
}
