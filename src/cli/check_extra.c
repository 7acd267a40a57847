/* Framework and probe evidence for `check`: Python frameworks (what their
 * libraries carry, checked against the GPUs found) and the quick probe set
 * (live machine only), both turned into evidence lines for the doctor and
 * into their own blocks of the report. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_data.h"
#include "inventory/frameworks.h"
#include "probe/probe.h"
#include "render_frameworks.h"
#include "render_probe.h"

#define MAX_LINES 64

struct check_extra {
	struct gd_frameworks fws;
	int have_fws;
	struct gd_probe_report probes;
	int have_probes;
	struct gd_evidence_line ev[MAX_LINES];
	char *texts[MAX_LINES];
	size_t n_ev;
};

static void add_line(struct check_extra *x, enum gd_vendor vendor,
		     enum gd_evidence_level level, char *text)
{
	if (!text)
		return;
	if (x->n_ev >= MAX_LINES) {
		free(text);
		return;
	}
	x->texts[x->n_ev] = text;
	x->ev[x->n_ev].vendor = vendor;
	x->ev[x->n_ev].level = level;
	x->ev[x->n_ev].text = text;
	x->n_ev++;
}

/* The GPUs as binscan compares code against them: the target ROCm will
 * use (after an override) and the NVIDIA sm with the driver's PTX JIT
 * ceiling. */
static size_t bs_gpus(const struct gd_check_data *d, struct gd_bs_gpu *out,
		      size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < d->m.n_gpus && n < max; i++) {
		const struct gd_gpu *g = &d->m.gpus[i];
		const char *t = g->vendor == GD_VENDOR_AMD
					? (g->gfx_effective[0] ? g->gfx_effective : g->gfx)
				: g->vendor == GD_VENDOR_NVIDIA ? g->sm : "";

		if (!t[0] || gd_bs_gpu_parse(t, &out[n]) < 0)
			continue;
		if (g->vendor == GD_VENDOR_NVIDIA && gd_known(&d->inv.cuda_driver))
			gd_bs_ptx_ceiling(d->inv.cuda_driver.v, &out[n].ptx_max_major,
					  &out[n].ptx_max_minor);
		n++;
	}
	return n;
}

/* A framework built for a CUDA newer than the driver allows: the classic
 * "CUDA driver version is insufficient" at import or first use. */
static void framework_cuda_steps(struct gd_cli *cli, const struct gd_check_data *d,
				 struct check_extra *x)
{
	const char *driver = gd_known(&d->inv.cuda_driver) ? d->inv.cuda_driver.v : NULL;
	struct gd_cuda_min_table tab;

	gd_cuda_min_table_load(&cli->ctx, &tab);
	for (size_t i = 0; i < x->fws.fw.n; i++) {
		const struct gd_framework *f = &x->fws.fw.v[i];
		struct gd_cuda_check c;
		char *text;

		if (!f->cuda_version[0] || !driver)
			continue;
		memset(&c, 0, sizeof c);
		gd_cuda_driver_check(&tab, driver, f->cuda_version, &c);
		if (c.driver_ok != 0 || !(text = malloc(700)))
			continue;
		gd_fmt(text, 700, "%s %s is built for CUDA %s, but %s: upgrade the "
		       "NVIDIA driver to %s or newer, or install a %s build for "
		       "CUDA %s (the workloads above give the command)", f->name,
		       f->version, f->cuda_version, c.why, c.min_driver, f->name,
		       gd_known(&d->inv.cuda_driver_api) ? d->inv.cuda_driver_api.v
							 : "an older release");
		add_line(x, GD_VENDOR_NVIDIA, GD_EV_STEP, text);
	}
}

static void collect_frameworks(struct gd_cli *cli, struct gd_check_data *d,
			       struct check_extra *x)
{
	struct gd_bs_gpu gpus[16];
	char *lines[16];
	size_t n;

	if (gd_frameworks_collect(&cli->ctx, &x->fws) < 0)
		return;
	x->have_fws = 1;
	gd_frameworks_check_rocm(&x->fws, gpus, bs_gpus(d, gpus, 16), d->inv.rocm,
				 d->inv.n_rocm);
	n = gd_render_frameworks_problems(&x->fws, lines, 16);
	for (size_t i = 0; i < n; i++)
		add_line(x, GD_VENDOR_OTHER, GD_EV_INFO, lines[i]);
	framework_cuda_steps(cli, d, x);
}

