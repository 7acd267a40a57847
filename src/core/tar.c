#include "tar.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "util.h"

struct gd_tar {
	gzFile gz;
	int fd;	    /* the temporary file, kept open for fsync */
	int err_no; /* first write error (0: none, -1: no errno) */
	long long mtime;
	int force;
	char *path, *tmp;
};

static const char zero[1024];

static const char *kind_of(mode_t m)
{
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "a device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

/* What is at the destination now decides whether it may be replaced; the
 * destination itself is never opened. */
static int check_dest(const char *path, int force, char *err, size_t errlen)
{
	struct stat st;

	if (lstat(path, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		gd_fmt(err, errlen, "cannot write %s: %s", path,
		       strerror(errno));
		return -1;
	}
	if (S_ISLNK(st.st_mode)) {
		gd_fmt(err, errlen,
		       "%s is a symbolic link; not writing through "
		       "it (name the file itself)",
		       path);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		gd_fmt(err, errlen, "%s is %s, not a regular file; not written",
		       path, kind_of(st.st_mode));
		return -1;
	}
	if (!force) {
		gd_fmt(err, errlen, "%s exists (use --force to replace it)",
		       path);
		return -1;
	}
	return 0;
}

static void tar_free(gd_tar *t)
{
	free(t->path);
	free(t->tmp);
	free(t);
}

gd_tar *gd_tar_open(const char *path, const struct gd_tar_opts *o, char *err,
		    size_t errlen)
{
	gd_tar *t;
	mode_t um;
	int fd2;

	if (check_dest(path, o->force, err, errlen) < 0)
		return NULL;
	t = calloc(1, sizeof *t);
	if (!t || !(t->path = strdup(path)) ||
	    !(t->tmp = malloc(strlen(path) + sizeof ".tmp.XXXXXX"))) {
		gd_fmt(err, errlen, "out of memory");
		if (t)
			tar_free(t);
		return NULL;
	}
	sprintf(t->tmp, "%s.tmp.XXXXXX", path);
	t->fd = mkstemp(t->tmp);
	if (t->fd < 0) {
		gd_fmt(err, errlen, "cannot create a file next to %s: %s", path,
		       strerror(errno));
		tar_free(t);
		return NULL;
	}
	um = umask(0); /* mkstemp gives 0600; a plain file honours umask */
	umask(um);
	(void)fchmod(t->fd, 0666 & ~um);
	fd2 = dup(t->fd); /* gzclose closes this one; fsync needs the other */
	t->gz = fd2 < 0 ? NULL : gzdopen(fd2, "wb9");
	if (!t->gz) {
		gd_fmt(err, errlen, "cannot write %s: %s", t->tmp,
		       strerror(errno));
		if (fd2 >= 0)
			close(fd2);
		gd_tar_abort(t);
		return NULL;
	}
	t->mtime = o->mtime;
	t->force = o->force;
	return t;
}

static void put(gd_tar *t, const void *p, size_t n)
{
	int e;

	if (t->err_no || !n)
		return;
	if (gzwrite(t->gz, p, (unsigned)n) != (int)n) {
		gzerror(t->gz, &e);
		t->err_no = e == Z_ERRNO && errno ? errno : -1;
	}
}

static void pad(gd_tar *t, size_t len)
{
	if (len % 512)
		put(t, zero, 512 - len % 512);
}

static void octal(char *field, size_t width, unsigned long long v)
{
	char tmp[32];

	gd_fmt(tmp, sizeof tmp, "%0*llo", (int)width - 1, v);
	memcpy(field, tmp, width - 1);
	field[width - 1] = '\0';
}

/* One 512-byte ustar header; name and link are cut to their fields. */
static void raw_header(gd_tar *t, const char *name, char type, mode_t mode,
		       size_t size, const char *link)
{
	unsigned char h[512];
	size_t len = strlen(name);
	const char *cut = NULL;
	unsigned sum = 0;

	memset(h, 0, sizeof h);
	/* ustar prefix: split at a '/' so name <= 100, prefix <= 155 */
	for (const char *p = name; len > 100 && *p; p++)
		if (*p == '/' && (size_t)(p - name) <= 155 &&
		    len - (size_t)(p - name) - 1 <= 100)
			cut = p;
	if (cut) {
		memcpy(h + 345, name, (size_t)(cut - name));
		memcpy(h, cut + 1, strlen(cut + 1));
	} else {
		memcpy(h, name, len < 100 ? len : 100);
	}
	octal((char *)h + 100, 8, (unsigned long long)(mode & 07777));
	octal((char *)h + 108, 8, 0);
	octal((char *)h + 116, 8, 0);
	octal((char *)h + 124, 12, (unsigned long long)size);
	octal((char *)h + 136, 12, (unsigned long long)t->mtime);
	h[156] = (unsigned char)type;
	if (link)
		memcpy(h + 157, link, strnlen(link, 100));
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	memset(h + 148, ' ', 8);
	for (size_t i = 0; i < 512; i++)
		sum += h[i];
	gd_fmt((char *)h + 148, 8, "%06o", sum);
	h[155] = ' ';
	put(t, h, sizeof h);
}

static int name_fits(const char *name)
{
	size_t len = strlen(name);

	if (len <= 100)
		return 1;
	for (const char *p = name; *p; p++)
		if (*p == '/' && (size_t)(p - name) <= 155 &&
		    len - (size_t)(p - name) - 1 <= 100)
			return 1;
	return 0;
}

/* One pax record, "LEN key=value\n", where LEN counts its own digits. */
static size_t pax_record(char *out, size_t cap, const char *key,
			 const char *val)
{
	size_t base = strlen(key) + strlen(val) + 3, n = base, d;

	do {
		d = (size_t)snprintf(NULL, 0, "%zu", n);
		n = base + d;
	} while ((size_t)snprintf(NULL, 0, "%zu", n) != d);
	if (out && n < cap)
		sprintf(out, "%zu %s=%s\n", n, key, val);
	return n;
}

static void header(gd_tar *t, const char *name, char type, mode_t mode,
		   size_t size, const char *link)
{
	int long_name = !name_fits(name);
	int long_link = link && strlen(link) > 100;
	size_t n = 0, cap;
	char *rec;

	if (!long_name && !long_link) {
		raw_header(t, name, type, mode, size, link);
		return;
	}
	cap = (long_name ? pax_record(NULL, 0, "path", name) : 0) +
	      (long_link ? pax_record(NULL, 0, "linkpath", link) : 0) + 1;
	rec = malloc(cap);
	if (!rec) {
		t->err_no = ENOMEM;
		return;
	}
	if (long_name)
		n += pax_record(rec + n, cap - n, "path", name);
	if (long_link)
		n += pax_record(rec + n, cap - n, "linkpath", link);
	raw_header(t, "././@PaxHeader", 'x', 0644, n, NULL);
	put(t, rec, n);
	pad(t, n);
	free(rec);
	raw_header(t, name, type, mode, size, link);
}

int gd_tar_add_dir(gd_tar *t, const char *name, mode_t mode)
{
	size_t len = strlen(name);
	char *n = malloc(len + 2);

	if (!n) {
		t->err_no = ENOMEM;
		return -1;
	}
	memcpy(n, name, len);
	memcpy(n + len, "/", 2);
	header(t, n, '5', mode, 0, NULL);
	free(n);
	return t->err_no ? -1 : 0;
}

int gd_tar_add_file(gd_tar *t, const char *name, mode_t mode, const void *data,
		    size_t len)
{
	header(t, name, '0', mode, len, NULL);
	put(t, data, len);
	pad(t, len);
	return t->err_no ? -1 : 0;
}

int gd_tar_add_symlink(gd_tar *t, const char *name, const char *target)
{
	header(t, name, '2', 0777, 0, target);
	return t->err_no ? -1 : 0;
}

static const char *why(int e)
{
	return e > 0 ? strerror(e) : "compression failed";
}

/* Into place: without --force a file that appeared meanwhile is kept. */
static int commit(gd_tar *t)
{
#ifdef RENAME_NOREPLACE
	if (!t->force) {
		if (renameat2(AT_FDCWD, t->tmp, AT_FDCWD, t->path,
			      RENAME_NOREPLACE) == 0)
			return 0;
		if (errno != EINVAL && errno != ENOSYS)
			return -1;
	}
#endif
	return rename(t->tmp, t->path);
}

/* The rename itself survives a crash once the directory is synced. */
static void sync_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];
	int fd;

	if (!slash)
		gd_strlcpy(dir, ".", sizeof dir);
	else
		gd_fmt(dir, sizeof dir, "%.*s", (int)(slash - path + 1), path);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
}

int gd_tar_close(gd_tar *t, char *err, size_t errlen)
{
	int e;

	put(t, zero, sizeof zero);
	e = t->err_no;
	errno = 0;
	if (gzclose(t->gz) != Z_OK && !e)
		e = errno ? errno : -1;
	t->gz = NULL;
	if (!e && fsync(t->fd) < 0)
		e = errno;
	if (close(t->fd) < 0 && !e)
		e = errno;
	t->fd = -1;
	if (e) {
		gd_fmt(err, errlen, "writing %s failed: %s; %s left as it was",
		       t->path, why(e), t->path);
		gd_tar_abort(t);
		return -1;
	}
	if (commit(t) < 0) {
		gd_fmt(err, errlen, "cannot put the archive at %s: %s%s",
		       t->path, strerror(errno),
		       errno == EEXIST ? " (use --force to replace it)" : "");
		gd_tar_abort(t);
		return -1;
	}
	sync_dir(t->path);
	tar_free(t);
	return 0;
}

void gd_tar_abort(gd_tar *t)
{
	if (!t)
		return;
	if (t->gz)
		gzclose(t->gz);
	if (t->fd >= 0)
		close(t->fd);
	unlink(t->tmp);
	tar_free(t);
}
