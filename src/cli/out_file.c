#include "out_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The temporary name starts with a dot and does not end in .prom: node
 * exporter reads only *.prom and NFD skips dot files. It is made by
 * mkstemp (O_CREAT | O_EXCL, a random suffix): in a shared directory
 * nothing another user placed there (a FIFO that would block the open, a
 * file of theirs that would become the published one, a symlink) is ever
 * opened, and the name cannot be guessed beforehand. */
int gd_out_write_atomic(const char *dir, const char *name, const char *data,
			size_t len, char *err, size_t errlen)
{
	char tmp[4096], dst[4096];
	struct stat st;
	int fd, e;

	if ((size_t)snprintf(tmp, sizeof tmp, "%s/.%s.tmp.XXXXXX", dir, name) >=
		sizeof tmp ||
	    (size_t)snprintf(dst, sizeof dst, "%s/%s", dir, name) >=
		sizeof dst) {
		snprintf(err, errlen, "%s: path too long", dir);
		return -ENAMETOOLONG;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		e = errno;
		snprintf(err, errlen, "cannot create a file in %s: %s", dir,
			 strerror(e));
		return -e;
	}
#ifdef F_SETFD
	(void)fcntl(fd, F_SETFD, FD_CLOEXEC);
#endif
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) { /* never, but say */
		close(fd);
		unlink(tmp);
		snprintf(err, errlen, "%s: not a regular file", tmp);
		return -EINVAL;
	}
	/* 0644 whatever the umask: a 0600 file makes the series vanish when
	 * node_exporter runs as another user */
	if (fchmod(fd, 0644) < 0 || write_all(fd, data, len) < 0 ||
	    fsync(fd) < 0) {
		e = errno ? errno : EIO;
		close(fd);
		unlink(tmp);
		snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(e));
		return -e;
	}
	if (close(fd) < 0 || rename(tmp, dst) < 0) {
		e = errno;
		unlink(tmp);
		snprintf(err, errlen, "cannot write %s: %s", dst, strerror(e));
		return -e;
	}
	return 0;
}
