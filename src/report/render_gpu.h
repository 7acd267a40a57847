/* Rendering of one discovered GPU (struct gd_gpu), shared by `list`,
 * `check` and `report`.
 *
 * JSON convention for facts that carry a status (docs/json.md): a known
 * fact is its value; an unknown one is null AND a sibling
 * "<key>_unknown": "<why>" (e.g. "cu_count": null,
 * "cu_count_unknown": "no simd_count in node 2"). PCI ids are strings
 * "0x731f"; sizes are bytes. */
#ifndef GD_RENDER_GPU_H
#define GD_RENDER_GPU_H

#include <jansson.h>
#include <stdio.h>

#include "discover/discover.h"
#include "view.h"

json_t *gd_render_gpu_json(const struct gd_gpu *g);
/* The facts block: a few lines, indented 2; verbose adds per-node detail. */
void gd_render_gpu_text(struct gd_cli *cli, FILE *f, const struct gd_gpu *g,
			int verbose);
/* "AMD Radeon RX 5700 XT" or "[1002:731f]" when no name is known. */
void gd_render_gpu_name(const struct gd_gpu *g, char *buf, size_t cap);
/* "8.0 GiB" */
void gd_render_bytes(uint64_t v, char *buf, size_t cap);
/* The machine part shared by `list --json` and `check --json`: gpus[]
 * (each with "index" first), no_gpu_why, kernel, visible_devices. */
void gd_render_machine_json(json_t *doc, const struct gd_machine *m);
/* render_kstate.c: the kernel state's members of "kernel"; a GPU's
 * "firmware" object (null when none was read). */
void gd_render_kstate_json(json_t *kernel, const struct gd_kstate *k);
json_t *gd_render_fw_json(const struct gd_fw *fw);

#endif
