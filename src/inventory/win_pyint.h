/* Internal to win_python.c / win_pydll.c. */
#ifndef GD_WIN_PYINT_H
#define GD_WIN_PYINT_H

#include "core/fs.h"
#include "win_python.h"

/* A folder's entries by Windows path (case-insensitive components). */
int gd_winpy_list(gd_ctx *ctx, const char *winpath, gd_strvec *out);
int gd_winpy_exists(gd_ctx *ctx, const char *winpath);

/* The framework's DLL folders, its DLLs, their imports and where they
 * resolve; its build and HIP major from them. ents: site-packages. */
void gd_winpy_fw_dlls(gd_ctx *ctx, const struct gd_winpy_env *env,
		      const gd_strvec *ents, struct gd_winpy_fw *fw);

#endif
