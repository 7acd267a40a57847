/* fs.h on Linux: the root is an O_PATH descriptor; paths resolve under it
 * with openat2(RESOLVE_IN_ROOT), so a capture's absolute symlinks stay in
 * it. */
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
	/* Kernels before 5.6: relative resolution; absolute links may escape.
	 */
	fd = openat(fs->rootfd, path + 1, flags);
	return fd < 0 ? -errno : fd;
}

static int natural_cmp(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
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
			break; /* a hostile tree cannot make us allocate forever
				*/
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

void gd_fs_host_path(const gd_fs *fs, const char *path, char *buf, size_t cap)
{
	if (fs->is_slash)
		gd_strlcpy(buf, path, cap);
	else
		gd_fmt(buf, cap, "%s%s%s", fs->root,
		       gd_endswith(fs->root, "/") ? "" : "/",
		       path[0] == '/' ? path + 1 : path);
}
