/* scan against files that change or lie: a library truncated while it is
 * mapped (SIGBUS, D3 of the reliability findings), procfs files that say
 * size 0 yet hold bytes (D11), an empty file. The library is the real HIP
 * fixture (tests/fixtures/binscan/README.md). */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "binscan/binscan.h"
#include "core/util.h"
#include "t.h"

static const struct gd_bs_opts opts = GD_BS_OPTS_DEFAULT;

static int copy_fixture(const char *to)
{
	const char *src = getenv("GD_SRCDIR");
	char from[4096], buf[65536];
	int in, out, ok = 1;
	ssize_t n;

	gd_fmt(from, sizeof from,
	       "%s/tests/fixtures/binscan/"
	       "libhip_gfx900_gfx1010_gfx90a.so",
	       src ? src : ".");
	in = open(from, O_RDONLY);
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (in < 0 || out < 0)
		ok = 0;
	while (ok && (n = read(in, buf, sizeof buf)) > 0)
		ok = write(out, buf, (size_t)n) == n;
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return ok ? 0 : -1;
}

/* The caller's fstat saw the whole file; it is truncated before the
 * parsers touch the pages past the new end (what `cp new old` does to a
 * file being scanned). The scan reports it and the process lives. */
static void test_truncated_under_map(void)
{
	char path[64];
	gd_bs_files out = {0};
	struct stat st;
	int fd;

	gd_fmt(path, sizeof path, "/tmp/gd_scan_trunc_%d.so", (int)getpid());
	CHECK_INT(copy_fixture(path), 0);
	fd = open(path, O_RDONLY);
	CHECK(fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 8192);
	if (fd < 0)
		return;
	/* untouched: the real targets */
	CHECK_INT(gd_bs_scan_fd(path, fd, (uint64_t)st.st_size, &opts, &out),
		  0);
	CHECK(out.n == 1 && !out.v[0].error[0] && out.v[0].targets.n == 3);
	gd_bs_files_free(&out);
	CHECK_INT(truncate(path, 100), 0);
	CHECK_INT(gd_bs_scan_fd(path, fd, (uint64_t)st.st_size, &opts, &out),
		  0);
	CHECK_INT(out.n, 1);
	if (out.n == 1)
		CHECK(strstr(out.v[0].error, "file changed while being read"));
	gd_bs_files_free(&out);
	/* and the guard is gone afterwards: a later scan is unaffected */
	close(fd);
	unlink(path);
}

static void test_size0(void)
{
	gd_bs_files out = {0};
	char path[64];
	int fd;

	/* /proc/self/exe's target via procfs is a real ELF; maps is text */
	CHECK_INT(gd_bs_scan_file("/proc/self/maps", 1, &opts, &out), 0);
	CHECK_INT(out.n, 1);
	if (out.n == 1)
		CHECK(strstr(out.v[0].error, "not an ELF") != NULL);
	gd_bs_files_free(&out);
	gd_fmt(path, sizeof path, "/tmp/gd_scan_empty_%d", (int)getpid());
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	CHECK_INT(gd_bs_scan_file(path, 1, &opts, &out), 0);
	CHECK(out.n == 1 && !strcmp(out.v[0].error, "empty file"));
	gd_bs_files_free(&out);
	unlink(path);
}

int main(void)
{
	test_truncated_under_map();
	test_size0();
	return t_done("test_scan_hostile");
}
