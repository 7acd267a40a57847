#include "out_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
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
 * exporter reads only *.prom and NFD skips dot files. */
int gd_out_write_atomic(const char *dir, const char *name, const char *data,
			size_t len, char *err, size_t errlen)
{
	char tmp[4096], dst[4096];
	int fd, e;

	if ((size_t)snprintf(tmp, sizeof tmp, "%s/.%s.tmp.%ld", dir, name,
			     (long)getpid()) >= sizeof tmp ||
	    (size_t)snprintf(dst, sizeof dst, "%s/%s", dir, name) >=
		sizeof dst) {
		snprintf(err, errlen, "%s: path too long", dir);
		return -ENAMETOOLONG;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
		  0644);
	if (fd < 0) {
		e = errno;
		snprintf(err, errlen, "cannot create %s: %s", tmp, strerror(e));
		return -e;
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
