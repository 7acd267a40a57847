/* Which system a run judges, and for Windows its registry and file
 * versions. A Windows capture (the format of issue #14, written by
 * `gather` on Windows) is a directory with
 *   registry/NAME.reg        regedit exports, merged in name order
 *   fs/<drive letter>/...     files under their Windows paths
 *   .gpudoctor/environ        the environment, NAME=value lines
 *   .gpudoctor/versions.tsv   path, FileVersion, ProductVersion, size
 *                             for files stored empty
 * Under --root it is recognised by registry/ or fs/; on Windows itself
 * (root "/") the live registry is read. */
#ifndef GD_WINCAP_H
#define GD_WINCAP_H

#include <stdint.h>

#include "ctx.h"
#include "winreg.h"

/* Sets ctx->platform and, for Windows, ctx->reg. Problems become
 * diagnostics. Called by gd_ctx_init. */
void gd_wincap_init(gd_ctx *ctx);
void gd_wincap_free(gd_ctx *ctx);

/* The registry keys gpudoctor reads, each with its subtree: what the live
 * reader loads and what `gather` exports, file by file (registry/<file>.reg,
 * in this order). */
struct gd_win_regroot {
	const char *file; /* "10-display-class" */
	const char *hive; /* "HKEY_LOCAL_MACHINE" */
	const char *path; /* below the hive */
};
extern const struct gd_win_regroot gd_win_regroots[];
extern const size_t gd_win_n_regroots;
/* Keys read below one root at most (Enum\PCI of a big machine). */
#define GD_WIN_REG_MAX_KEYS 20000

/* The live registry's keys gpudoctor reads, into r (reg_live_*.c):
 * -ENOSYS on other systems. */
int gd_reg_load_live(gd_reg *r);

/* "C:\Windows\System32\x.dll" (any case, / or \) as a path under the
 * root: "/fs/C/Windows/System32/x.dll". 0, or -1 when not a drive path. */
int gd_win_fs_path(const char *winpath, char *buf, size_t cap);

/* The same, each component matched without case against what the
 * directory holds (Windows paths are case-insensitive; a capture
 * replayed on Linux is not): "C:\WINDOWS\system32" finds fs/C/Windows/
 * System32. Components not found are kept as written. */
int gd_win_resolve(gd_ctx *ctx, const char *winpath, char *buf, size_t cap);

/* One line of .gpudoctor/versions.tsv for a Windows path (case-
 * insensitive), for files the capture stored empty. */
struct gd_win_filever {
	char file_version[48], product_version[48];
	uint64_t size;
};
int gd_wincap_version(gd_ctx *ctx, const char *winpath,
		      struct gd_win_filever *out);

/* A variable of the judged Windows environment, names case-insensitive
 * as on Windows ("Path" is PATH). NULL when unset. */
const char *gd_win_getenv(const gd_ctx *ctx, const char *name);

#endif
