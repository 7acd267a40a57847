#include "fs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int gd_fs_init(gd_fs *fs, const char *root)
{
	int fd;

	memset(fs, 0, sizeof *fs);
	fs->rootfd = -1;
	if (!root || !*root)
		root = "/";
	if (gd_strlcpy(fs->root, root, sizeof fs->root) >= sizeof fs->root)
		return -ENAMETOOLONG;
	fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	fs->is_slash = strcmp(root, "/") == 0;
	/* O_PATH opens a directory we may not read: every read under it would
	 * then fail and the machine would look like one without a GPU. */
	if (!fs->is_slash && faccessat(fd, ".", R_OK | X_OK, AT_EACCESS) < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	fs->rootfd = fd;
	return 0;
}

void gd_fs_close(gd_fs *fs)
{
	if (fs->rootfd >= 0)
		close(fs->rootfd);
	fs->rootfd = -1;
}

static void note(const gd_fs *fs, const char *path, int kind)
{
	if (fs->hook)
		fs->hook(fs->hook_arg, path, kind);
}

int gd_fs_open(const gd_fs *fs, const char *path, int flags)
{
	int fd;

	if (!path || path[0] != '/')
		return -EINVAL;
	flags |= O_CLOEXEC;
	if (fs->is_slash) {
		fd = open(path, flags);
		return fd < 0 ? -errno : fd;
	}
	{
		struct open_how how;

		memset(&how, 0, sizeof how);
		how.flags = (unsigned long long)flags;
		how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;
		fd = (int)syscall(SYS_openat2, fs->rootfd, path + 1, &how,
				  sizeof how);
		if (fd >= 0)
			return fd;
		if (errno != ENOSYS)
			return -errno;
	}
	/* Kernels before 5.6: relative resolution; absolute links may escape. */
	fd = openat(fs->rootfd, path + 1, flags);
	return fd < 0 ? -errno : fd;
}

static int read_fd(int fd, char *buf, size_t cap, size_t *len)
{
	long got = gd_read_full(fd, buf, cap - 1);

	if (got < 0) {
		buf[0] = '\0';
		return (int)got;
	}
	buf[got] = '\0';
	if (len)
		*len = (size_t)got;
	if ((size_t)got + 1 >= cap) {
		char extra;

		if (read(fd, &extra, 1) > 0)
			return -EFBIG;
	}
	return 0;
}

static int open_regular(const gd_fs *fs, const char *path)
{
	struct stat st;
	int fd = gd_fs_open(fs, path, O_RDONLY | O_NONBLOCK | O_NOCTTY);

	note(fs, path, 'f');
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -ENODEV;
	}
	return fd;
}

int gd_fs_read(const gd_fs *fs, const char *path, char *buf, size_t cap,
	       size_t *len)
{
	int fd, rc;

	if (len)
		*len = 0;
	if (cap)
		buf[0] = '\0';
	if (cap < 2)
		return -EINVAL;
	fd = open_regular(fs, path);
	if (fd < 0)
		return fd;
	rc = read_fd(fd, buf, cap, len);
	close(fd);
	return rc;
}

int gd_fs_read_alloc(const gd_fs *fs, const char *path, size_t max,
		     char **out, size_t *len)
{
	struct stat st;
	size_t cap;
	char *buf;
	int fd, rc;

	*out = NULL;
	if (len)
		*len = 0;
	fd = open_regular(fs, path);
	if (fd < 0)
		return fd;
	/* sysfs reports 4096 and procfs 0 whatever the content: size only
	 * as a hint, the read itself is what is bounded. */
	cap = 4096;
	if (fstat(fd, &st) == 0 && st.st_size > 0 &&
	    (unsigned long long)st.st_size < max)
		cap = (size_t)st.st_size + 2;
	if (cap > max + 1)
		cap = max + 1;
	for (;;) {
		buf = malloc(cap);
		if (!buf) {
			close(fd);
			return -ENOMEM;
		}
		if (lseek(fd, 0, SEEK_SET) < 0 && cap != 4096) {
			free(buf);
			close(fd);
			return -errno;
		}
		rc = read_fd(fd, buf, cap, len);
		if (rc != -EFBIG || cap > max) {
			break;
		}
		free(buf);
		cap = cap * 4 > max + 1 ? max + 1 : cap * 4;
	}
	close(fd);
	if (rc < 0 && rc != -EFBIG) {
		free(buf);
		return rc;
	}
	*out = buf;
	return rc;
}

