/* The Windows row of the judged-OS table (check_data.c): a Windows
 * capture under --root, or Windows itself. Adapters from the registry,
 * the HIP SDK / driver inventory, the Python frameworks, the Windows
 * verdict per GPU; then the common verdict of each (d->diag), which the
 * brief, nfd, metrics, report and the C API read as on Linux. */
#include <stdlib.h>
#include <string.h>

#include "check_brief.h"
#include "check_win.h"
#include "core/json.h"
#include "discover/vendor.h"
#include "doctor/verdict_util.h"
#include "render_gpu.h"
#include "render_verdict.h"
#include "render_windows.h"

static int add_line(gd_lines *l, enum gd_code c, const char *text)
{
	struct gd_line *x = gd_vec_push(l);

	if (!x)
		return -1;
	x->code = c;
	gd_strlcpy(x->text, text, sizeof x->text);
	return 0;
}

/* No GPU: the CPU verdict, with the not-a-GPU adapter as its fact. */
static int cpu_verdict(const struct gd_machine *m, struct gd_verdict *v)
{
	char step[300];

	v->gpu_index = -1;
	v->status = GD_V_CPU;
	gd_v_headline(v, "no GPU", "%s",
		      m->pci_why[0]
			  ? m->pci_why
			  : "the registry's display class key names no PCI "
			    "display adapter");
	gd_fmt(step, sizeof step, "run on the CPU%s",
	       m->n_not_gpus && !strcmp(m->not_gpus[0].kind, "emulated")
		   ? "; in a virtual machine, pass a real GPU through to the "
		     "guest (PCI passthrough) and install its vendor's driver "
		     "there"
		   : "");
	if (m->n_not_gpus &&
	    add_line(&v->facts, GD_C_GPU_NOT_A_GPU, m->pci_why) < 0)
		return -1;
	return add_line(&v->steps, GD_C_CPU_RUN_ON_CPU, step);
}

/* The common verdicts: one per GPU (or the CPU's), and the exit code's
 * any_gpu / any_works (every judged GPU usable as the machine is). */
static int common(struct gd_cli *cli, struct gd_check_data *d)
{
	const struct gd_check_win *w = d->win;
	size_t n = d->m.n_gpus ? d->m.n_gpus : 1;
	int judged = 0, all = 1;

	d->diag.v = calloc(n, sizeof *d->diag.v);
	if (!d->diag.v)
		return -1;
	d->diag.n = n;
	if (!d->m.n_gpus)
		return cpu_verdict(&d->m, &d->diag.v[0]);
	for (size_t i = 0; i < n; i++) {
		struct gd_verdict *v = &d->diag.v[i];
		const struct gd_win_verdict *x = &w->vs[i];

		v->gpu_index = (int)i;
		if (gd_win_common(&cli->ctx, &d->m.gpus[i], x, v) < 0)
			return -1;
		/* a display adapter that names a GPU makes the machine no "no
		 * GPU" one, judged or not (issue #22) */
		judged = 1;
		all &= x->judged && x->usable;
	}
	d->diag.any_gpu = judged;
	d->diag.any_works = judged && all;
	return 0;
}

int gd_check_collect_win(struct gd_cli *cli, struct gd_check_data *d)
{
	struct gd_check_win *w = calloc(1, sizeof *w);

	d->win = w;
	if (!w || gd_discover(&cli->ctx, &d->m) < 0)
		return -1;
	gd_win_inventory_collect(&cli->ctx, &w->wi);
	gd_win_python_collect(&cli->ctx, &w->py);
	w->vs = calloc(d->m.n_gpus ? d->m.n_gpus : 1, sizeof *w->vs);
	w->bs = calloc(d->m.n_gpus ? d->m.n_gpus : 1, sizeof *w->bs);
	if (!w->vs || !w->bs)
		return -1;
	for (size_t i = 0; i < d->m.n_gpus; i++)
		gd_win_judge(&cli->ctx, &d->m.gpus[i], &w->wi, &w->py,
			     &w->vs[i]);
	gd_brief_fill_win(cli, &d->m, &w->wi, w->vs, w->bs);
	return common(cli, d);
}

void gd_check_win_free(struct gd_check_data *d)
{
	if (!d->win)
		return;
	free(d->win->vs);
	free(d->win->bs);
	free(d->win);
	d->win = NULL;
}

json_t *gd_check_win_json(struct gd_cli *cli, const struct gd_check_data *d)
{
	const struct gd_check_win *w = d->win;
	json_t *doc = gd_cli_json_doc("check"), *gpus, *win;

	json_object_set_new(doc, "root", gd_json_str(cli->ctx.fs.root));
	gd_render_machine_json(doc, &d->m);
	gpus = json_object_get(doc, "gpus");
	for (size_t i = 0; i < d->m.n_gpus; i++) {
		json_t *o = json_array_get(gpus, i);
		json_t *v = gd_render_win_verdict_json(&w->vs[i]);
		json_t *c = gd_render_verdict_json(&d->diag.v[i]);

		gd_brief_verdict_json(&w->bs[i], v);
		json_object_set(v, "workloads",
				json_object_get(c, "workloads"));
		json_object_set(v, "sources", json_object_get(c, "sources"));
		json_decref(c);
		json_object_set_new(o, "windows",
				    gd_render_win_adapter_json(&d->m.gpus[i]));
		json_object_set_new(o, "verdict", v);
	}
	json_object_set_new(
	    doc, "verdict",
	    d->m.n_gpus ? json_null() : gd_render_verdict_json(&d->diag.v[0]));
	/* Linux runtimes (ROCm, CUDA, ICDs); Windows' are under "windows" */
	json_object_set_new(doc, "runtimes", json_array());
	win = gd_render_win_inventory_json(&w->wi);
	json_object_set_new(win, "python", gd_render_win_python_json(&w->py));
	json_object_set_new(doc, "windows", win);
	json_object_set_new(doc, "diagnostics", gd_cli_diags_json(cli));
	json_object_set_new(doc, "exit_code",
			    json_integer(gd_check_exit_code(d)));
	return doc;
}

void gd_check_win_text(struct gd_cli *cli, FILE *f,
		       const struct gd_check_data *d, int verbose)
{
	const struct gd_check_win *w = d->win;

	if (!d->m.n_gpus)
		fprintf(f, "No GPU (CPU only): %s\n  next step: %s\n\n",
			d->diag.v[0].headline + strlen("no GPU: "),
			d->diag.v[0].steps.v[0].text);
	for (size_t i = 0; i < d->m.n_gpus; i++) {
		fprintf(f, "%sGPU %zu%s  ", gd_c_bold(cli), i, gd_c_off(cli));
		gd_render_win_gpu_text(cli, f, &d->m.gpus[i], &w->vs[i]);
		gd_render_workloads_text(cli, f, &d->diag.v[i]);
		gd_render_sources_text(cli, f, &d->diag.v[i]);
		if (verbose)
			gd_render_gpu_text(cli, f, &d->m.gpus[i], 1);
		fprintf(f, "\n");
	}
	gd_check_win_stack_text(cli, f, d);
}

void gd_check_win_stack_text(struct gd_cli *cli, FILE *f,
			     const struct gd_check_data *d)
{
	gd_render_win_inventory_text(cli, f, &d->win->wi);
	gd_render_win_python_text(cli, f, &d->win->py);
}
