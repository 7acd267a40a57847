/* Internal to win_inventory.c / win_apps.c. */
#ifndef GD_WIN_INT_H
#define GD_WIN_INT_H

#include "core/fs.h"
#include "win_inventory.h"

/* A folder's entries by Windows path; 0 or <0. */
int gd_win_list(gd_ctx *ctx, const char *winpath, gd_strvec *out);
/* FileVersion of dir\name (versions.tsv, else the PE version resource);
 * "" when unknown. */
void gd_win_file_version(gd_ctx *ctx, const char *dir, const char *name,
			 char *out, size_t cap);
/* amd_comgr*.dll, not the 32-bit amd_comgr32.dll */
int gd_win_is_comgr(const char *n);
/* The HIP runtime DLLs applications keep in their own folders
 * (win_apps.c). */
void gd_win_apps_collect(gd_ctx *ctx, struct gd_win_inventory *wi);

#endif
