/* The Windows app-folder search on captures nobody would write by hand
 * (issue #20):
 *  - E5: 20,000 folders in %LOCALAPPDATA%\Programs. The search lists at
 *    most GD_WIN_APP_DIRS (400) folders; it used to look at every entry of
 *    every folder it listed by resolving the whole path again, listing
 *    each parent (quadratic: 20,000 folders took 228 s). The work done
 *    (file system calls) must stay in proportion to the budget, and the
 *    run under a bound the quadratic walk misses by far;
 *  - E11: windows-r9700-llamacpp-missing-hipblas with its ggml-hip.dll
 *    made unreadable or not a valid PE (a FIFO, a directory, its first 64
 *    bytes, "MZ" alone, a link to /dev/zero, a garbage import directory,
 *    65,535 sections, a huge e_lfanew, a random body): the missing-hipblas
 *    finding cannot be made, and it used to vanish without a word (the
 *    verdict "works", exit 0). Now a bad fact with its code says the DLL
 *    could not be read and its imports are unknown; never "works".
 * Linux only (FIFOs, links to /dev/zero). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/ctx.h"
#include "discover/disc_int.h"
#include "doctor/verdict_windows.h"
#include "inventory/win_inventory.h"
#include "kb/kb.h"
#include "t.h"

#ifndef _WIN32

static char tmp[256];

static void put(const char *rel, const char *text)
{
	char p[600], *s;
	FILE *f;

	gd_fmt(p, sizeof p, "%s/%s", tmp, rel);
	for (s = p + strlen(tmp) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	if ((f = fopen(p, "w"))) {
		fputs(text, f);
		fclose(f);
	}
}

/* In memory where the system has it: 20,000 folders on a busy disk take
 * minutes to make and remove, which is not what is measured. */
static void mk_tmp(const char *tag)
{
	const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";

	if (access("/dev/shm", W_OK | X_OK) == 0)
		base = "/dev/shm";
	gd_fmt(tmp, sizeof tmp, "%s/gd-%s.%d", base, tag, (int)getpid());
	CHECK_INT(mkdir(tmp, 0755), 0);
}

static void rm_tmp(void)
{
	char cmd[300];

	gd_fmt(cmd, sizeof cmd, "rm -rf '%s'", tmp);
	CHECK_INT(system(cmd), 0);
}

static void count(void *arg, const char *path, int kind)
{
	(void)path;
	(void)kind;
	++*(long *)arg;
}

/* processor time (user and system), not the wall clock: other jobs on
 * the machine do not count */
static double now(void)
{
	return (double)clock() / CLOCKS_PER_SEC;
}

static void test_many_folders(void)
{
	const char *progs = "fs/C/Users/u/AppData/Local/Programs";
	struct gd_win_inventory wi;
	char *envp[] = {NULL}, p[600];
	long ops = 0;
	double t0;
	gd_ctx ctx;

	mk_tmp("win-e5");
	put(".gpudoctor/environ",
	    "LOCALAPPDATA=C:\\Users\\u\\AppData\\Local\nSystemRoot=C:\\"
	    "Windows\n");
	put("fs/C/Windows/System32/amdhip64_7.dll", "");
	put("fs/C/Users/u/AppData/Local/Programs/a/x", "");
	for (int i = 0; i < 20000; i++) {
		gd_fmt(p, sizeof p, "%s/%s/app%05d", tmp, progs, i);
		mkdir(p, 0755);
	}
	CHECK_INT(gd_ctx_init(&ctx, tmp, envp), 0);
	ctx.fs.hook = count;
	ctx.fs.hook_arg = &ops;
	t0 = now();
	gd_win_inventory_collect(&ctx, &wi);
	t0 = now() - t0;
	CHECK_INT(wi.app_scan_cut, 1);
	/* a listing per folder of the budget, a stat per entry looked at,
	 * and the inventory's own few reads: not one per folder there */
	if (ops > 2000)
		fprintf(stderr, "  %ld file system calls\n", ops);
	CHECK(ops <= 2000);
	if (t0 > 20)
		fprintf(stderr, "  %.1f s\n", t0);
	CHECK(t0 <= 20); /* the quadratic walk: 228 s */
	gd_ctx_free(&ctx);
	rm_tmp();
}

#define R9700 "fixtures/windows-r9700-llamacpp-missing-hipblas/root"
#define HIPDLL                                                                 \
	"fs/C/Users/user/AppData/Local/Programs/"                              \
	"llama-b10400-bin-win-rocm-7.14-x64/ggml-hip.dll"

static uint8_t pe[4096];
static size_t pe_len;

static uint32_t rd32(const uint8_t *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[3] << 24;
}

static void wr32(uint8_t *b, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		b[i] = (uint8_t)(v >> (8 * i));
}

/* The file offset of the import directory of the real stand-in (PE32+:
 * data directory 1 at optional header + 120), through its sections. */
