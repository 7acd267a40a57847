/* Rendering of the Windows facts and verdicts (check_win.c). */
#ifndef GD_RENDER_WINDOWS_H
#define GD_RENDER_WINDOWS_H

#include <jansson.h>
#include <stdio.h>

#include "discover/discover.h"
#include "doctor/verdict_windows.h"
#include "inventory/win_inventory.h"
#include "inventory/win_python.h"
#include "view.h"

json_t *gd_render_win_adapter_json(const struct gd_gpu *g);
json_t *gd_render_win_verdict_json(const struct gd_win_verdict *v);
json_t *gd_render_win_inventory_json(const struct gd_win_inventory *wi);
void gd_render_win_gpu_text(struct gd_cli *cli, FILE *f, const struct gd_gpu *g,
			    const struct gd_win_verdict *v);
void gd_render_win_inventory_text(struct gd_cli *cli, FILE *f,
				  const struct gd_win_inventory *wi);

/* render_winpy.c: the Python environments and frameworks. */
json_t *gd_render_win_python_json(const struct gd_win_python *py);
void gd_render_win_python_text(struct gd_cli *cli, FILE *f,
			       const struct gd_win_python *py);

#endif
