/* Recording what discovery reads, for `gpudoctor gather`: the fs hook
 * collects every path; gd_capture_write stores each one in a tar.gz as it is
 * on this machine (symlinks as symlinks, every component on the way), so
 * `--root` on the unpacked archive replays the same facts. Files that were
 * only stat'ed (a library's existence) are stored empty. The environment
 * variables gpudoctor read are stored in .gpudoctor/environ. */
#ifndef GD_CAPTURE_H
#define GD_CAPTURE_H

#include "ctx.h"
#include "tar.h"

struct gd_capture;

struct gd_capture *gd_capture_new(void);
void gd_capture_free(struct gd_capture *c);
/* For a Windows capture (cli/gather_win.c): file(), for each regular file
 * stored, gets what was read (*buf, *len, malloc'ed; rc the read's result,
 * 0 or -EFBIG; NULL when only its existence was seen) and may replace it;
 * it returns the rc to account for, or 1: not stored. finish() adds its own
 * entries (registry exports, versions.tsv) before the archive is closed. */
struct gd_capture_stats;
struct gd_capture_filter {
	int (*file)(void *arg, gd_ctx *ctx, const char *path, int rc,
		    char **buf, size_t *len);
	void (*finish)(void *arg, gd_ctx *ctx, gd_tar *t,
		       struct gd_capture_stats *st);
	void *arg;
};
void gd_capture_set_filter(struct gd_capture *c,
			   const struct gd_capture_filter *f);
/* The i-th path discovery used (and its kind, as gd_fs_hook's); returns
 * how many there are. */
size_t gd_capture_paths(const struct gd_capture *c, size_t i, const char **path,
			int *kind);

/* An fs hook (gd_fs_hook): set fs->hook = gd_capture_hook, hook_arg = c. */
void gd_capture_hook(void *arg, const char *path, int kind);
/* Kind 'e' (GD_FS_ELF): a library whose dependency facts were read (the
 * DT_NEEDED closure). It is stored as stub makes it (binscan's
 * gd_elf_stub: the ELF header, dynamic section and version tables, not the
 * code), or empty when no stub function is set. stub returns 0 and a
 * malloc'ed buffer, or <0. */
typedef int (*gd_capture_stub_fn)(gd_ctx *ctx, const char *path, char **buf,
				  size_t *len);
void gd_capture_set_stub(struct gd_capture *c, gd_capture_stub_fn stub);

struct gd_capture_stats {
	size_t files, dirs, links, bytes;
	size_t skipped;	    /* device nodes, FIFOs, unreadable: not stored */
	size_t failed;	    /* seen by discovery, yet not in the archive */
	gd_strvec failures; /* "path: reason", the first 100 of them */
};

/* Writes the archive (see core/tar.h: temporary file, then rename). -1 with
 * err when no archive was left at tarpath; entries that could not be
 * stored do not fail the whole write: they are counted in st->failed and
 * listed, and the caller says so. Free st with gd_capture_stats_free. */
int gd_capture_write(struct gd_capture *c, gd_ctx *ctx, const char *tarpath,
		     const struct gd_tar_opts *o, struct gd_capture_stats *st,
		     char *err, size_t errlen);
void gd_capture_stats_free(struct gd_capture_stats *st);

#endif
