/* Outside text is held whole or its cut is said, never silent (issue #21
 * item 5). The places it enters: formatted text (gd_fmt), paths joined
 * from outside names, the first line of a file, modprobe.d lines, ld.so's
 * library names, diagnostics, facts. A regression in any of them (a fixed
 * line buffer back, a cut passed off as whole) fails here. (Lines from
 * supervised children: test_sup_lines.c.) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/ctx.h"
#include "core/facts.h"
#include "core/fs.h"
#include "core/util.h"
#include "core/wincap.h"
#include "core/winreg.h"
#include "discover/discover.h"
#include "discover/kstate.h"
#include "inventory/ldpath.h"
#include "probe/probe.h"
#include "report/view.h"
#include "t.h"

static int ends_cut(const char *s)
{
	size_t n = strlen(s);

	return n >= 3 && !strcmp(s + n - 3, "...");
}

static void fmt_cases(void)
{
	char b[8], u[9];

	CHECK_INT(gd_fmt(b, sizeof b, "%s", "1234567"), 0);
	CHECK_INT(gd_fmt(b, sizeof b, "%s", "12345678"), -ENAMETOOLONG);
	CHECK_STR(b, "1234567");
	gd_mark_cut(b, sizeof b);
	CHECK_STR(b, "1234...");
	/* "ab" + two 3-byte characters: the cut never splits one */
	CHECK_INT(gd_fmt(u, sizeof u, "%s", "ab\xe2\x82\xac\xe2\x82\xacxyz"),
		  -ENAMETOOLONG);
	gd_mark_cut(u, sizeof u);
	CHECK_STR(u, "ab\xe2\x82\xac...");
}

static void path_cases(void)
{
	char p[32], name[64];

	CHECK_INT(gd_path_join(p, sizeof p, "/opt/rocm", "lib"), 0);
	CHECK_STR(p, "/opt/rocm/lib");
	memset(name, 'n', sizeof name - 1);
	name[sizeof name - 1] = '\0';
	CHECK_INT(gd_path_join(p, sizeof p, "/opt", name), -ENAMETOOLONG);
	CHECK(ends_cut(p)); /* never a shorter path that names another file */
}

static void read_line_cases(void)
{
	char dir[] = "/tmp/gd_nocut_XXXXXX", path[300], buf[64];
	FILE *f;
	gd_fs fs;

	if (!mkdtemp(dir)) {
		CHECK(0);
		return;
	}
	snprintf(path, sizeof path, "%s/version", dir);
	f = fopen(path, "w");
	fprintf(f, "6.2.41134-");
	for (int i = 0; i < 100; i++)
		fputc('0' + i % 10, f);
	fputc('\n', f);
	fclose(f);
	CHECK_INT(gd_fs_init(&fs, dir), 0);
	CHECK_INT(gd_fs_read_line(&fs, "/version", buf, sizeof buf),
		  -EOVERFLOW);
	CHECK_STR(buf, "");
	CHECK(strstr(gd_fs_strerror(-EOVERFLOW), "longer") != NULL);
	f = fopen(path, "w");
	fprintf(f, "6.2.4\nmore\n");
	fclose(f);
	CHECK_INT(gd_fs_read_line(&fs, "/version", buf, sizeof buf), 0);
	CHECK_STR(buf, "6.2.4");
	gd_fs_close(&fs);
	unlink(path);
	rmdir(dir);
}

/* An options line of 2.5 KiB (continued over lines, as distributions write
 * them): the option at its end is read. */
static void modprobe_cases(void)
{
	struct gd_kopts *o = calloc(1, sizeof *o);
	char *conf = malloc(8192), *p = conf;
	int found = 0;

	p += sprintf(p, "options amdgpu");
	for (int i = 0; i < 40; i++)
		p += sprintf(p, " \\\n  gd_param_number_%02d=%040d", i, i);
	p += sprintf(p, " ppfeaturemask=0xfff7bfff\n");
	gd_modprobe_parse(conf, (size_t)(p - conf), "/etc/modprobe.d/x.conf",
			  o);
	for (size_t i = 0; i < o->n; i++)
		if (!strcmp(o->v[i].param, "ppfeaturemask") &&
		    !strcmp(o->v[i].value, "0xfff7bfff"))
			found = 1;
	/* 41 options on one 2.5 KiB line, all kept (a 1 KiB line buffer
	 * read 16 and dropped the rest without a word) */
	CHECK(found);
	CHECK_INT(o->n, 41);
	CHECK_INT(o->dropped, 0);
	free(conf);
	free(o);
}

