/* The `check` report, text and JSON, from the in-memory data: what the
 * command line prints and what the C API returns, the same bytes. */
#include <string.h>

#include "check_brief.h"
#include "check_data.h"
#include "check_win.h"
#include "core/json.h"
#include "render_gpu.h"
#include "render_inventory.h"
#include "render_verdict.h"

static void machine_json(struct gd_cli *cli, const struct gd_check_data *d,
			 json_t *doc)
{
	json_t *gpus;

	json_object_set_new(doc, "root", gd_json_str(cli->ctx.fs.root));
	gd_render_machine_json(doc, &d->m);
	gpus = json_object_get(doc, "gpus");
	for (size_t i = 0; i < d->m.n_gpus; i++) {
		json_t *v = gd_render_verdict_json(&d->diag.v[i]);
		struct gd_brief b;

		/* the brief's fields, so check --brief and check agree */
		gd_brief_fill(cli, d, i, &b);
		gd_brief_verdict_json(&b, v);
		json_object_set_new(json_array_get(gpus, i), "verdict", v);
	}
	json_object_set_new(
	    doc, "verdict",
	    d->m.n_gpus ? json_null() : gd_render_verdict_json(&d->diag.v[0]));
	json_object_set_new(doc, "runtimes", gd_render_runtimes_json(&d->inv));
}

/* Index of an earlier GPU with the same verdict (identical cards, MI300
 * partitions of several GPUs), or -1: those are printed once. */
static int same_lines(const gd_lines *a, const gd_lines *b, int skip_first)
{
	if (a->n != b->n)
		return 0;
	/* the first fact is the PCI address, which always differs */
	for (size_t i = skip_first ? 1 : 0; i < a->n; i++)
		if (strcmp(a->v[i].text, b->v[i].text))
			return 0;
	return 1;
}

static long same_as_earlier(const struct gd_check_data *d, size_t i)
{
	const struct gd_verdict *v = &d->diag.v[i];

	for (size_t k = 0; k < i; k++) {
		const struct gd_verdict *w = &d->diag.v[k];

		if (w->status == v->status &&
		    !strcmp(w->headline, v->headline) &&
		    same_lines(&w->facts, &v->facts, 1) &&
		    same_lines(&w->steps, &v->steps, 0))
			return (long)k;
	}
	return -1;
}

json_t *gd_check_json(struct gd_cli *cli, const struct gd_check_data *d)
{
	if (d->win)
		return gd_check_win_json(cli, d);
	json_t *doc = gd_cli_json_doc("check");

	machine_json(cli, d, doc);
	gd_check_extra_json(cli, d, doc);
	json_object_set_new(doc, "diagnostics", gd_cli_diags_json(cli));
	json_object_set_new(doc, "exit_code",
			    json_integer(gd_check_exit_code(d)));
	return doc;
}

void gd_check_text(struct gd_cli *cli, FILE *f, const struct gd_check_data *d,
		   int verbose)
{
	if (d->win) {
		gd_check_win_text(cli, f, d, verbose);
		return;
	}
	for (size_t i = 0; i < d->diag.n; i++) {
		long same =
		    d->m.n_gpus && !verbose ? same_as_earlier(d, i) : -1;

		if (d->m.n_gpus)
			fprintf(f, "%sGPU %zu%s  ", gd_c_bold(cli), i,
				gd_c_off(cli));
		if (same >= 0) {
			fprintf(f,
				"%s at %s: same verdict as GPU %ld (-v shows "
				"each in full)\n",
				d->m.gpus[i].name.v, d->m.gpus[i].pci.bdf,
				same);
			continue;
		}
		gd_render_verdict_text(cli, f, &d->diag.v[i]);
		if (verbose && d->m.n_gpus)
			gd_render_gpu_text(cli, f, &d->m.gpus[i], 1);
		gd_render_sources_text(cli, f, &d->diag.v[i]);
		fprintf(f, "\n");
	}
	if (d->m.n_gpus > 1)
		fprintf(f, "\n");
	gd_render_inventory_text(cli, f, &d->inv);
	gd_check_extra_text(cli, f, d);
	if (d->probe_note[0])
		fprintf(f, "%sprobes: %s%s\n", gd_c_dim(cli), d->probe_note,
			gd_c_off(cli));
}

void gd_check_stack_text(struct gd_cli *cli, FILE *f,
			 const struct gd_check_data *d)
{
	if (d->win) {
		gd_check_win_stack_text(cli, f, d);
		return;
	}
	gd_render_inventory_text(cli, f, &d->inv);
	gd_check_extra_text(cli, f, d);
}
