/* doctor/cuda_driver: the NVIDIA driver against the CUDA the installed
 * libraries, toolkits and frameworks were built for (cuda_driver.c). */
#ifndef GD_CUDA_DRIVER_H
#define GD_CUDA_DRIVER_H

#include "core/ctx.h"
#include "inventory/inventory.h"
#include "kb/kb.h"

/* The knowledge base's nvidia.cuda_driver_min table. */
struct gd_cuda_min_table {
	struct gd_kb_driver_min rows[64];
	size_t n;
};
void gd_cuda_min_table_load(gd_ctx *ctx, struct gd_cuda_min_table *t);

/* Whether driver (e.g. "535.104.05", NULL = unknown) runs code built for
 * CUDA cuda ("12.4") by the table (NULL: none). Fills out->cuda,
 * min_driver, full_driver, driver_ok, why. */
void gd_cuda_driver_check(const struct gd_cuda_min_table *kb,
			  const char *driver, const char *cuda,
			  struct gd_cuda_check *out);
/* Highest CUDA release whose minimum driver is <= driver; 0 and the
 * release in out, or -1 when unknown. */
int gd_cuda_driver_api(const struct gd_cuda_min_table *kb, const char *driver,
		       char *out, size_t cap);

/* Judge the inventory's CUDA facts: inv->cuda_driver_api and every
 * inv->cuda_checks[] entry. Run once after gd_inventory_collect. */
void gd_doctor_cuda(gd_ctx *ctx, struct gd_inventory *inv);

#endif
