/* gather's tar writer: names and link targets of any length come back
 * exactly from GNU tar and from Python's tarfile (pax 'x' records); two
 * writes of the same entries are byte-identical; the destination is only
 * ever replaced by a complete archive, and never when it is a symlink, a
 * FIFO or (without force) an existing file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/tar.h"
#include "t.h"

static char dir[256];

/* a 118-byte sysfs link (review A.3) and longer: a 160-byte name with no
 * '/' that ustar's prefix split could use, a 300-byte target */
static char longname[400], longtarget[600], deepname[400];

static void make_names(void)
{
	char seg[200];

	memset(seg, 'n', 160);
	seg[160] = '\0';
	snprintf(longname, sizeof longname, "sys/%s", seg);
	snprintf(deepname, sizeof deepname,
		 "sys/devices/pci0000:00/0000:00:01.1/"
		 "0000:01:00.0/0000:02:00.0/0000:03:00.0/0000:04:00.0/"
		 "0000:05:00.0/0000:28:00.0/%s",
		 seg);
	snprintf(longtarget, sizeof longtarget,
		 "../../../devices/pci0000:00/0000:00:01.1/0000:01:00.0/"
		 "0000:02:00.0/0000:03:00.0/0000:04:00.0/0000:05:00.0/"
		 "0000:28:00.0/%s/%s",
		 seg, seg + 40);
}

static int write_one(const char *path, long long mtime, int force, char *err)
{
	struct gd_tar_opts o = {mtime, force};
	gd_tar *t = gd_tar_open(path, &o, err, 256);

	if (!t)
		return -1;
	gd_tar_add_dir(t, "sys", 0755);
	gd_tar_add_file(t, longname, 0644, "hello\n", 6);
	gd_tar_add_file(t, deepname, 0644, "x", 1);
	gd_tar_add_symlink(t, "sys/bus-link", longtarget);
	gd_tar_add_symlink(t, "sys/short", "../x");
	return gd_tar_close(t, err, 256);
}

static void check_gnu_tar(const char *tarpath)
{
	char cmd[4096], got[512], p[1024];
	ssize_t n;

	snprintf(cmd, sizeof cmd, "mkdir -p %s/x && tar xzf %s -C %s/x", dir,
		 tarpath, dir);
	CHECK(system(cmd) == 0);
	snprintf(p, sizeof p, "%s/x/sys/bus-link", dir);
	n = readlink(p, got, sizeof got - 1);
	CHECK(n > 0);
	got[n > 0 ? n : 0] = '\0';
	CHECK_STR(got, longtarget);
	snprintf(p, sizeof p, "%s/x/%s", dir, longname);
	CHECK(access(p, R_OK) == 0);
	snprintf(p, sizeof p, "%s/x/%s", dir, deepname);
	CHECK(access(p, R_OK) == 0);
}

static void check_python(const char *tarpath)
{
	char cmd[4096];

	if (system("command -v python3 >/dev/null") != 0)
		return;
	snprintf(cmd, sizeof cmd,
		 "python3 -c 'import sys,tarfile\n"
		 "m={i.name:i for i in tarfile.open(sys.argv[1])}\n"
		 "assert m[\"sys/bus-link\"].linkname==sys.argv[2]\n"
		 "assert sys.argv[3] in m and sys.argv[4] in m\n"
		 "assert all(i.mtime==1700000000 for i in m.values())\n' "
		 "%s '%s' '%s' '%s'",
		 tarpath, longtarget, longname, deepname);
	CHECK(system(cmd) == 0);
}

static int same_file(const char *a, const char *b)
{
	char cmd[2048];

	snprintf(cmd, sizeof cmd, "cmp -s %s %s", a, b);
	return system(cmd) == 0;
}

static void check_destinations(void)
{
	char err[256], p[512], q[512], cmd[600];
	struct stat st;

	/* an existing file is kept without force, replaced with it */
	snprintf(p, sizeof p, "%s/notes.txt", dir);
	CHECK(system((snprintf(cmd, sizeof cmd, "echo precious > %s", p),
		      cmd)) == 0);
	CHECK_INT(write_one(p, 0, 0, err), -1);
	CHECK(strstr(err, "exists (use --force to replace it)") != NULL);
	CHECK(stat(p, &st) == 0 && st.st_size == 9);
	CHECK_INT(write_one(p, 0, 1, err), 0);
	CHECK(stat(p, &st) == 0 && st.st_size > 9);
	/* a symlink is never written through, even with force */
	snprintf(q, sizeof q, "%s/link.tar.gz", dir);
	CHECK(symlink("notes.txt", q) == 0);
	CHECK_INT(write_one(q, 0, 1, err), -1);
	CHECK(strstr(err, "symbolic link") != NULL);
	/* a FIFO is refused at once: opening it would block */
	snprintf(q, sizeof q, "%s/fifo", dir);
	CHECK(mkfifo(q, 0600) == 0);
	CHECK_INT(write_one(q, 0, 1, err), -1);
	CHECK(strstr(err, "FIFO") != NULL);
	/* no temporary file is left behind by any of this */
	snprintf(cmd, sizeof cmd, "ls %s | grep -q tmp", dir);
	CHECK(system(cmd) != 0);
}

int main(void)
{
	char a[512], b[512], err[256] = "", cmd[600];

	make_names();
	snprintf(dir, sizeof dir, "/tmp/gd-test-tar-XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	snprintf(a, sizeof a, "%s/a.tar.gz", dir);
	snprintf(b, sizeof b, "%s/b.tar.gz", dir);
	CHECK_INT(write_one(a, 1700000000, 0, err), 0);
	CHECK_STR(err, "");
	sleep(1); /* a clock in the archive would now differ */
	CHECK_INT(write_one(b, 1700000000, 0, err), 0);
	CHECK(same_file(a, b));
	check_gnu_tar(a);
	check_python(a);
	check_destinations();
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cleanup failed\n");
	return t_done("test_tar");
}
