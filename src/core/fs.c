/* The OS-neutral half of fs.h: bounded reads of regular files through the
 * descriptors fs_posix.c / fs_win32.c open under the root. */
#include "fs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void note(const gd_fs *fs, const char *path, int kind)
{
	if (fs->hook)
		fs->hook(fs->hook_arg, path, kind);
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

int gd_fs_read_alloc(const gd_fs *fs, const char *path, size_t max, char **out,
		     size_t *len)
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
	/* a first line longer than tmp or buf: an error, never a value cut
	 * short (a version "6.2" out of "6.2.41134...") */
	if ((!nl && rc == -EFBIG) || gd_strlcpy(buf, t, cap) >= cap) {
		if (cap)
			buf[0] = '\0';
		return -EOVERFLOW;
	}
	return 0;
}

void gd_strvec_free(gd_strvec *v)
{
	for (size_t i = 0; i < v->n; i++)
		free(v->v[i]);
	gd_vec_free(v);
}

int gd_fs_exists(const gd_fs *fs, const char *path)
{
	struct stat st;

	return gd_fs_stat(fs, path, &st) == 0;
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
	case EOVERFLOW:
		return "its line is longer than gpudoctor reads";
	default:
		return strerror(-rc);
	}
}
