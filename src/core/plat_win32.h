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

/* Process helpers of proc_win32.c, shared with the probe supervisor
 * (probe/supervisor_win32.c). */
/* argv as one command line that CommandLineToArgvW splits back; malloc'ed. */
wchar_t *gd_w32_command_line(char *const *argv);
/* envp as a CREATE_UNICODE_ENVIRONMENT block; malloc'ed. */
wchar_t *gd_w32_env_block(char *const *envp);
/* A Job Object (HANDLE) that kills every process in it when closed. */
void *gd_w32_kill_job(void);
/* "access violation" for 0xC0000005, "exception" when not known. */
const char *gd_w32_ntstatus_name(unsigned code);
/* Where argv0 is, looked up as execvp would but the Windows way: a name
 * without a directory in the PATH of envp (NULL: ours), trying it as is,
 * then with .exe and .com; malloc'ed, or NULL (not found: CreateProcess
 * then gets the name and says why). */
wchar_t *gd_w32_find_program(const char *argv0, char *const *envp);

#endif
