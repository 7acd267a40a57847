/* fs.h on Windows. Paths stay in the capture's spelling: "/fs/C/Windows/
 * System32/x.dll", "/registry/...", "/.gpudoctor/environ". Under a root
 * directory (a capture) they are joined to it; with root "/" (this machine)
 * "/fs" is the directory of drives, "/fs/<drive>/rest" is "<drive>:\rest"
 * and any other path (sysfs, procfs) does not exist. ".." never leaves the
 * root: it is refused.
 *
 * Links: in a capture, those of its .gpudoctor/links.tsv are resolved here,
 * inside the root (fs_links.h): the unpacked tree may hold none (tar.exe
 * without the right to make symlinks) or ones that cannot be read (Wine
 * shows a Unix symlink as a reparse point without a target). Otherwise
 * symlinks and junctions are read as reparse points, their targets given
 * in our spelling ("C:\x" is "/fs/C/x"). */
#include "fs.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>
#include <winioctl.h>

#include "fs_links.h"
#include "plat_win32.h"

#define LINKS_MAX (16u << 20)

/* The capture's links.tsv, read once; none is no error. */
static void load_links(gd_fs *fs, const wchar_t *root)
{
	size_t n = wcslen(root);
	wchar_t *p = malloc((n + 32) * sizeof *p);
	char *buf = NULL;
	FILE *f = NULL;
	size_t len = 0;

	if (p) {
		wcscpy(p, root);
		wcscat(p, L"\\.gpudoctor\\links.tsv");
		f = _wfopen(p, L"rb");
	}
	if (f && (buf = malloc(LINKS_MAX)))
		len = fread(buf, 1, LINKS_MAX, f);
	if (f)
		fclose(f);
	if (len)
		gd_fs_links_parse(buf, len, &fs->links);
	free(buf);
	free(p);
}

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
	if (a == INVALID_FILE_ATTRIBUTES || !(a & FILE_ATTRIBUTE_DIRECTORY)) {
		free(w);
		return a == INVALID_FILE_ATTRIBUTES
			   ? gd_w32_errno(GetLastError())
			   : -ENOTDIR;
	}
	load_links(fs, w);
	free(w);
	return 0;
}

void gd_fs_close(gd_fs *fs)
{
	fs->rootfd = -1;
	gd_fs_links_free(fs->links);
	fs->links = NULL;
}

static void note(const gd_fs *fs, const char *path, int kind)
{
	if (fs->hook)
		fs->hook(fs->hook_arg, path, kind);
}

/* The Windows path for one of ours; 0, -ENOENT (no such thing on this
 * machine), -EXDEV (".."), -ELOOP or -EINVAL. follow: whether a link as
 * the last component is followed (not for lstat and readlink). */
