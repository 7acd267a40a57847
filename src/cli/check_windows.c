/* `check` for a Windows machine (a Windows capture under --root, or
 * Windows itself): adapters from the registry, the HIP SDK / driver
 * inventory, and the Windows verdict per GPU, as text or as the same JSON
 * envelope `check` writes on Linux (gpus[], verdict per GPU, platform). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/json.h"
#include "discover/discover.h"
#include "discover/vendor.h"
#include "doctor/verdict_windows.h"
#include "inventory/win_inventory.h"
#include "render_windows.h"
#include "report/check_brief.h"
#include "report/render_gpu.h"

static int collect(struct gd_cli *cli, struct gd_machine *m,
		   struct gd_win_inventory *wi, struct gd_win_python *py,
		   struct gd_win_verdict **vs)
{
	if (gd_discover(&cli->ctx, m) < 0)
		return -1;
	gd_win_inventory_collect(&cli->ctx, wi);
	gd_win_python_collect(&cli->ctx, py);
	*vs = calloc(m->n_gpus ? m->n_gpus : 1, sizeof **vs);
	if (!*vs)
		return -1;
	for (size_t i = 0; i < m->n_gpus; i++) {
		const struct gd_gpu *g = &m->gpus[i];

		if (g->vendor == GD_VENDOR_AMD)
			gd_win_verdict_amd(&cli->ctx, g, wi, py, &(*vs)[i]);
		else if (g->vendor == GD_VENDOR_NVIDIA)
			gd_win_verdict_nvidia(&cli->ctx, g, wi, py, &(*vs)[i]);
		else
			gd_strlcpy((*vs)[i].summary,
				   "not judged on Windows yet",
				   sizeof(*vs)[i].summary);
	}
	return 0;
}

static int exit_code(const struct gd_machine *m,
		     const struct gd_win_verdict *vs)
{
	int judged = 0;

	for (size_t i = 0; i < m->n_gpus; i++) {
		if (m->gpus[i].vendor != GD_VENDOR_AMD &&
		    m->gpus[i].vendor != GD_VENDOR_NVIDIA)
			continue;
		judged = 1;
		if (!vs[i].usable)
			return GD_EXIT_UNUSABLE;
	}
	return judged ? GD_EXIT_OK : GD_EXIT_NO_GPU;
}

/* No GPU: the CPU verdict, with the not-a-GPU adapter as its fact. */
static void no_gpu_lines(const struct gd_machine *m, char *head, size_t hcap,
			 char *step, size_t scap)
{
	gd_fmt(head, hcap, "no GPU: %s",
	       m->pci_why[0] ? m->pci_why
			     : "the registry's display class key names no PCI "
			       "display adapter");
	gd_fmt(step, scap, "run on the CPU%s",
	       m->n_not_gpus && !strcmp(m->not_gpus[0].kind, "emulated")
		   ? "; in a virtual machine, pass a real GPU through to the "
		     "guest (PCI passthrough) and install its vendor's driver "
		     "there"
		   : "");
}

static json_t *line_json(enum gd_code c, const char *text)
{
	json_t *o = json_object();

	json_object_set_new(o, "code", gd_json_str(gd_code_name(c)));
	json_object_set_new(o, "text", gd_json_str(text));
	return o;
}

static json_t *cpu_verdict_json(const struct gd_machine *m)
{
	json_t *v = json_object(), *facts = json_array(), *steps = json_array();
	char head[400], step[300];

	no_gpu_lines(m, head, sizeof head, step, sizeof step);
	json_object_set_new(v, "status", gd_json_str("cpu-only"));
	json_object_set_new(v, "headline", gd_json_str(head));
	if (m->n_not_gpus)
		json_array_append_new(
		    facts, line_json(GD_C_GPU_NOT_A_GPU, m->pci_why));
	json_array_append_new(steps, line_json(GD_C_CPU_RUN_ON_CPU, step));
	json_object_set_new(v, "facts", facts);
	json_object_set_new(v, "steps", steps);
	return v;
}

