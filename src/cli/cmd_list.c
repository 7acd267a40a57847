/* gpudoctor list: GPUs only, from sysfs, in milliseconds (like
 * `nvidia-smi -L`, for every vendor). No runtime is loaded. Exit 0 when a
 * GPU was found, GD_EXIT_NO_GPU when none. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "discover/discover.h"
#include "discover/vendor.h"
#include "report/render_gpu.h"

const struct gd_opt gd_opts_list[] = {
    {"verbose", 'v', 'v', GD_ARG_NONE, NULL, "the facts block of each GPU",
     NULL, NULL},
    {"help", 'h', 'h', GD_ARG_NONE, NULL, "this help", NULL, NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
};

static void help(FILE *f)
{
	fprintf(f, "Usage: gpudoctor list [--json] [-v]\n\n"
		   "List the GPUs of this machine (or of a captured tree with "
		   "--root) from sysfs:\nPCI display and accelerator devices, "
		   "the AMD KFD topology, DRM and\n/proc/driver/nvidia. No GPU "
		   "runtime is loaded.\n\n");
	gd_opts_help(f, gd_opts_list);
	fprintf(f, "\n");
	gd_cli_common_help(f);
	fprintf(f, "\nExit status: 0 GPUs found, 2 no GPU, 3 error.\n");
}

/* "gfx1010, 40 CU, 8.0 GiB" and friends */
static void summary(const struct gd_gpu *g, char *buf, size_t cap)
{
	char mem[32];
	size_t o = 0;

	buf[0] = '\0';
	if (g->vendor == GD_VENDOR_AMD) {
		o += (size_t)snprintf(buf + o, cap - o, "%s",
				      g->gfx[0] ? g->gfx : "gfx unknown");
		if (g->ovr.var[0] && g->ovr.valid && g->ovr.gfx[0] &&
		    strcmp(g->ovr.gfx, g->gfx))
			o += (size_t)snprintf(buf + o, cap - o, " as %s",
					      g->ovr.gfx);
		else if (g->ovr.var[0] && !g->ovr.valid && o < cap)
			o += (size_t)snprintf(buf + o, cap - o, ", %s invalid",
					      g->ovr.var);
		if (gd_known(&g->cu_count) && o < cap)
			o +=
			    (size_t)snprintf(buf + o, cap - o, ", %llu CU",
					     (unsigned long long)g->cu_count.v);
		if (g->n_kfd_nodes > 1 && o < cap)
			o += (size_t)snprintf(buf + o, cap - o,
					      ", %zu partitions",
					      g->n_kfd_nodes);
		if (gd_known(&g->vram_total) && o < cap) {
			gd_render_bytes(g->vram_total.v, mem, sizeof mem);
			o += (size_t)snprintf(buf + o, cap - o, ", %s", mem);
		}
	} else if (gd_gpu_code_target(g)[0]) {
		o += (size_t)snprintf(buf + o, cap - o, "%s",
				      gd_gpu_code_target(g));
	}
	if (g->integrated && o < cap)
		snprintf(buf + o, cap - o, "%sintegrated", o ? ", " : "");
}

static int print_text(struct gd_cli *cli, const struct gd_machine *m,
		      int verbose)
{
	for (size_t i = 0; i < m->n_gpus; i++) {
		const struct gd_gpu *g = &m->gpus[i];
		char name[200], sum[200];

		gd_render_gpu_name(g, name, sizeof name);
		summary(g, sum, sizeof sum);
		printf("GPU %zu: %s%s%s%s%s%s %s [%04x:%04x]", i,
		       gd_c_bold(cli), name, gd_c_off(cli), sum[0] ? " (" : "",
		       sum, sum[0] ? ")" : "", g->pci.bdf, g->pci.vendor_id,
		       g->pci.device_id);
		if (g->hidden)
			printf(" %s[%s]%s", gd_c_yellow(cli), g->visible_note,
			       gd_c_off(cli));
		printf("\n");
		if (verbose)
			gd_render_gpu_text(cli, stdout, g, 1);
	}
	if (!m->n_gpus)
		printf("No GPU found (%s%s%s)\n",
		       m->pci_why[0] ? m->pci_why
				     : "no display or accelerator PCI device",
		       "; ",
		       m->kfd_why[0] ? m->kfd_why : "KFD has no GPU node");
	if (m->visible_summary[0])
		printf("%s%s%s\n", gd_c_dim(cli), m->visible_summary,
		       gd_c_off(cli));
	return 0;
}

static int print_json(struct gd_cli *cli, const struct gd_machine *m)
{
	json_t *doc = gd_cli_json_doc("list");

	gd_render_machine_json(doc, m);
	json_object_set_new(doc, "diagnostics", gd_cli_diags_json(cli));
	return gd_cli_emit_json(cli, doc);
}

int gd_cmd_list(struct gd_cli *cli, int argc, char **argv)
{
	struct gd_getopt g;
	struct gd_machine m;
	int c, verbose = 0, rc;

	gd_opts_build(&g, gd_opts_list, 0);
	while ((c = getopt_long(argc, argv, g.so, g.lo, NULL)) != -1) {
		if (c == 'h') {
			help(stdout);
			return GD_EXIT_OK;
		} else if (c == 'v') {
			verbose = 1;
		} else {
			return gd_cli_usage_error(cli, "list",
						  "unknown option");
		}
	}
	if (optind < argc)
		return gd_cli_usage_error(
		    cli, "list", "unexpected argument '%s'", argv[optind]);
	if (gd_discover(&cli->ctx, &m) < 0) {
		gd_machine_free(&m);
		return gd_cli_error(cli, "out of memory");
	}
	if (cli->json) {
		rc = print_json(cli, &m);
	} else {
		rc = print_text(cli, &m, verbose);
		if (verbose)
			gd_cli_print_diags(cli, stderr);
	}
	c = m.n_gpus ? GD_EXIT_OK : GD_EXIT_NO_GPU;
	gd_machine_free(&m);
	return rc < 0 ? GD_EXIT_ERROR : c;
}
