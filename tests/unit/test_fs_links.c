/* core/fs_links.c: a capture's links.tsv resolved as RESOLVE_IN_ROOT
 * resolves the real links on Linux, checked against the real links of a
 * captured machine (rx5700xt: relative sysfs links through /sys/bus). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fs_links.h"
#include "t.h"

static void test_resolve(void)
{
	static const char tsv[] =
	    "sys/bus/pci/devices/0000:28:00.0\t../../../devices/pci0000:00/"
	    "0000:00:01.1/0000:28:00.0\n"
	    "sys/devices/pci0000:00/0000:00:01.1/0000:28:00.0/driver\t"
	    "../../../../bus/pci/drivers/amdgpu\n"
	    "/abs\t/sys/devices\n"
	    "up\t../../../../../etc\n"
	    "loop\tloop\n"
	    "malformed line\n\tno name\nno target\t\n";
	struct gd_fs_links *l;
	char out[512];

	CHECK(gd_fs_links_parse(tsv, sizeof tsv - 1, &l) == 0);
	CHECK_STR(gd_fs_links_get(l, "/abs"), "/sys/devices");
	CHECK(gd_fs_links_get(l, "no target") == NULL);
	CHECK(gd_fs_links_resolve(l, "/sys/bus/pci/devices/0000:28:00.0/driver",
				  1, out, sizeof out) == 0);
	CHECK_STR(out, "/sys/bus/pci/drivers/amdgpu");
	CHECK(gd_fs_links_resolve(l, "/sys/bus/pci/devices/0000:28:00.0/driver",
				  0, out, sizeof out) == 0);
	CHECK_STR(out, "/sys/devices/pci0000:00/0000:00:01.1/0000:28:00.0/"
		       "driver");
	CHECK(gd_fs_links_resolve(l, "/abs/x/../y", 1, out, sizeof out) == 0);
	CHECK_STR(out, "/sys/devices/y");
	/* ".." stops at the root, as RESOLVE_IN_ROOT */
	CHECK(gd_fs_links_resolve(l, "/up/passwd", 1, out, sizeof out) == 0);
	CHECK_STR(out, "/etc/passwd");
	CHECK(gd_fs_links_resolve(l, "/loop/x", 1, out, sizeof out) == -ELOOP);
	CHECK(gd_fs_links_resolve(l, "/", 1, out, sizeof out) == 0);
	CHECK_STR(out, "/");
	gd_fs_links_free(l);
}

static void count(void *arg, const char *name)
{
	(void)name;
	(*(int *)arg)++;
}

static void test_each_in(void)
{
	static const char tsv[] =
	    "usr/lib/a\tx\nusr/lib/b\ty\n"
	    "usr/lib/sub/c\tz\nusr/lib64\tlib\nlib\tusr/lib\n";
	struct gd_fs_links *l;
	int n = 0;

	CHECK(gd_fs_links_parse(tsv, sizeof tsv - 1, &l) == 0);
	gd_fs_links_each_in(l, "/usr/lib", count, &n);
	CHECK_INT(n, 2);
	n = 0;
	gd_fs_links_each_in(l, "/", count, &n);
	CHECK_INT(n, 1);
	gd_fs_links_free(l);
}

int main(void)
{
	test_resolve();
	test_each_in();
	return t_done("test_fs_links");
}