static int win_path_at(const gd_fs *fs, const char *path, int follow, char *buf,
		       size_t cap)
{
	char resolved[4096];
	const char *p;
	size_t n;
	int rc;

	if (!path || path[0] != '/')
		return -EINVAL;
	if (fs->links) {
		if ((rc = gd_fs_links_resolve(fs->links, path, follow, resolved,
					      sizeof resolved)) < 0)
			return rc;
		path = resolved; /* "..", links: resolved inside the root */
	}
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

static int win_path(const gd_fs *fs, const char *path, char *buf, size_t cap)
{
	return win_path_at(fs, path, 1, buf, cap);
}

/* "/fs" on this machine: the directory of drives. */
static int is_drives(const gd_fs *fs, const char *path)
{
	return fs->is_slash && (!strcmp(path, "/fs") || !strcmp(path, "/fs/"));
}

static wchar_t *wide_path_at(const gd_fs *fs, const char *path, int follow,
			     int *rc)
{
	char p[4096];
	wchar_t *w;

	*rc = win_path_at(fs, path, follow, p, sizeof p);
	if (*rc)
		return NULL;
	if (!(w = gd_w32_wide(p)))
		*rc = -EINVAL;
	return w;
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

static int list_drives(gd_strvec *out)
{
	DWORD m = GetLogicalDrives();

	for (int i = 0; i < 26; i++) {
		wchar_t d[2] = {(wchar_t)(L'A' + i), 0};

		if ((m >> i & 1) && push_name(out, d) < 0) {
			gd_strvec_free(out);
			return -ENOMEM;
		}
	}
	return 0;
}

static void add_one(void *arg, const char *name)
{
	gd_strvec *out = arg;
	char **slot;

	for (size_t i = 0; i < out->n; i++)
		if (!strcmp(out->v[i], name))
			return;
	if ((slot = gd_vec_push(out)) && !(*slot = strdup(name)))
		out->n--;
}

/* The capture's links in this directory, listed or not (Wine leaves out a
 * link whose target is not on this machine). */
static void add_listed_links(const gd_fs *fs, const char *path, gd_strvec *out)
{
	char r[4096];

	if (fs->links &&
	    gd_fs_links_resolve(fs->links, path, 1, r, sizeof r) == 0)
		gd_fs_links_each_in(fs->links, r, add_one, out);
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
	if (is_drives(fs, path))
		return list_drives(out);
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
	add_listed_links(fs, path, out);
	if (out->n)
		qsort(out->v, out->n, sizeof *out->v, natural_cmp);
	return 0;
}

/* REPARSE_DATA_BUFFER (docs/windows.md §S): tag, lengths, then for a symlink
 * (IO_REPARSE_TAG_SYMLINK) SubstituteName/PrintName offsets and lengths and
 * Flags (1: relative) before the names; for a junction
 * (IO_REPARSE_TAG_MOUNT_POINT) the same without Flags. */
#define TAG_SYMLINK 0xA000000Cu
#define TAG_MOUNT_POINT 0xA0000003u

static int reparse_target(const wchar_t *w, char *buf, size_t cap)
{
	static BYTE rb[16 * 1024];
	DWORD got = 0, tag;
	HANDLE h = CreateFileW(
	    w, 0, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING,
	    FILE_FLAG_OPEN_REPARSE_POINT | FILE_FLAG_BACKUP_SEMANTICS, NULL);
	USHORT so, sl, po, pl;
	const BYTE *names;
	char t[4096];

	if (h == INVALID_HANDLE_VALUE)
		return gd_w32_errno(GetLastError());
	if (!DeviceIoControl(h, FSCTL_GET_REPARSE_POINT, NULL, 0, rb, sizeof rb,
			     &got, NULL) ||
	    got < 16) {
		CloseHandle(h);
		return -EINVAL; /* not a link, or one we cannot read (Wine) */
	}
	CloseHandle(h);
	memcpy(&tag, rb, 4);
	if (tag != TAG_SYMLINK && tag != TAG_MOUNT_POINT)
		return -EINVAL;
	memcpy(&so, rb + 8, 2), memcpy(&sl, rb + 10, 2);
	memcpy(&po, rb + 12, 2), memcpy(&pl, rb + 14, 2);
	names = rb + (tag == TAG_SYMLINK ? 20 : 16);
	if (!pl) /* no PrintName: the NT name ("\??\C:\x") */
		po = so, pl = sl;
	if (names + po + pl > rb + got || pl / 2 >= 2048)
		return -EINVAL;
	{
		wchar_t wn[2048];

		memcpy(wn, names + po, pl);
		wn[pl / 2] = 0;
		if (gd_w32_utf8(wcsncmp(wn, L"\\??\\", 4) ? wn : wn + 4, t,
				sizeof t))
			return -ENAMETOOLONG;
	}
	for (char *q = t; *q; q++)
		if (*q == '\\')
			*q = '/';
	/* "C:/x" is /fs/C/x in our spelling; relative stays relative */
	if (isalpha((unsigned char)t[0]) && t[1] == ':')
		gd_fmt(buf, cap, "/fs/%c%s", toupper((unsigned char)t[0]),
		       t + 2);
	else
		gd_strlcpy(buf, t, cap);
	return 0;
}

/* The target of a link of links.tsv at path (the links on the way there
 * resolved), or NULL. */
static const char *listed_link(const gd_fs *fs, const char *path)
{
	char r[4096];

	if (!fs->links ||
	    gd_fs_links_resolve(fs->links, path, 0, r, sizeof r) < 0)
		return NULL;
	return gd_fs_links_get(fs->links, r);
}

int gd_fs_readlink(const gd_fs *fs, const char *path, char *buf, size_t cap)
{
	const char *t = NULL;
	wchar_t *w;
	int rc;

	note(fs, path, 'l');
	if (cap)
		buf[0] = '\0';
	if ((t = listed_link(fs, path))) {
		gd_strlcpy(buf, t, cap);
		return 0;
	}
	if (!(w = wide_path_at(fs, path, 0, &rc)))
		return rc;
	rc = reparse_target(w, buf, cap);
	if (rc == -EINVAL && GetFileAttributesW(w) == INVALID_FILE_ATTRIBUTES)
		rc = -ENOENT;
	free(w);
	return rc;
}

static int stat_w(const wchar_t *w, struct stat *st)
{
	struct _stat64 s;

	if (_wstat64(w, &s) < 0)
		return -errno;
	memset(st, 0, sizeof *st);
	st->st_mode = s.st_mode;
	st->st_size = s.st_size;
	st->st_mtime = s.st_mtime;
	return 0;
}

int gd_fs_stat(const gd_fs *fs, const char *path, struct stat *st)
{
	int rc;
	wchar_t *w;

	note(fs, path, 's');
	if (is_drives(fs, path)) {
		memset(st, 0, sizeof *st);
		st->st_mode = S_IFDIR | 0555;
		return 0;
	}
	if (!(w = wide_path(fs, path, &rc)))
		return rc;
	rc = stat_w(w, st);
	free(w);
	return rc;
}

/* A link is S_IFLNK: one of links.tsv, or (no list) a reparse point whose
 * target can be read; anything else as stat. */
int gd_fs_lstat(const gd_fs *fs, const char *path, struct stat *st)
{
	char t[8];
	wchar_t *w;
	DWORD a;
	int rc;

	if (listed_link(fs, path)) {
		note(fs, path, 's');
		memset(st, 0, sizeof *st);
		st->st_mode = S_IFLNK | 0777;
		return 0;
	}
	if (fs->links || is_drives(fs, path))
		return gd_fs_stat(fs, path, st);
	if (!(w = wide_path_at(fs, path, 0, &rc)))
		return rc;
	a = GetFileAttributesW(w);
	if (a != INVALID_FILE_ATTRIBUTES &&
	    (a & FILE_ATTRIBUTE_REPARSE_POINT) &&
	    reparse_target(w, t, sizeof t) != -EINVAL) {
		note(fs, path, 's');
		memset(st, 0, sizeof *st);
		st->st_mode = S_IFLNK | 0777;
		free(w);
		return 0;
	}
	free(w);
	return gd_fs_stat(fs, path, st);
}

void gd_fs_host_path(const gd_fs *fs, const char *path, char *buf, size_t cap)
{
	if (win_path(fs, path, buf, cap))
		gd_strlcpy(buf, path, cap);
}
