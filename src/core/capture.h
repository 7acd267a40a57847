/* Recording what discovery reads, for `gpudoctor gather`: the fs hook
 * collects every path; gd_capture_write stores each one in a tar.gz as it is
 * on this machine (symlinks as symlinks, every component on the way), so
 * `--root` on the unpacked archive replays the same facts. Files that were
 * only stat'ed (a library's existence) are stored empty. The environment
 * variables gpudoctor read are stored in .gpudoctor/environ. */
#ifndef GD_CAPTURE_H
#define GD_CAPTURE_H

#include "ctx.h"

struct gd_capture;

struct gd_capture *gd_capture_new(void);
void gd_capture_free(struct gd_capture *c);
/* An fs hook (gd_fs_hook): set fs->hook = gd_capture_hook, hook_arg = c. */
void gd_capture_hook(void *arg, const char *path, int kind);

struct gd_capture_stats {
	size_t files, dirs, links, bytes, skipped;
};

int gd_capture_write(struct gd_capture *c, gd_ctx *ctx, const char *tarpath,
		     struct gd_capture_stats *st, char *err, size_t errlen);

#endif