static enum gd_vendor backend_vendor(const char *b)
{
	if (!strcmp(b, "cuda"))
		return GD_VENDOR_NVIDIA;
	if (!strcmp(b, "hip"))
		return GD_VENDOR_AMD;
	return GD_VENDOR_OTHER;
}

static void collect_probes(struct gd_cli *cli, const struct gd_check_opts *o,
			   struct gd_check_data *d, struct check_extra *x)
{
	struct gd_probe_opts po;
	struct gd_probe_verdict pv[32];
	size_t n;
	int rc;

	if (!o->probes) {
		gd_strlcpy(d->probe_note, "not run (--no-probe)", sizeof d->probe_note);
		return;
	}
	if (!cli->ctx.fs.is_slash) {
		gd_strlcpy(d->probe_note, "not run: a captured machine (--root) "
			   "has no runtimes to load", sizeof d->probe_note);
		return;
	}
	memset(&po, 0, sizeof po);
	po.quick = 1;
	po.timeout_s = o->probe_timeout;
	if (isatty(STDERR_FILENO))
		po.on_progress = gd_render_probe_progress;
	rc = gd_probe_run(&cli->ctx, &po, &x->probes);
	if (po.on_progress)
		fprintf(stderr, "\r\033[K");
	if (rc < 0) {
		gd_strlcpy(d->probe_note, "could not start the probe children",
			   sizeof d->probe_note);
		return;
	}
	x->have_probes = 1;
	n = gd_probe_verdicts(&x->probes, pv, 32);
	for (size_t i = 0; i < n; i++) {
		enum gd_evidence_level lv = GD_EV_INFO;
		enum gd_vendor vendor = backend_vendor(pv[i].backend);
		char *text = malloc(strlen(pv[i].text) + 8);

		/* only a vendor's own runtime proves or disproves its GPU */
		if (vendor != GD_VENDOR_OTHER && pv[i].level == GD_PV_WORKS)
			lv = GD_EV_WORKS;
		else if (vendor != GD_VENDOR_OTHER &&
			 (pv[i].level == GD_PV_BROKEN || pv[i].level == GD_PV_PARTIAL))
			lv = GD_EV_BROKEN;
		if (text)
			strcpy(text, pv[i].text);
		add_line(x, vendor, lv, text);
	}
}

void gd_check_extra_collect(struct gd_cli *cli, const struct gd_check_opts *o,
			    struct gd_check_data *d)
{
	struct check_extra *x = calloc(1, sizeof *x);

	d->extra = x;
	if (!x)
		return;
	collect_frameworks(cli, d, x);
	collect_probes(cli, o, d, x);
}

void gd_check_extra_evidence(const struct gd_check_data *d,
			     struct gd_evidence *ev)
{
	const struct check_extra *x = d->extra;

	ev->lines = x ? x->ev : NULL;
	ev->n = x ? x->n_ev : 0;
}

void gd_check_extra_json(struct gd_cli *cli, const struct gd_check_data *d,
			 json_t *doc)
{
	const struct check_extra *x = d->extra;

	(void)cli;
	if (!x)
		return;
	if (x->have_fws)
		json_object_set_new(doc, "frameworks",
				    gd_render_frameworks_json(&x->fws));
	if (x->have_probes) {
		json_t *p = json_object();

		gd_render_probe_json(p, &x->probes);
		json_object_set_new(doc, "probes", p);
	}
}

void gd_check_extra_text(struct gd_cli *cli, FILE *f,
			 const struct gd_check_data *d)
{
	const struct check_extra *x = d->extra;
	struct gd_probe_verdict pv[32];
	size_t n;

	if (!x)
		return;
	if (x->have_fws)
		gd_render_frameworks_text(cli, f, &x->fws);
	if (!x->have_probes)
		return;
	n = gd_probe_verdicts(&x->probes, pv, 32);
	fprintf(f, "%sProbes%s (quick set, %.1f s; 'gpudoctor probe' for the "
		   "whole matrix)\n", gd_c_bold(cli), gd_c_off(cli),
		x->probes.wall_seconds);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "  %s\n", pv[i].text);
}

void gd_check_extra_free(struct gd_check_data *d)
{
	struct check_extra *x = d->extra;

	if (!x)
		return;
	for (size_t i = 0; i < x->n_ev; i++)
		free(x->texts[i]);
	if (x->have_fws)
		gd_frameworks_free(&x->fws);
	if (x->have_probes)
		gd_probe_report_free(&x->probes);
	free(x);
	d->extra = NULL;
}
