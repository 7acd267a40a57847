/* One file of the scan: open, refuse what is not a regular file, map, and
 * survive the file shrinking under the map (scan_guard_posix.c says how and
 * why). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "binscan.h"

#define SIZE0_MAX (16u << 20) /* a size-0 (procfs) file read at most */

static int push_err(gd_bs_files *out, const char *path, const char *why,
		    const char *detail)
{
	struct gd_bs_file *f = gd_vec_push(out);

	if (!f)
		return -1;
	gd_strlcpy(f->path, path, sizeof f->path);
	gd_fmt(f->error, sizeof f->error, "%s%s%s", why, detail ? ": " : "",
	       detail ? detail : "");
	return 0;
}

/* The mapped walk, with a fault inside the map turned into an error entry
 * (the entries this file had produced so far are dropped). */
static int scan_guarded(const char *path, const uint8_t *b, size_t n, int fd,
			const struct gd_bs_opts *o, gd_bs_files *out)
{
	size_t before = out->n;
	int rc = gd_bs_scan_guarded(path, b, n, fd, o, out);

	if (rc != GD_BS_MAP_FAULT)
		return rc;
	while (out->n > before)
		gd_bs_file_free(&out->v[--out->n]);
	return push_err(out, path,
			"file changed while being read "
			"(truncated during the scan); scan it again",
			NULL);
}

/* A file whose stat says size 0: procfs and sysfs say so of files that do
 * hold bytes. Read it (bounded) instead of calling it empty. */
static int scan_size0(const char *path, int fd, const struct gd_bs_opts *o,
		      gd_bs_files *out)
{
	size_t n = 0, cap = 65536;
	uint8_t *b = malloc(cap), *nb;
	ssize_t r = 0;
	int rc;

	while (b && (r = read(fd, b + n, cap - n)) > 0) {
		n += (size_t)r;
		if (n == cap && cap >= SIZE0_MAX)
			break;
		if (n == cap && (nb = realloc(b, cap * 2))) {
			b = nb;
			cap *= 2;
		} else if (n == cap) {
			break;
		}
	}
	if (!b)
		return push_err(out, path, "out of memory", NULL);
	if (r < 0 && !n)
		rc = push_err(out, path, "cannot read", strerror(errno));
	else if (!n)
		rc = push_err(out, path, "empty file", NULL);
	else if (n >= SIZE0_MAX)
		rc = push_err(out, path,
			      "not a regular on-disk file (stat "
			      "says size 0, yet it holds more than 16 MiB)",
			      NULL);
	else
		rc = gd_bs_scan_mapped(path, b, n, -1, o, out);
	free(b);
	return rc;
}

int gd_bs_scan_fd(const char *path, int fd, uint64_t size,
		  const struct gd_bs_opts *o, gd_bs_files *out)
{
	void *map;
	int rc;

	if (size == 0)
		return scan_size0(path, fd, o, out);
	if (size > SIZE_MAX)
		return push_err(out, path, "cannot map", "file too large");
	map = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return push_err(out, path, "cannot map", strerror(errno));
	/* Only headers are read, scattered: no readahead, no fault-around of
	 * whole folios, so resident memory stays near the pages touched. */
	madvise(map, (size_t)size, MADV_RANDOM);
	rc = scan_guarded(path, map, (size_t)size, fd, o, out);
	munmap(map, (size_t)size);
	return rc;
}

static int known_magic(int fd)
{
	uint8_t m[4];

	if (pread(fd, m, 4, 0) != 4)
		return 0;
	return !memcmp(m, "\177ELF", 4) || !memcmp(m, "PK\3\4", 4) ||
	       (m[0] == 'M' && m[1] == 'Z') || !memcmp(m, "CCOB", 4) ||
	       !memcmp(m, "__CL", 4) ||
	       (m[0] == 0x50 && m[1] == 0xed && m[2] == 0x55 && m[3] == 0xba);
}

int gd_bs_scan_file(const char *path, int explicit_path,
		    const struct gd_bs_opts *o, gd_bs_files *out)
{
	struct stat st;
	int fd, rc, e;

	/* O_NONBLOCK: a FIFO or a device must not hold the scan */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    (!explicit_path && !known_magic(fd))) {
		e = errno;
		if (fd >= 0 && !fstat(fd, &st) && !S_ISREG(st.st_mode))
			e = ENODEV;
		if (fd >= 0)
			close(fd);
		if (!explicit_path && fd >= 0)
			return 0;
		return push_err(out, path, "cannot read",
				e == ENODEV ? "not a regular file"
					    : strerror(e));
	}
	rc = gd_bs_scan_fd(path, fd, (uint64_t)st.st_size, o, out);
	close(fd);
	return rc;
}
