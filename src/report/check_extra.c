/* Framework and probe evidence for `check`: Python frameworks (what their
 * libraries carry, checked against the GPUs found) and the quick probe set
 * (live machine only). Collected here, judged into evidence lines by
 * doctor/evidence.c, and printed as their own blocks of the report. */
#include <stdlib.h>
#include <string.h>

#include "check_data.h"
#include "discover/vendor.h"
#include "doctor/evidence.h"
#include "doctor/probe_cause.h"
#include "inventory/frameworks.h"
#include "probe/probe.h"
#include "render_frameworks.h"
#include "render_probe.h"

struct check_extra {
	struct gd_frameworks fws;
	int have_fws;
	struct gd_probe_report probes;
	int have_probes;
	struct gd_evidence_set ev;
};

/* The GPUs as binscan compares code against them: the target ROCm will
 * use (after an override) and the NVIDIA sm with the driver's PTX JIT
 * ceiling. */
static size_t bs_gpus(const struct gd_check_data *d, struct gd_bs_gpu *out,
		      size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < d->m.n_gpus && n < max; i++) {
		const struct gd_gpu *g = &d->m.gpus[i];
		const char *t = gd_gpu_run_target(g);

		if (!t[0] || gd_bs_gpu_parse(t, &out[n]) < 0)
			continue;
		if (g->vendor == GD_VENDOR_NVIDIA &&
		    gd_known(&d->inv.cuda_driver))
			gd_bs_ptx_ceiling(d->inv.cuda_driver.v,
					  &out[n].ptx_max_major,
					  &out[n].ptx_max_minor);
		n++;
	}
	return n;
}

static void collect_frameworks(struct gd_cli *cli, struct gd_check_data *d,
			       struct check_extra *x)
{
	struct gd_bs_gpu gpus[16];

	if (gd_frameworks_collect(&cli->ctx, &x->fws) < 0)
		return;
	x->have_fws = 1;
	gd_frameworks_check_rocm(&x->fws, gpus, bs_gpus(d, gpus, 16),
				 d->inv.rocm, d->inv.n_rocm);
	gd_evidence_frameworks(&cli->ctx, &d->inv, &x->fws, &x->ev);
}

static void collect_probes(struct gd_cli *cli, const struct gd_check_opts *o,
			   struct gd_check_data *d, struct check_extra *x)
{
	struct gd_probe_opts po;
	int rc;

	if (!o->probes) {
		gd_strlcpy(d->probe_note, "not run (--no-probe)",
			   sizeof d->probe_note);
		return;
	}
	if (!cli->ctx.fs.is_slash) {
		gd_strlcpy(d->probe_note,
			   "not run: a captured machine (--root) "
			   "has no runtimes to load",
			   sizeof d->probe_note);
		return;
	}
	memset(&po, 0, sizeof po);
	po.quick = 1;
	po.timeout_s = o->probe_timeout;
	po.on_progress = o->on_progress;
	po.cancel = cli->cancel;
	rc = gd_probe_run(&cli->ctx, &po, &x->probes);
	if (rc < 0) {
		gd_strlcpy(d->probe_note, "could not start the probe children",
			   sizeof d->probe_note);
		return;
	}
	x->have_probes = 1;
	gd_probe_judge(&cli->ctx, &d->m, &d->inv, &x->probes);
	gd_evidence_probes(&x->probes, &x->ev);
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

	gd_evidence_view(x ? &x->ev : NULL, ev);
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
	fprintf(f,
		"%sProbes%s (quick set, %.1f s; 'gpudoctor probe' for the "
		"whole matrix)\n",
		gd_c_bold(cli), gd_c_off(cli), x->probes.wall_seconds);
	for (size_t i = 0; i < n; i++)
		gd_render_probe_verdict(cli, f, &pv[i]);
}

void gd_check_extra_free(struct gd_check_data *d)
{
	struct check_extra *x = d->extra;

	if (!x)
		return;
	gd_evidence_free(&x->ev);
	if (x->have_fws)
		gd_frameworks_free(&x->fws);
	if (x->have_probes)
		gd_probe_report_free(&x->probes);
	free(x);
	d->extra = NULL;
}

/* The probe results, for metrics; NULL when probes did not run. */
const struct gd_probe_report *
gd_check_extra_probes(const struct gd_check_data *d)
{
	const struct check_extra *x = d->extra;

	return x && x->have_probes ? &x->probes : NULL;
}
