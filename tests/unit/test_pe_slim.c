/* gd_pe_slim (binscan/pe_slim.c) on real PE files: the cut-down copy a
 * Windows capture stores has the same imports, delay imports, export name
 * and version as the original, and is small. The fixture's MinGW-built
 * ctranslate2.dll stand-in always; MinGW-w64's own DLLs (libwinpthread
 * with a version resource, libstdc++ with many imports) when installed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "binscan/binscan.h"
#include "binscan/pe_slim.h"
#include "binscan/pe_version.h"
#include "t.h"

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b;

	*len = 0;
	if (!f)
		return NULL;
	b = malloc(64u << 20);
	*len = b ? fread(b, 1, 64u << 20, f) : 0;
	fclose(f);
	return b;
}

static void imports(const uint8_t *b, size_t n, struct gd_bs_dyn *d)
{
	struct gd_pe p;
	char err[128];

	memset(d, 0, sizeof *d);
	CHECK(gd_pe_open(&p, b, n, err, sizeof err) == 0);
	CHECK(gd_pe_imports(&p, d, err, sizeof err) == 0);
}

static void same(const char *path, int need_version)
{
	size_t n, sn;
	uint8_t *b = slurp(path, &n), *s = NULL;
	struct gd_bs_dyn a, c;
	char fv[48], pv[48], fv2[48], pv2[48];

	if (!b || !n) {
		printf("  skipped: %s not installed\n", path);
		free(b);
		return;
	}
	CHECK(gd_pe_slim(b, n, &s, &sn) == 0);
	if (!s) {
		free(b);
		return;
	}
	CHECK(sn < 64 * 1024 && sn < n);
	imports(b, n, &a);
	imports(s, sn, &c);
	CHECK(a.needed.n > 0);
	CHECK_INT(c.needed.n, a.needed.n);
	for (size_t i = 0; i < a.needed.n && i < c.needed.n; i++)
		CHECK_STR(c.needed.v[i], a.needed.v[i]);
	CHECK_INT(c.n_delay, a.n_delay);
	CHECK_STR(c.soname, a.soname);
	if (need_version) {
		CHECK(gd_pe_version(b, n, fv, pv, sizeof fv) == 0);
		CHECK(gd_pe_version(s, sn, fv2, pv2, sizeof fv2) == 0);
		CHECK_STR(fv2, fv);
		CHECK_STR(pv2, pv);
	}
	printf("  %s: %zu -> %zu bytes, %zu imports\n", path, n, sn,
	       c.needed.n);
	gd_bs_dyn_free(&a);
	gd_bs_dyn_free(&c);
	free(s);
	free(b);
}

static void test_not_pe(void)
{
	uint8_t *s = (uint8_t *)"x";
	size_t sn = 1;

	CHECK(gd_pe_slim((const uint8_t *)"MZ not really", 13, &s, &sn) == -1);
	CHECK(s == NULL && sn == 0);
}

int main(void)
{
	same("fixtures/windows/tools/pe/ctranslate2.dll", 0);
	same("/usr/x86_64-w64-mingw32/lib/libwinpthread-1.dll", 1);
	same("/usr/lib/gcc/x86_64-w64-mingw32/12-win32/libstdc++-6.dll", 0);
	test_not_pe();
	return t_done("test_pe_slim");
}
