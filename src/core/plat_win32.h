/* Helpers shared by the Windows implementations (plat_win32.c,
 * fs_win32.c, reg_live_win32.c); included only by *_win32.c files. */
#ifndef GD_PLAT_WIN32_H
#define GD_PLAT_WIN32_H

#include <stddef.h>
#include <wchar.h>

/* UTF-8 -> UTF-16, malloc'ed; NULL on bad input or no memory. */
wchar_t *gd_w32_wide(const char *s);
/* UTF-16 -> UTF-8 into buf (always terminated); 0 or -1. */
int gd_w32_utf8(const wchar_t *w, char *buf, size_t cap);
/* malloc'ed UTF-8 copy of n wide characters (n < 0: up to the NUL). */
char *gd_w32_utf8_dup(const wchar_t *w, int n);
/* A Windows error code as -errno for the fs layer's callers. */
int gd_w32_errno(unsigned long err);

#endif
