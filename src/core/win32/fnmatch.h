/* fnmatch for the Windows build (compat_win32.c): *, ? and [...] classes,
 * FNM_PERIOD; what inventory/ldpath.c needs for ld.so.conf globs. */
#ifndef GD_W32_FNMATCH_H
#define GD_W32_FNMATCH_H

#define FNM_NOMATCH 1
#define FNM_PERIOD 4

int fnmatch(const char *pattern, const char *name, int flags);

#endif
