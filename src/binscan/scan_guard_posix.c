/* The mapped walk of one file, guarded against the file shrinking under
 * the map (scan_fd.c).
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
#include <setjmp.h>
#include <signal.h>
#include <string.h>

#include "binscan.h"

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
	signal(sig,
	       SIG_DFL); /* not ours: the fault repeats and kills, as before */
}

int gd_bs_scan_guarded(const char *path, const uint8_t *b, size_t n, int fd,
		       const struct gd_bs_opts *o, gd_bs_files *out)
{
	struct sigaction sa, old;
	struct bus_guard g;
	volatile int rc = GD_BS_MAP_FAULT;

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
	return rc;
}
