/* gather_win.c: `gather` writing a Windows capture. */
#ifndef GD_GATHER_WIN_H
#define GD_GATHER_WIN_H

#include "core/capture.h"

struct gw;

/* Sets cap's filter for a Windows capture; free after gd_capture_write. */
struct gw *gd_gather_win_new(struct gd_capture *cap);
void gd_gather_win_free(struct gw *g);
/* Every variable name of the judged environment, sorted as `set` lists
 * them, into names (ctx->env_read), so environ holds them all. */
void gd_gather_win_env(gd_ctx *ctx, gd_strvec *names);

#endif