static size_t import_off(const uint8_t *b)
{
	uint32_t pe_off = rd32(b + 0x3c), rva;
	unsigned nsect = b[pe_off + 6] | b[pe_off + 7] << 8;
	unsigned opt = b[pe_off + 20] | b[pe_off + 21] << 8;
	const uint8_t *s = b + pe_off + 24 + opt;

	rva = rd32(b + pe_off + 24 + 120);
	for (unsigned i = 0; i < nsect; i++, s += 40)
		if (rva >= rd32(s + 12) && rva < rd32(s + 12) + rd32(s + 16))
			return rva - rd32(s + 12) + rd32(s + 20);
	return 0;
}

static void write_bytes(const char *path, const uint8_t *b, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (f) {
		fwrite(b, 1, n, f);
		fclose(f);
	}
}

/* Makes tmp/HIPDLL the broken file of case c; 0, or -1 past the last. */
static int breakit(int c, const char *path)
{
	uint8_t b[4096];
	uint32_t pe_off = rd32(pe + 0x3c);
	size_t off;

	memcpy(b, pe, pe_len);
	unlink(path);
	switch (c) {
	case 0:
		return mkfifo(path, 0644);
	case 1:
		return mkdir(path, 0755);
	case 2:
		write_bytes(path, b, 64);
		return 0;
	case 3:
		write_bytes(path, (const uint8_t *)"MZ", 2);
		return 0;
	case 4:
		return symlink("/dev/zero", path);
	case 5: /* the import descriptors overwritten */
		off = import_off(b);
		CHECK(off > 0 && off + 60 <= pe_len);
		memset(b + off, 0xA5, 60);
		break;
	case 6: /* the import directory far outside the file */
		wr32(b + pe_off + 24 + 120, 0x7ffff000u);
		break;
	case 7: /* NumberOfSections 65,535 */
		b[pe_off + 6] = b[pe_off + 7] = 0xff;
		break;
	case 8: /* e_lfanew near 2 GiB */
		wr32(b + 0x3c, 0x7ffffff0u);
		break;
	case 9:	 /* "MZ" then a random body */
	case 10: /* a random body */
		srand(42);
		for (size_t i = c == 9 ? 2 : 0; i < pe_len; i++)
			b[i] = (uint8_t)rand();
		break;
	default:
		return -1;
	}
	write_bytes(path, b, pe_len);
	return 0;
}

static int has_code(const struct gd_win_line *l, int n, enum gd_code c,
		    const char *text)
{
	for (int i = 0; i < n; i++)
		if (l[i].code == c && strstr(l[i].text, text))
			return 1;
	return 0;
}

static void test_bad_dll(void)
{
	static struct gd_win_verdict v;
	char *envp[] = {NULL}, path[600], cmd[600];
	struct gd_win_inventory wi;
	struct gd_machine m;
	FILE *f = fopen(R9700 "/" HIPDLL, "rb");
	gd_ctx ctx;

	pe_len = f ? fread(pe, 1, sizeof pe, f) : 0;
	if (f)
		fclose(f);
	CHECK(pe_len > 512);
	mk_tmp("win-e11");
	gd_fmt(cmd, sizeof cmd, "cp -a %s/. '%s'", R9700, tmp);
	CHECK_INT(system(cmd), 0);
	gd_fmt(path, sizeof path, "%s/%s", tmp, HIPDLL);
	for (int c = 0; breakit(c, path) == 0; c++) {
		CHECK_INT(gd_ctx_init(&ctx, tmp, envp), 0);
		ctx.kb = gd_kb_load_embedded();
		CHECK(gd_discover(&ctx, &m) == 0 && m.n_gpus == 1);
		gd_win_inventory_collect(&ctx, &wi);
		CHECK_INT(wi.n_app_missing, 0);
		CHECK_INT(wi.n_app_unread, 1);
		if (m.n_gpus == 1) {
			gd_win_verdict_amd(&ctx, &m.gpus[0], &wi, NULL, &v);
			CHECK(!v.usable);
			CHECK(strcmp(gd_win_verdict_status(&v), "works"));
			CHECK(has_code(v.facts, v.n_facts,
				       GD_C_WIN_APP_DLL_UNREADABLE,
				       "ggml-hip.dll (in C:\\Users"));
			CHECK(has_code(v.steps, v.n_steps,
				       GD_C_WIN_APP_DLL_REPLACE,
				       "\\ggml-hip.dll"));
			CHECK(strstr(v.summary, "its imports are unknown"));
			if (v.usable || wi.n_app_unread != 1)
				fprintf(stderr, "  case %d: %s\n", c,
					v.summary);
			else
				fprintf(stderr, "  case %d: %s\n", c,
					wi.app_unread[0].why);
		}
		gd_kb_free(ctx.kb);
		ctx.kb = NULL;
		gd_machine_free(&m);
		gd_ctx_free(&ctx);
		unlink(path);
		rmdir(path);
	}
	rm_tmp();
}

#endif

int main(void)
{
#ifndef _WIN32
	test_many_folders();
	test_bad_dll();
#endif
	return t_done("test_win_apps_hostile");
}