int gd_fs_read_line(const gd_fs *fs, const char *path, char *buf, size_t cap)
{
	char tmp[4096];
	char *nl, *t;
	int rc = gd_fs_read(fs, path, tmp, sizeof tmp, NULL);

	if (rc < 0 && rc != -EFBIG) {
		if (cap)
			buf[0] = '\0';
		return rc;
	}
	nl = strchr(tmp, '\n');
	if (nl)
		*nl = '\0';
	t = gd_trim(tmp);
	gd_sanitize(t);
	gd_strlcpy(buf, t, cap);
	return 0;
}

static int natural_cmp(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

void gd_strvec_free(gd_strvec *v)
{
	for (size_t i = 0; i < v->n; i++)
		free(v->v[i]);
	gd_vec_free(v);
}

int gd_fs_list(const gd_fs *fs, const char *path, gd_strvec *out)
{
	DIR *d;
	struct dirent *de;
	int fd = gd_fs_open(fs, path, O_RDONLY | O_DIRECTORY);

	note(fs, path, 'd');
	memset(out, 0, sizeof *out);
	if (fd < 0)
		return fd;
	d = fdopendir(fd);
	if (!d) {
		int e = errno;

		close(fd);
		return -e;
	}
	while ((de = readdir(d))) {
		char **slot;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (out->n >= 100000)
			break; /* a hostile tree cannot make us allocate forever */
		slot = gd_vec_push(out);
		if (!slot || !(*slot = strdup(de->d_name))) {
			if (slot)
				out->n--;
			closedir(d);
			gd_strvec_free(out);
			return -ENOMEM;
		}
	}
	closedir(d);
	if (out->n)
		qsort(out->v, out->n, sizeof *out->v, natural_cmp);
	return 0;
}

int gd_fs_readlink(const gd_fs *fs, const char *path, char *buf, size_t cap)
{
	ssize_t r;
	int fd = gd_fs_open(fs, path, O_PATH | O_NOFOLLOW);

	note(fs, path, 'l');
	if (cap)
		buf[0] = '\0';
	if (fd < 0)
		return fd;
	r = readlinkat(fd, "", buf, cap ? cap - 1 : 0);
	if (r < 0) {
		int e = errno;

		close(fd);
		return e == ENOENT ? -EINVAL : -e; /* not a link */
	}
	buf[r] = '\0';
	close(fd);
	return 0;
}

static int stat_flags(const gd_fs *fs, const char *path, struct stat *st,
		      int nofollow)
{
	int fd = gd_fs_open(fs, path, O_PATH | (nofollow ? O_NOFOLLOW : 0));
	int rc = 0;

	note(fs, path, 's');
	if (fd < 0)
		return fd;
	if (fstat(fd, st) < 0)
		rc = -errno;
	close(fd);
	return rc;
}

int gd_fs_stat(const gd_fs *fs, const char *path, struct stat *st)
{
	return stat_flags(fs, path, st, 0);
}

int gd_fs_lstat(const gd_fs *fs, const char *path, struct stat *st)
{
	return stat_flags(fs, path, st, 1);
}

int gd_fs_exists(const gd_fs *fs, const char *path)
{
	struct stat st;

	return gd_fs_stat(fs, path, &st) == 0;
}

void gd_fs_host_path(const gd_fs *fs, const char *path, char *buf, size_t cap)
{
	if (fs->is_slash)
		gd_strlcpy(buf, path, cap);
	else
		gd_fmt(buf, cap, "%s%s%s", fs->root,
		       gd_endswith(fs->root, "/") ? "" : "/",
		       path[0] == '/' ? path + 1 : path);
}

const char *gd_fs_strerror(int rc)
{
	switch (-rc) {
	case ENODEV:
		return "not a regular file";
	case EFBIG:
		return "file larger than the size limit";
	case ELOOP:
		return "too many levels of symbolic links";
	case EXDEV:
		return "path leaves the root";
	default:
		return strerror(-rc);
	}
}
