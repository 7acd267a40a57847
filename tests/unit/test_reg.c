/* The .reg parser (core/winreg*.c) on regedit's documented format, as
 * UTF-8 and as reg export writes it (UTF-16LE, BOM, CRLF); merging, and
 * the deletions. Runs natively and, in the Windows build, under Wine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/util.h"
#include "core/winreg.h"
#include "t.h"

#define CLASS                                                                  \
	"HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Control\\Class\\{"     \
	"4d36e968-e325-11ce-bfc1-08002be10318}"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *b = malloc(1 << 20);

	*len = f && b ? fread(b, 1, (1 << 20) - 1, f) : 0;
	if (f)
		fclose(f);
	return b;
}

/* UTF-8 (BMP only, as the fixture) to UTF-16LE with a BOM, "\n" -> CRLF. */
static char *to_utf16(const char *s, size_t n, size_t *olen)
{
	unsigned char *o = malloc(n * 4 + 4), *p = o;
	const unsigned char *u = (const unsigned char *)s;

	*p++ = 0xFF;
	*p++ = 0xFE;
	for (size_t i = 0; i < n; i++) {
		unsigned c = u[i];

		if (c >= 0xE0) {
			c = (c & 0x0F) << 12 | (u[i + 1] & 0x3F) << 6 |
			    (u[i + 2] & 0x3F);
			i += 2;
		} else if (c >= 0xC0) {
			c = (c & 0x1F) << 6 | (u[i + 1] & 0x3F);
			i++;
		}
		if (c == '\n') {
			*p++ = '\r';
			*p++ = 0;
		}
		*p++ = (unsigned char)c;
		*p++ = (unsigned char)(c >> 8);
	}
	*olen = (size_t)(p - o);
	return (char *)o;
}

static void check_tree(const gd_reg *r)
{
	gd_reg_key *cls = gd_reg_find(r, CLASS);
	gd_reg_key *a = gd_reg_find(
	    r, "hklm\\system\\currentcontrolset\\control"
	       "\\class\\{4D36E968-E325-11CE-BFC1-08002BE10318}\\0000");
	const gd_reg_value *v;
	char s[256];
	uint64_t x = 0;

	CHECK(cls && a);
	if (!cls || !a)
		return;
	CHECK(gd_reg_str(cls, "", s, sizeof s) == 0);
	CHECK_STR(s, "Display adapters");
	CHECK(gd_reg_str(a, "driverdesc", s, sizeof s) == 0);
	CHECK_STR(s, "AMD Radeon RX 5700 XT");
	CHECK(gd_reg_str(a, "MatchingDeviceId", s, sizeof s) == 0);
	CHECK_STR(s, "PCI\\VEN_1002&DEV_731F&REV_C1");
	CHECK(gd_reg_u64(a, "HardwareInformation.qwMemorySize", &x) == 0);
	CHECK_INT(x, 8589934592ULL);
	CHECK(gd_reg_u64(a, "FeatureScore", &x) == 0);
	CHECK_INT(x, 0xf8);
	v = gd_reg_get(a, "HardwareInformation.AdapterString");
	CHECK(v && v->type == GD_REG_BINARY && v->len == 44);
	v = gd_reg_get(a, "UserModeDriverName");
	CHECK(v && v->type == GD_REG_MULTI_SZ);
	if (v) {
		CHECK_STR((const char *)v->data, "amdxx64.dll");
		CHECK_STR((const char *)v->data + 12, "amdxx64.dll");
	}
	CHECK(gd_reg_str(a, "Settings", s, sizeof s) == 0);
	CHECK_STR(s, "%SystemRoot%\\\xc3\x84"); /* U+00C4 from hex(2) UTF-16 */
	CHECK(gd_reg_str(cls, "IconPath", s, sizeof s) == 0);
	CHECK_STR(s, "%SystemRoot%\\System32\\display.dll,-1");
	CHECK(!gd_reg_get(a, "ObsoleteValue"));
	CHECK(!gd_reg_sub(cls, "0001"));
	CHECK(gd_reg_str(gd_reg_sub(a, "Settings"), "Quoted \"name\"", s,
			 sizeof s) == 0);
	CHECK_STR(s, "C:\\Program Files\\AMD\\ROCm\\6.2\\bin\\");
}

