/* Rendering of the installed-software inventory (struct gd_inventory),
 * shared by `check` and `report`. The JSON shape is documented key by key
 * in docs/json-runtimes.md; it follows docs/json.md's convention: an
 * unknown fact is null plus a sibling "<key>_unknown": "<why>". */
#ifndef GD_RENDER_INVENTORY_H
#define GD_RENDER_INVENTORY_H

#include <jansson.h>
#include <stdio.h>

#include "inventory/inventory.h"
#include "view.h"

/* The "runtimes" array of `check --json`: one object per runtime found
 * (kind "rocm", "rocblas", "cuda-driver", "cuda-toolkit", "vulkan",
 * "opencl"). A new reference; never NULL (an empty array when nothing). */
json_t *gd_render_runtimes_json(const struct gd_inventory *inv);

/* The "Compute stack" block: one section per kind, unknown facts shown
 * with their reason. */
void gd_render_inventory_text(struct gd_cli *cli, FILE *f,
			      const struct gd_inventory *inv);

#endif