/* ld.so searched for a library whose name is longer than the list keeps:
 * it is listed cut and marked, not dropped. */
static void lddebug_cases(void)
{
	struct gd_lddebug d;
	char line[400], name[200];

	memset(&d, 0, sizeof d);
	memset(name, 'l', sizeof name - 1);
	name[sizeof name - 1] = '\0';
	memcpy(name, "lib", 3);
	snprintf(line, sizeof line, "      7:\tfind library=%s [0]; searching",
		 name);
	gd_lddebug_line(&d, line);
	gd_lddebug_line(&d, "      7:\t search path=/lib\t\t(system search "
			    "path)");
	gd_lddebug_line(&d, "      7:\t  trying file=/lib/nope");
	gd_lddebug_end(&d);
	CHECK_INT(d.n, 1);
	CHECK(d.n == 1 && ends_cut(d.missing[0]) &&
	      !strncmp(d.missing[0], name, 40));
}

/* Diagnostics and facts: a cut ends in "..." */
static void ctx_cases(void)
{
	char big[2000];
	gd_text t;
	gd_num n;

	memset(big, 'p', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	gd_text_set(&t, big, big);
	CHECK(ends_cut(t.v));
	CHECK(ends_cut(t.src));
	gd_num_unknown(&n, GD_UNKNOWN, "cannot read %s", big);
	CHECK(ends_cut(n.why));
	gd_text_unknown(&t, GD_UNKNOWN, "cannot read %s", big);
	CHECK(ends_cut(t.why));
	gd_text_set(&t, "6.2.4", "/opt/rocm/.info/version");
	CHECK_STR(t.v, "6.2.4");
}

/* Text shown on a terminal (file names, archive entries) */
static void term_cases(void)
{
	char b[16];

	CHECK_STR(gd_cli_term(b, sizeof b, "short\x01"), "short?");
	CHECK(ends_cut(gd_cli_term(b, sizeof b, "a-long-file-name-here.txt")));
	CHECK(ends_cut(gd_cli_term(b, sizeof b, "\xff\xff\xff\xff\xff\xff")));
}

/* A GPU name in amdgpu.ids longer than the name field */
static void ids_cases(void)
{
	char ids[600], name[64];
	int n = snprintf(ids, sizeof ids, "# ids\n731F,\tC1,\tAMD Radeon ");

	for (int i = 0; i < 20; i++)
		n += snprintf(ids + n, sizeof ids - (size_t)n, "Long Name %d ",
			      i);
	n += snprintf(ids + n, sizeof ids - (size_t)n, "\n");
	CHECK(gd_amdgpu_ids_lookup(ids, (size_t)n, 0x731f, 0xc1, name,
				   sizeof name));
	CHECK(ends_cut(name) && !strncmp(name, "AMD Radeon Long Name 0", 22));
}

/* A registry string and a Windows path longer than the caller's buffer */
static void reg_cases(void)
{
	static const char exp[] = "Windows Registry Editor Version 5.00\r\n\r\n"
				  "[HKEY_LOCAL_MACHINE\\SOFTWARE\\X]\r\n"
				  "\"InstallDir\"=\"C:\\\\Program "
				  "Files\\\\AMD\\\\ROCm\\\\6.2\\\\bin\"\r\n";
	char buf[16], path[20], err[100];
	gd_reg r;
	gd_reg_key *k;

	gd_reg_init(&r);
	CHECK(gd_reg_parse(&r, exp, sizeof exp - 1, NULL, err, sizeof err) > 0);
	k = gd_reg_find(&r, "HKLM\\SOFTWARE\\X");
	CHECK(k != NULL);
	if (k) {
		CHECK_INT(gd_reg_str(k, "InstallDir", buf, sizeof buf), 0);
		CHECK(ends_cut(buf));
	}
	gd_reg_free(&r);
	CHECK_INT(gd_win_fs_path("C:\\Program Files\\AMD", path, sizeof path),
		  0);
	CHECK(ends_cut(path));
}

int main(void)
{
	reg_cases();
	ids_cases();
	term_cases();
	fmt_cases();
	path_cases();
	read_line_cases();
	modprobe_cases();
	lddebug_cases();
	ctx_cases();
	return t_done("no_silent_cut");
}
