/* Internal to inventory/: the collectors gd_inventory_collect() runs, and
 * small helpers they share. Not for other layers. */
#ifndef GD_INV_INT_H
#define GD_INV_INT_H

#include "inventory.h"
#include "ldpath.h"

/* Upper bounds that keep a hostile tree from costing time or memory. */
#define GD_INV_MAX_MANIFEST (1024 * 1024) /* one ICD manifest / .icd file */
#define GD_INV_MAX_ICDS 512		  /* manifests per kind */
#define GD_INV_MAX_INSTALLS 64
#define GD_INV_LIST_CAP 100000 /* gd_fs_list's own cap */

void gd_inv_rocm_collect(gd_ctx *ctx, const struct gd_ld_dirs *ld,
			 struct gd_inventory *inv);
void gd_inv_rocblas_collect(gd_ctx *ctx, const struct gd_ld_dirs *ld,
			    struct gd_inventory *inv);
void gd_inv_cuda_collect(gd_ctx *ctx, const struct gd_ld_dirs *ld,
			 struct gd_inventory *inv);
void gd_inv_vulkan_collect(gd_ctx *ctx, const struct gd_ld_dirs *ld,
			   struct gd_inventory *inv);
void gd_inv_opencl_collect(gd_ctx *ctx, const struct gd_ld_dirs *ld,
			   struct gd_inventory *inv);

void gd_inv_intel_collect(gd_ctx *ctx, const struct gd_ld_dirs *ld,
			  struct gd_inventory *inv);
void gd_inv_deps_collect(gd_ctx *ctx, const struct gd_ld_dirs *ld,
			 struct gd_inventory *inv);

/* Append src to a ", "-separated list in dst unless already there. */
void gd_inv_add_found_by(char *dst, size_t cap, const char *src);

/* For each base name ("libamdhip64"), the best file base.so[.ver] among
 * names (the longest version: the real file, not the symlinks). Appends
 * one gd_lib per base found, named by names_out[i]. */
void gd_inv_match_libs(char *const *names, size_t n, const char *dir,
		       const char *const *bases, const char *const *labels,
		       struct gd_lib **libs, size_t *n_libs);

/* Push an element onto a (pointer, count) array; NULL on ENOMEM. */
/* Each of want[] (a library's base name, "libcudart") as the loader finds
 * it, first directory wins, appended to libs under label[]'s name unless
 * one of that name is there already. */
void gd_inv_ld_libs(gd_ctx *ctx, const struct gd_ld_dirs *ld,
		    const char *const *want, const char *const *label,
		    struct gd_lib **libs, size_t *n_libs);
void *gd_inv_push(void **arr, size_t *n, size_t elsize);

/* fw_meta.c: "torch-2.5.1+rocm6.2.dist-info" (or .egg-info) among ents
 * -> "2.5.1+rocm6.2" for the first of names (NULL-ended) it matches, case-
 * insensitively; out untouched when none does. */
void gd_fw_dist_version(const gd_strvec *ents, const char *const *names,
			char *out, size_t cap);
/* `name = 'value'` or `name: Optional[str] = 'value'` at a line start of
 * text (torch/version.py) into out; "" when absent or not a string. */
void gd_fw_py_assign(const char *text, const char *name, char *out, size_t cap);

#endif