static void test_file(void)
{
	size_t len, wlen;
	char *b = slurp("fixtures/winreg/display-class.reg", &len), *w;
	gd_reg r;
	int skipped = -1;
	char err[160];

	CHECK(len > 1000);
	gd_reg_init(&r);
	CHECK(gd_reg_parse(&r, b, len, &skipped, err, sizeof err) > 10);
	CHECK_INT(skipped, 0);
	check_tree(&r);
	gd_reg_free(&r);

	w = to_utf16(b, len, &wlen);
	gd_reg_init(&r);
	CHECK(gd_reg_parse(&r, w, wlen, &skipped, err, sizeof err) > 10);
	CHECK_INT(skipped, 0);
	check_tree(&r);
	gd_reg_free(&r);
	free(w);
	free(b);
}

static void test_merge_and_errors(void)
{
	const char *one =
	    "\xEF\xBB\xBFWindows Registry Editor Version 5.00\r\n\r\n"
	    "[HKEY_CURRENT_USER\\Environment]\r\n"
	    "\"HIP_PATH\"=\"C:\\\\Program Files\\\\AMD\\\\ROCm\\\\6.2\\\\\"\r\n"
	    "\"Path\"=hex(2):25,00,00,00\r\n"
	    "junk line\r\n";
	const char *two =
	    "Windows Registry Editor Version 5.00\n"
	    "[HKEY_CURRENT_USER\\Environment]\n"
	    "\"HIP_PATH\"=\"C:\\\\Program Files\\\\AMD\\\\ROCm\\\\7.1\\\\\"\n"
	    "\"Big\"=hex(b):01,00,00,00,00,00,00,80\n";
	const char *old = "REGEDIT4\n\n[HKEY_LOCAL_MACHINE\\SOFTWARE\\X]\n"
			  "\"E\"=hex(2):41,42,00\n";
	gd_reg r;
	char s[128], err[160];
	int skipped;
	uint64_t x;

	gd_reg_init(&r);
	CHECK_INT(gd_reg_parse(&r, one, strlen(one), &skipped, err, sizeof err),
		  3);
	CHECK_INT(skipped, 1);
	CHECK(gd_reg_parse(&r, two, strlen(two), NULL, err, sizeof err) == 3);
	CHECK(gd_reg_str(gd_reg_find(&r, "HKCU\\Environment"), "HIP_PATH", s,
			 sizeof s) == 0);
	CHECK_STR(s,
		  "C:\\Program Files\\AMD\\ROCm\\7.1\\"); /* last file wins */
	CHECK(gd_reg_u64(gd_reg_find(&r, "HKCU\\Environment"), "Big", &x) == 0);
	CHECK(x == 0x8000000000000001ULL);
	CHECK(gd_reg_parse(&r, old, strlen(old), NULL, err, sizeof err) == 2);
	CHECK(gd_reg_str(gd_reg_find(&r, "HKLM\\SOFTWARE\\X"), "E", s,
			 sizeof s) == 0);
	CHECK_STR(s, "AB");
	CHECK(gd_reg_parse(&r, "hello", 5, NULL, err, sizeof err) == -1);
	CHECK(strstr(err, "not a registry export") != NULL);
	CHECK(gd_reg_parse(&r, "", 0, NULL, err, sizeof err) == -1);
	gd_reg_free(&r);
}

/* processor time (user and system), not the wall clock: other jobs on
 * the machine do not count */
static double now(void)
{
	return (double)clock() / CLOCKS_PER_SEC;
}

/* n keys of one value each (keys = 1), or n values under one key; every
 * other value then deleted and the rest looked up in another case. */
