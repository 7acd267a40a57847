/* One file of the scan: open, refuse what is not a regular file, map, and
 * survive the file shrinking under the map.
 *
 * Why SIGBUS is caught rather than the file read into memory: scanned
 * libraries are large (libtorch_cuda.so 456 MB, libtorch_hip.so > 1 GB) and
 * only their headers and a few sections are touched, so a copy would cost
 * gigabytes of memory or I/O on every scan. A mapped file that is truncated
 * meanwhile (`cp new old` truncates in place; pip rewriting a wheel) raises
 * SIGBUS on the next touch of a page past its new end. The parsers only
 * read, so jumping out of them loses nothing but the temporary buffers of
 * that one file; the handler takes only faults inside the map being
 * parsed (si_addr), anything else still kills the process as before. The
 * map is private to the calling thread's scan; scans do not run in
 * parallel threads (the handler is process-wide, the target thread-local). */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "binscan.h"

#define SIZE0_MAX (16u << 20) /* a size-0 (procfs) file read at most */

struct bus_guard {
	sigjmp_buf jb;
	const uint8_t *lo, *hi;
};

static _Thread_local struct bus_guard *volatile bus_cur;

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	struct bus_guard *g = bus_cur;
	const uint8_t *a = si ? (const uint8_t *)si->si_addr : NULL;

	(void)uc;
	if (g && a >= g->lo && a < g->hi) {
		bus_cur = NULL;
		siglongjmp(g->jb, 1);
	}
	signal(sig, SIG_DFL); /* not ours: the fault repeats and kills, as before */
}

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

/* The mapped walk, with SIGBUS inside the map turned into an error entry
 * (the entries this file had produced so far are dropped). */
static int scan_guarded(const char *path, const uint8_t *b, size_t n, int fd,
			const struct gd_bs_opts *o, gd_bs_files *out)
{
	struct sigaction sa, old;
	struct bus_guard g;
	size_t before = out->n;
	volatile int rc = -2;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	g.lo = b;
	g.hi = b + n;
	sigaction(SIGBUS, &sa, &old);
	if (sigsetjmp(g.jb, 1) == 0) {
		bus_cur = &g;
		rc = gd_bs_scan_mapped(path, b, n, fd, o, out);
	}
	bus_cur = NULL;
	sigaction(SIGBUS, &old, NULL);
	if (rc != -2)
		return rc;
	while (out->n > before)
		gd_bs_file_free(&out->v[--out->n]);
	return push_err(out, path, "file changed while being read "
			"(truncated during the scan); scan it again", NULL);
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
		rc = push_err(out, path, "not a regular on-disk file (stat "
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
	       (m[0] == 'M' && m[1] == 'Z') ||
	       !memcmp(m, "CCOB", 4) || !memcmp(m, "__CL", 4) ||
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
