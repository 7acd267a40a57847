/* Rendering of inventory/frameworks for `check` (and `report`). */
#ifndef GD_RENDER_FRAMEWORKS_H
#define GD_RENDER_FRAMEWORKS_H

#include <jansson.h>
#include <stdio.h>

#include "inventory/frameworks.h"
#include "view.h"

/* {"environments": [...], "system_hip_major": N, "frameworks": [{name,
 * version, site, build, cuda_version, hip_version, bundled_hip_major,
 * backends, rocblas_gfx, targets[{kind,target,features,count}], libs[{name,
 * path, targets, missing, error}], rocm_mismatch, no_code, fits}]} */
json_t *gd_render_frameworks_json(const struct gd_frameworks *fws);
/* One block per framework; problems in red. */
void gd_render_frameworks_text(struct gd_cli *cli, FILE *f,
			       const struct gd_frameworks *fws);

#endif