static char *big_export(int n, int keys, size_t *len)
{
	size_t cap = (size_t)n * 120 + 200, o = 0;
	char *b = malloc(cap);

	o += (size_t)snprintf(b, cap,
			      "Windows Registry Editor Version 5.00\n"
			      "\n[HKEY_LOCAL_MACHINE\\SOFTWARE\\Big]\n");
	for (int i = 0; i < n; i++)
		o +=
		    (size_t)(keys
				 ? snprintf(b + o, cap - o,
					    "[HKEY_LOCAL_MACHINE\\SOFTWARE\\"
					    "Big\\Key%06d]\n\"v\"=dword:%08x\n",
					    i, i)
				 : snprintf(b + o, cap - o,
					    "\"Value%06d\"=dword:%08x\n", i,
					    i));
	if (!keys) /* deletions: the index must follow the moves */
		for (int i = 0; i < n; i += 2)
			o += (size_t)snprintf(b + o, cap - o,
					      "\"VALUE%06d\"=-\n", i);
	*len = o;
	return b;
}

/* E6 (issue #20): 100,000 keys took 44 s, 100,000 values under one key
 * 39 s (a linear search per line); a bound the quadratic parser misses by
 * far, and every key and value still found. */
static void test_big(int keys)
{
	size_t len;
	char *b = big_export(100000, keys, &len), err[200], name[40];
	gd_reg_key *big;
	gd_reg r;
	uint64_t x = 0;
	int found = 0, gone = 0;
	double t = now();

	gd_reg_init(&r);
	CHECK(gd_reg_parse(&r, b, len, NULL, err, sizeof err) > 0);
	big = gd_reg_find(&r, "hklm\\software\\BIG");
	for (int i = 0; big && i < 100000; i++) {
		if (keys) {
			gd_fmt(name, sizeof name, "KEY%06d", i);
			found +=
			    gd_reg_u64(gd_reg_sub(big, name), "V", &x) == 0 &&
			    x == (uint64_t)i;
			continue;
		}
		gd_fmt(name, sizeof name, "value%06d", i);
		if (i % 2)
			found +=
			    gd_reg_u64(big, name, &x) == 0 && x == (uint64_t)i;
		else
			gone += gd_reg_get(big, name) == NULL;
	}
	t = now() - t;
	CHECK_INT(found, keys ? 100000 : 50000);
	CHECK_INT(gone, keys ? 0 : 50000);
	if (big)
		CHECK_INT(keys ? big->nsub : big->nval, keys ? 100000 : 50000);
	if (t > 10)
		fprintf(stderr, "  %s: %.1f s\n", keys ? "keys" : "values", t);
	CHECK(t <= 10);
	gd_reg_free(&r);
	free(b);
}
/* The index of a key that shrank below the size that made it, then grew
 * again (fuzz_winreg found the new values unfindable). */
static void test_index_shrink(void)
{
	char buf[4096], err[200], name[16];
	size_t o = 0;
	gd_reg r;
	gd_reg_key *k;
	int found = 0;

	o += (size_t)snprintf(buf, sizeof buf,
			      "Windows Registry Editor Version 5.00\n\n"
			      "[HKEY_LOCAL_MACHINE\\S]\n");
	for (int i = 0; i < 20; i++)
		o += (size_t)snprintf(buf + o, sizeof buf - o,
				      "\"v%d\"=dword:1\n", i);
	for (int i = 0; i < 12; i++)
		o +=
		    (size_t)snprintf(buf + o, sizeof buf - o, "\"V%d\"=-\n", i);
	for (int i = 20; i < 25; i++)
		o += (size_t)snprintf(buf + o, sizeof buf - o,
				      "\"v%d\"=dword:1\n", i);
	gd_reg_init(&r);
	CHECK(gd_reg_parse(&r, buf, o, NULL, err, sizeof err) > 0);
	k = gd_reg_find(&r, "HKLM\\S");
	for (int i = 0; k && i < 25; i++) {
		gd_fmt(name, sizeof name, "v%d", i);
		found += (gd_reg_get(k, name) != NULL) == (i >= 12);
	}
	CHECK_INT(found, 25);
	gd_reg_free(&r);
}

int main(void)
{
	test_file();
	test_merge_and_errors();
	test_index_shrink();
	test_big(1);
	test_big(0);
	return t_done("test_reg");
}
