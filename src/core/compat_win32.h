/* Forced into every file of the Windows build (-include, cmake/platform.cmake)
 * so that shared code naming POSIX open(2) flags and uid_t compiles with
 * MinGW-w64 without #ifdef _WIN32 in it. The flags that have no Windows
 * meaning are 0; files are opened by fs_win32.c. */
#ifndef GD_COMPAT_WIN32_H
#define GD_COMPAT_WIN32_H

#include <fcntl.h>
#include <sys/types.h>

/* Every open(2) of shared code says O_CLOEXEC and wants the bytes as they
 * are: not inherited by children, and binary (the CRT's default text mode
 * would write CRLF and stop reading at ^Z). */
#ifndef O_CLOEXEC
#define O_CLOEXEC (_O_NOINHERIT | _O_BINARY)
#endif
#ifndef O_NONBLOCK
#define O_NONBLOCK 0
#endif
#ifndef O_NOCTTY
#define O_NOCTTY 0
#endif
#ifndef O_DIRECTORY
#define O_DIRECTORY 0
#endif
#ifndef O_PATH
#define O_PATH 0
#endif
#ifndef O_NOFOLLOW
#define O_NOFOLLOW 0
#endif

/* fcntl(2) is used only to clear O_NONBLOCK after a guarded open, and
 * O_NONBLOCK is 0 here: nothing to do. */
#ifndef F_GETFL
#define F_GETFL 3
#endif
#ifndef F_SETFL
#define F_SETFL 4
#endif
static inline int gd_fcntl(int fd, int cmd, ...)
{
	(void)fd;
	(void)cmd;
	return 0;
}
#define fcntl gd_fcntl

/* No sockets in the file system; no POSIX modes to set. */
#ifndef S_ISSOCK
#define S_ISSOCK(m) 0
#endif
#define fchmod(fd, mode) ((void)(fd), (void)(mode), 0)

/* Links as fs_win32.c's gd_fs_lstat reports them (a capture's links.tsv,
 * reparse points); the CRT itself never returns S_IFLNK. */
#ifndef S_IFLNK
#define S_IFLNK 0120000
#endif
#ifndef S_ISLNK
#define S_ISLNK(m) (((m)&S_IFMT) == S_IFLNK)
#endif

typedef unsigned short gd_uid_t;
#define uid_t gd_uid_t
#define gid_t gd_uid_t
/* Windows has no POSIX owners: every file reads as ours. */
static inline gd_uid_t gd_geteuid(void)
{
	return 0;
}
#define geteuid gd_geteuid

/* POSIX calls the shared code uses, implemented in compat_win32.c. */
#include <direct.h>
#include <io.h>
#include <stddef.h>
#include <sys/stat.h>

long long gd_w32_pread(int fd, void *buf, size_t n, long long off);
#define pread gd_w32_pread
void *memmem(const void *h, size_t hn, const void *n, size_t nn);
char *strndup(const char *s, size_t n);
#define mkdir(p, m) _mkdir(p)
/* POSIX rename replaces an existing destination; the CRT's refuses. */
int gd_w32_rename(const char *from, const char *to);
#define rename gd_w32_rename
#define fsync _commit
/* No POSIX groups nor device nodes: access checks answer from _access. */
#define AT_FDCWD (-100)
#define AT_EACCESS 0x200
int faccessat(int dirfd, const char *path, int mode, int flags);
int getgroups(int n, gd_uid_t *list);
#define lstat(p, st) stat(p, st) /* no symbolic links */
/* callers pass a PATH_MAX (4096) buffer */
#define realpath(p, r) _fullpath((r), (p), 4096)
#define getegid gd_geteuid
#include <time.h>
static inline struct tm *gd_gmtime_r(const time_t *t, struct tm *tm)
{
	return gmtime_s(tm, t) ? NULL : tm;
}
static inline struct tm *gd_localtime_r(const time_t *t, struct tm *tm)
{
	return localtime_s(tm, t) ? NULL : tm;
}
#define gmtime_r gd_gmtime_r
#define localtime_r gd_localtime_r
/* Probe process groups do not exist here: nothing to signal. */
int kill(int pid, int sig);
const char *sigabbrev_np(int sig);

#endif