static void json_out(struct gd_cli *cli, const struct gd_machine *m,
		     const struct gd_win_inventory *wi,
		     const struct gd_win_python *py,
		     const struct gd_win_verdict *vs, const struct gd_brief *bs,
		     int rc)
{
	json_t *doc = gd_cli_json_doc("check"), *gpus;

	json_object_set_new(doc, "root", gd_json_str(cli->ctx.fs.root));
	gd_render_machine_json(doc, m);
	gpus = json_object_get(doc, "gpus");
	for (size_t i = 0; i < m->n_gpus; i++) {
		json_t *o = json_array_get(gpus, i);
		json_t *v = gd_render_win_verdict_json(&vs[i]);

		gd_brief_verdict_json(&bs[i], v);
		json_object_set_new(o, "windows",
				    gd_render_win_adapter_json(&m->gpus[i]));
		json_object_set_new(o, "verdict", v);
	}
	if (m->n_gpus)
		json_object_set_new(doc, "verdict", json_null());
	else
		json_object_set_new(doc, "verdict", cpu_verdict_json(m));
	/* Linux runtimes (ROCm, CUDA, ICDs); Windows' are under "windows" */
	json_object_set_new(doc, "runtimes", json_array());
	json_object_set_new(doc, "windows", gd_render_win_inventory_json(wi));
	json_object_set_new(json_object_get(doc, "windows"), "python",
			    gd_render_win_python_json(py));
	json_object_set_new(doc, "diagnostics", gd_cli_diags_json(cli));
	json_object_set_new(doc, "exit_code", json_integer(rc));
	gd_cli_emit_json(cli, doc);
}

static void text_out(struct gd_cli *cli, const struct gd_machine *m,
		     const struct gd_win_inventory *wi,
		     const struct gd_win_python *py,
		     const struct gd_win_verdict *vs, int verbose)
{
	FILE *f = stdout;

	if (!m->n_gpus) {
		char head[400], step[300];

		no_gpu_lines(m, head, sizeof head, step, sizeof step);
		fprintf(f, "No GPU (CPU only): %s\n  next step: %s\n\n",
			head + strlen("no GPU: "), step);
	}
	for (size_t i = 0; i < m->n_gpus; i++) {
		fprintf(f, "%sGPU %zu%s  ", gd_c_bold(cli), i, gd_c_off(cli));
		gd_render_win_gpu_text(cli, f, &m->gpus[i], &vs[i]);
		if (verbose)
			gd_render_gpu_text(cli, f, &m->gpus[i], 1);
		fprintf(f, "\n");
	}
	gd_render_win_inventory_text(cli, f, wi);
	gd_render_win_python_text(cli, f, py);
	gd_cli_print_diags(cli, stderr);
}

static void brief_out(struct gd_cli *cli, const struct gd_machine *m,
		      const struct gd_brief *bs, int rc)
{
	json_t *doc = gd_cli_json_doc("check-brief");
	json_t *gpus = json_array(), *lines = json_array();
	struct gd_brief none = {.index = -1};
	char line[1400];

	for (size_t i = 0; i < m->n_gpus || (i == 0 && !m->n_gpus); i++) {
		const struct gd_brief *b = m->n_gpus ? &bs[i] : &none;

		gd_brief_line(b, line, sizeof line);
		if (!cli->json)
			printf("%s\n", line);
		json_array_append_new(lines, gd_json_str(line));
		if (b->index >= 0)
			json_array_append_new(gpus, gd_brief_gpu_json(b, line));
	}
	json_object_set_new(doc, "gpus", gpus);
	json_object_set_new(doc, "cpu_only", json_boolean(!m->n_gpus));
	json_object_set_new(doc, "lines", lines);
	json_object_set_new(doc, "exit_code", json_integer(rc));
	if (cli->json)
		gd_cli_emit_json(cli, doc);
	else
		json_decref(doc);
}

int gd_check_windows(struct gd_cli *cli, int verbose, int brief)
{
	struct gd_machine m;
	struct gd_win_inventory wi;
	struct gd_win_python *py = calloc(1, sizeof *py);
	struct gd_win_verdict *vs = NULL;
	struct gd_brief *bs = NULL;
	int rc;

	if (!py || collect(cli, &m, &wi, py, &vs) < 0 ||
	    !(bs = calloc(m.n_gpus ? m.n_gpus : 1, sizeof *bs))) {
		gd_machine_free(&m);
		free(vs);
		free(py);
		return gd_cli_error(cli, "out of memory");
	}
	rc = exit_code(&m, vs);
	gd_brief_fill_win(cli, &m, &wi, vs, bs);
	if (brief)
		brief_out(cli, &m, bs, rc);
	else if (cli->json)
		json_out(cli, &m, &wi, py, vs, bs, rc);
	else
		text_out(cli, &m, &wi, py, vs, verbose);
	free(bs);
	free(vs);
	free(py);
	gd_machine_free(&m);
	return rc;
}
