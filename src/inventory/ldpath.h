/* The dynamic loader's library search, approximated from files: the
 * directories ld.so would look in, in its order (LD_LIBRARY_PATH, then the
 * ld.so.cache directories, approximated by /etc/ld.so.conf and the files it
 * includes, then the built-in default directories), and helpers that find a
 * library there by name. Everything goes through ctx->fs, so a captured root
 * answers as the machine would. */
#ifndef GD_LDPATH_H
#define GD_LDPATH_H

#include <stddef.h>

#include "../core/ctx.h"

struct gd_ld_dir {
	char path[512];	    /* as written (under the root) */
	char resolved[512]; /* symlinks resolved under the root */
	char from[32];	    /* "LD_LIBRARY_PATH", "ld.so.conf", "default" */
};

struct gd_ld_dirs {
	GD_VEC(struct gd_ld_dir) d;
};

/* The Debian/Ubuntu multiarch triplet of this build ("x86_64-linux-gnu"). */
const char *gd_ld_multiarch(void);

/* Fill dirs in loader order, without duplicates (by resolved path). */
int gd_ld_dirs_collect(gd_ctx *ctx, struct gd_ld_dirs *dirs);
void gd_ld_dirs_free(struct gd_ld_dirs *dirs);

/* Parse one ld.so.conf text. Directories are appended to dirs, "include"
 * patterns to includes (as written). "hwcap" lines and comments are
 * skipped. Returns the number of lines understood. */
int gd_ldconf_parse(const char *buf, gd_strvec *dirs, gd_strvec *includes);

/* First directory holding a file named soname; writes dir/soname to out.
 * Returns the index in dirs, or -1. */
long gd_ld_find(const gd_ctx *ctx, const struct gd_ld_dirs *dirs,
		const char *soname, char *out, size_t cap);

/* Resolve symlinks of an absolute path under the root (like realpath(3),
 * but every step through ctx->fs). Returns 0, or -errno (-ELOOP after 40
 * links). out holds the best effort on error. */
int gd_fs_resolve(const gd_fs *fs, const char *path, char *out, size_t cap);

/* "libamdhip64.so.5.2.21153" with base "libamdhip64": returns 1 and
 * writes "5.2.21153" / major 5; "libamdhip64.so" gives "" / 0; returns 0
 * when fname is not base.so[.digits...]. */
int gd_soname_version(const char *fname, const char *base, char *ver,
		      size_t cap, unsigned *major);

/* Join dir and name with one '/'. Returns 0, or -ENAMETOOLONG when the
 * path does not fit cap: out then ends in "..." (gd_mark_cut), never a
 * shorter path that could name another file. */
int gd_path_join(char *out, size_t cap, const char *dir, const char *name);

#endif
