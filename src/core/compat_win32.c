/* The few POSIX calls shared code makes, on Windows (declared in
 * compat_win32.h, win32/sys/mman.h and win32/fnmatch.h). */
#include <errno.h>
#include <fnmatch.h>
#include <io.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <windows.h>

#include "plat_win32.h"

int gd_w32_rename(const char *from, const char *to)
{
	wchar_t *wf = gd_w32_wide(from), *wt = gd_w32_wide(to);
	int ok =
	    wf && wt &&
	    MoveFileExW(wf, wt,
			MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH);
	DWORD e = ok ? 0 : GetLastError();

	free(wf);
	free(wt);
	if (ok)
		return 0;
	errno = e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND ? ENOENT
		: e == ERROR_ACCESS_DENIED || e == ERROR_SHARING_VIOLATION
		    ? EACCES
		    : EIO;
	return -1;
}

long long gd_w32_pread(int fd, void *buf, size_t n, long long off)
{
	HANDLE h = (HANDLE)_get_osfhandle(fd);
	OVERLAPPED ov;
	DWORD got = 0;

	if (h == INVALID_HANDLE_VALUE) {
		errno = EBADF;
		return -1;
	}
	memset(&ov, 0, sizeof ov);
	ov.Offset = (DWORD)off;
	ov.OffsetHigh = (DWORD)((unsigned long long)off >> 32);
	if (n > 0x7fffffff)
		n = 0x7fffffff;
	if (!ReadFile(h, buf, (DWORD)n, &got, &ov)) {
		if (GetLastError() == ERROR_HANDLE_EOF)
			return 0;
		errno = EIO;
		return -1;
	}
	return got;
}

void *memmem(const void *h, size_t hn, const void *n, size_t nn)
{
	const unsigned char *p = h, *end;

	if (!nn)
		return (void *)h;
	if (hn < nn)
		return NULL;
	end = p + (hn - nn);
	for (; p <= end; p++) {
		p = memchr(p, *(const unsigned char *)n, (size_t)(end - p) + 1);
		if (!p)
			return NULL;
		if (!memcmp(p, n, nn))
			return (void *)p;
	}
	return NULL;
}

char *strndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *d = malloc(len + 1);

	if (d) {
		memcpy(d, s, len);
		d[len] = '\0';
	}
	return d;
}

int faccessat(int dirfd, const char *path, int mode, int flags)
{
	(void)dirfd;
	(void)flags;
	return _access(path, mode & 6);
}

int getgroups(int n, unsigned short *list)
{
	(void)n;
	(void)list;
	return 0;
}

int kill(int pid, int sig)
{
	(void)pid;
	(void)sig;
	errno = ESRCH;
	return -1;
}

const char *sigabbrev_np(int sig)
{
	(void)sig;
	return NULL;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, long long off)
{
	HANDLE f = (HANDLE)_get_osfhandle(fd), m;
	void *p;

	(void)addr;
	(void)prot;
	(void)flags;
	if (f == INVALID_HANDLE_VALUE || !len) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	m = CreateFileMappingW(f, NULL, PAGE_READONLY, 0, 0, NULL);
	if (!m) {
		errno = EACCES;
		return MAP_FAILED;
	}
	p = MapViewOfFile(m, FILE_MAP_READ,
			  (DWORD)((unsigned long long)off >> 32), (DWORD)off,
			  len);
	CloseHandle(m); /* the view keeps the mapping alive */
	if (!p) {
		errno = ENOMEM;
		return MAP_FAILED;
	}
	return p;
}

int munmap(void *addr, size_t len)
{
	(void)len;
	return UnmapViewOfFile(addr) ? 0 : -1;
}

int madvise(void *addr, size_t len, int advice)
{
	(void)addr;
	(void)len;
	(void)advice;
	return 0;
}

static int class_match(const char **pp, char c)
{
	const char *p = *pp + 1;
	int neg = *p == '!' || *p == '^', hit = 0;

	if (neg)
		p++;
	for (int first = 1; *p && (first || *p != ']'); first = 0, p++) {
		if (p[1] == '-' && p[2] && p[2] != ']') {
			hit |= c >= p[0] && c <= p[2];
			p += 2;
		} else {
			hit |= c == *p;
		}
	}
	if (*p != ']')
		return -1; /* no closing bracket: a literal '[' */
	*pp = p + 1;
	return hit != neg;
}

int fnmatch(const char *p, const char *s, int flags)
{
	const char *s0 = s;

	for (; *p; p++, s++) {
		if ((flags & FNM_PERIOD) && s == s0 && *s == '.' && *p != '.')
			return FNM_NOMATCH;
		if (*p == '*') {
			while (p[1] == '*')
				p++;
			for (;; s++) {
				if (!fnmatch(p + 1, s, flags & ~FNM_PERIOD))
					return 0;
				if (!*s)
					return FNM_NOMATCH;
			}
		}
		if (!*s)
			return FNM_NOMATCH;
		if (*p == '?')
			continue;
		if (*p == '[') {
			const char *q = p;
			int m = class_match(&q, *s);

			if (m == 0)
				return FNM_NOMATCH;
			if (m == 1) {
				p = q - 1;
				continue;
			}
		}
		if (*p != *s)
			return FNM_NOMATCH;
	}
	return *s ? FNM_NOMATCH : 0;
}
