/* fs.h on Windows. Paths stay in the capture's spelling: "/fs/C/Windows/
 * System32/x.dll", "/registry/...", "/.gpudoctor/environ". Under a root
 * directory (a capture) they are joined to it; with root "/" (this machine)
 * "/fs/<drive>/rest" is "<drive>:\rest" and any other path (sysfs, procfs)
 * does not exist. ".." never leaves the root: it is refused. */
#include "fs.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "plat_win32.h"

int gd_fs_init(gd_fs *fs, const char *root)
{
	wchar_t *w;
	DWORD a;

	memset(fs, 0, sizeof *fs);
	fs->rootfd = -1;
	if (!root || !*root)
		root = "/";
	if (gd_strlcpy(fs->root, root, sizeof fs->root) >= sizeof fs->root)
		return -ENAMETOOLONG;
	fs->is_slash = strcmp(root, "/") == 0 || strcmp(root, "\\") == 0;
	if (fs->is_slash)
		return 0;
	if (!(w = gd_w32_wide(root)))
		return -EINVAL;
	a = GetFileAttributesW(w);
	free(w);
	if (a == INVALID_FILE_ATTRIBUTES)
		return gd_w32_errno(GetLastError());
	return a & FILE_ATTRIBUTE_DIRECTORY ? 0 : -ENOTDIR;
}

void gd_fs_close(gd_fs *fs)
{
	fs->rootfd = -1;
}

static void note(const gd_fs *fs, const char *path, int kind)
{
	if (fs->hook)
		fs->hook(fs->hook_arg, path, kind);
}

/* The Windows path for one of ours; 0, -ENOENT (no such thing on this
 * machine), -EXDEV ("..") or -EINVAL. */
static int win_path(const gd_fs *fs, const char *path, char *buf, size_t cap)
{
	const char *p;
	size_t n;

	if (!path || path[0] != '/')
		return -EINVAL;
	for (p = path; (p = strstr(p, "..")); p += 2)
		if ((p[-1] == '/' || p[-1] == '\\') &&
		    (!p[2] || p[2] == '/' || p[2] == '\\'))
			return -EXDEV;
	if (!fs->is_slash) {
		n = gd_strlcpy(buf, fs->root, cap);
		while (n && (buf[n - 1] == '/' || buf[n - 1] == '\\'))
			buf[--n] = '\0';
		gd_strlcpy(buf + n, path, cap - n);
	} else {
		if (strncmp(path, "/fs/", 4) ||
		    !isalpha((unsigned char)path[4]) ||
		    (path[5] && path[5] != '/'))
			return -ENOENT;
		gd_fmt(buf, cap, "%c:%s", path[4], path[5] ? path + 5 : "/");
	}
	for (char *q = buf; *q; q++)
		if (*q == '/')
			*q = '\\';
	return 0;
}

static wchar_t *wide_path(const gd_fs *fs, const char *path, int *rc)
{
	char p[4096];
	wchar_t *w;

	*rc = win_path(fs, path, p, sizeof p);
	if (*rc)
		return NULL;
	if (!(w = gd_w32_wide(p)))
		*rc = -EINVAL;
	return w;
}

int gd_fs_open(const gd_fs *fs, const char *path, int flags)
{
	int rc, fd;
	wchar_t *w = wide_path(fs, path, &rc);

	if (!w)
		return rc;
	fd = _wopen(w, (flags & (O_RDONLY | O_WRONLY | O_RDWR)) | O_BINARY |
			   _O_NOINHERIT);
	rc = fd < 0 ? -errno : fd;
	free(w);
	return rc;
}

/* Natural order ("2" before "10"), as strverscmp gives on Linux. */
static int natural_cmp(const void *pa, const void *pb)
{
	const unsigned char *a = *(unsigned char *const *)pa;
	const unsigned char *b = *(unsigned char *const *)pb;

	while (*a && *b) {
		if (isdigit(*a) && isdigit(*b)) {
			const unsigned char *ea = a, *eb = b;

			while (*a == '0' && isdigit(a[1]))
				a++;
			while (*b == '0' && isdigit(b[1]))
				b++;
			for (ea = a; isdigit(*ea); ea++)
				;
			for (eb = b; isdigit(*eb); eb++)
				;
			if (ea - a != eb - b)
				return (ea - a) < (eb - b) ? -1 : 1;
			for (; a < ea; a++, b++)
				if (*a != *b)
					return *a < *b ? -1 : 1;
			continue;
		}
		if (*a != *b)
			return *a < *b ? -1 : 1;
		a++;
		b++;
	}
	return (*a > *b) - (*a < *b);
}

static int push_name(gd_strvec *out, const wchar_t *name)
{
	char **slot = gd_vec_push(out);

	if (!slot || !(*slot = gd_w32_utf8_dup(name, -1))) {
		if (slot)
			out->n--;
		return -ENOMEM;
	}
	return 0;
}

int gd_fs_list(const gd_fs *fs, const char *path, gd_strvec *out)
{
	char p[4096];
	WIN32_FIND_DATAW fd;
	wchar_t *w;
	HANDLE h;
	int rc = win_path(fs, path, p, sizeof p);

	note(fs, path, 'd');
	memset(out, 0, sizeof *out);
	if (rc)
		return rc;
	gd_strlcpy(p + strlen(p), "\\*", sizeof p - strlen(p));
	if (!(w = gd_w32_wide(p)))
		return -EINVAL;
	h = FindFirstFileW(w, &fd);
	free(w);
	if (h == INVALID_HANDLE_VALUE)
		return gd_w32_errno(GetLastError());
	do {
		if (!wcscmp(fd.cFileName, L".") || !wcscmp(fd.cFileName, L".."))
			continue;
		if (out->n >= 100000)
			break; /* a hostile tree cannot make us allocate forever
				*/
		if ((rc = push_name(out, fd.cFileName)) < 0) {
			FindClose(h);
			gd_strvec_free(out);
			return rc;
		}
	} while (FindNextFileW(h, &fd));
	FindClose(h);
	if (out->n)
		qsort(out->v, out->n, sizeof *out->v, natural_cmp);
	return 0;
}

int gd_fs_readlink(const gd_fs *fs, const char *path, char *buf, size_t cap)
{
	note(fs, path, 'l');
	if (cap)
		buf[0] = '\0';
	return gd_fs_exists(fs, path) ? -EINVAL : -ENOENT; /* not a link */
}

int gd_fs_stat(const gd_fs *fs, const char *path, struct stat *st)
{
	struct _stat64 s;
	int rc;
	wchar_t *w = wide_path(fs, path, &rc);

	note(fs, path, 's');
	if (!w)
		return rc;
	rc = _wstat64(w, &s) < 0 ? -errno : 0;
	free(w);
	if (rc)
		return rc;
	memset(st, 0, sizeof *st);
	st->st_mode = s.st_mode;
	st->st_size = s.st_size;
	st->st_mtime = s.st_mtime;
	return 0;
}

int gd_fs_lstat(const gd_fs *fs, const char *path, struct stat *st)
{
	return gd_fs_stat(fs, path, st);
}

void gd_fs_host_path(const gd_fs *fs, const char *path, char *buf, size_t cap)
{
	if (win_path(fs, path, buf, cap))
		gd_strlcpy(buf, path, cap);
}
