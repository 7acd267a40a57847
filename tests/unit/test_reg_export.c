/* gd_reg_export (core/winreg_export.c) against the parser: every value
 * type regedit writes survives export -> parse unchanged, and the captured
 * Windows machines' registry files (written as `reg export` does) come back
 * byte for byte from their own parse. Runs natively and under Wine. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "core/winreg.h"
#include "t.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *b = malloc(1 << 20);

	*len = f && b ? fread(b, 1, (1 << 20) - 1, f) : 0;
	if (f)
		fclose(f);
	return b;
}

/* Same keys, same values (type, bytes), in any order. */
static int key_eq(const gd_reg_key *a, const gd_reg_key *b)
{
	if (a->nsub != b->nsub || a->nval != b->nval)
		return 0;
	for (size_t i = 0; i < a->nval; i++) {
		const gd_reg_value *v = &a->val[i], *w = gd_reg_get(b, v->name);

		if (!w || w->type != v->type || w->len != v->len ||
		    memcmp(w->data, v->data, v->len))
			return 0;
	}
	for (size_t i = 0; i < a->nsub; i++) {
		const gd_reg_key *s = gd_reg_sub(b, a->sub[i]->name);

		if (!s || strcmp(s->name, a->sub[i]->name) ||
		    !key_eq(a->sub[i], s))
			return 0;
	}
	return 1;
}

static void test_types(void)
{
	static const uint8_t bin[100] = {1, 2, 3, 0xff};
	const char *paths[] = {"HKLM\\SOFTWARE\\gd\\T", "HKCU\\Environment"};
	gd_reg a, b;
	gd_reg_key *k, *e;
	void *out, *out2;
	size_t len, len2, nk;
	char err[160];
	int skipped = -1;

	gd_reg_init(&a);
	k = gd_reg_mkkey(&a, "HKEY_LOCAL_MACHINE\\SOFTWARE\\gd\\T");
	e = gd_reg_mkkey(&a, "HKEY_CURRENT_USER\\Environment");
	CHECK(k && e);
	if (!k || !e)
		return;
	gd_reg_set(&a, k, "", GD_REG_SZ, "default", 7);
	gd_reg_set(&a, k, "Quoted \"x\" \\ back", GD_REG_SZ,
		   "C:\\Program Files\\\"AMD\"\\", 23);
	gd_reg_set(&a, k, "Empty", GD_REG_SZ, "", 0);
	gd_reg_set(&a, k, "Dw", GD_REG_DWORD, (uint8_t[4]){0x1f, 0, 0, 0x80},
		   4);
	gd_reg_set(&a, k, "Qw", GD_REG_QWORD,
		   (uint8_t[8]){0, 0, 0, 0, 2, 0, 0, 0}, 8);
	gd_reg_set(&a, k, "Bin", GD_REG_BINARY, bin, sizeof bin);
	gd_reg_set(&a, k, "NoBytes", GD_REG_BINARY, "", 0);
	gd_reg_set(&a, k, "None", GD_REG_NONE, "\x01\x02", 2);
	gd_reg_set(&a, k, "BigEndian", 5, "\x00\x00\x00\x01", 4);
	gd_reg_set(&a, k, "ShortDword", GD_REG_DWORD, "\x07", 1);
	/* U+00C4 and U+1F600 (a surrogate pair in UTF-16) */
	gd_reg_set(&a, k, "Exp", GD_REG_EXPAND_SZ,
		   "%SystemRoot%\\\xc3\x84\xf0\x9f\x98\x80", 19);
	gd_reg_set(&a, k, "Multi", GD_REG_MULTI_SZ, "PCI\\A\0PCI\\B\0\0", 13);
	gd_reg_set(&a, k,
		   "A value name long enough that the first hex line has "
		   "almost no room left",
		   GD_REG_BINARY, bin, 30);
	gd_reg_set(&a, e, "Path", GD_REG_EXPAND_SZ, "%USERPROFILE%\\bin", 17);
	gd_reg_mkkey(&a, "HKLM\\SOFTWARE\\gd\\T\\Sub\\Deeper");

	CHECK(gd_reg_export(&a, paths, 2, 0, &out, &len, &nk) == 0);
	CHECK_INT(nk, 4);
	CHECK(len > 2 && !memcmp(out, "\xff\xfe", 2));
	gd_reg_init(&b);
	CHECK(gd_reg_parse(&b, out, len, &skipped, err, sizeof err) > 10);
	CHECK_INT(skipped, 0);
	CHECK(key_eq(gd_reg_find(&a, "HKLM\\SOFTWARE\\gd"),
		     gd_reg_find(&b, "HKLM\\SOFTWARE\\gd")));
	CHECK(key_eq(e, gd_reg_find(&b, "HKCU\\Environment")));
	/* a second export of the re-read tree is the same file */
	CHECK(gd_reg_export(&b, paths, 2, 0, &out2, &len2, NULL) == 0);
	CHECK(len2 == len && !memcmp(out, out2, len));
	free(out2);
	/* the key limit cuts the export short and says so */
	CHECK(gd_reg_export(&a, paths, 2, 2, &out2, &len2, &nk) == 1);
	CHECK_INT(nk, 2);
	free(out2);
	free(out);
	gd_reg_free(&b);
	gd_reg_free(&a);
}

/* What Wine's `reg export HKCU\gdtest` wrote (wine-8.0, Debian 8.0~repack-4)
 * after `reg add HKCU\gdtest /v Path /t REG_EXPAND_SZ /d
 * %SystemRoot%\system32;%SystemRoot%` and the same for TMP
 * (%USERPROFILE%\AppData\Local\Temp): where the hex lines fold. */
static const char wine_export[] =
    "Windows Registry Editor Version 5.00\r\n\r\n"
    "[HKEY_CURRENT_USER\\gdtest]\r\n"
    "\"Path\"=hex(2):25,00,53,00,79,00,73,00,74,00,65,00,6d,00,52,00,6f,00,6f,"
    "00,74,\\\r\n"
    "  00,25,00,5c,00,73,00,79,00,73,00,74,00,65,00,6d,00,33,00,32,00,3b,00,25,"
    "00,\\\r\n"
    "  53,00,79,00,73,00,74,00,65,00,6d,00,52,00,6f,00,6f,00,74,00,25,00,00,00"
    "\r\n"
    "\"TMP\"=hex(2):25,00,55,00,53,00,45,00,52,00,50,00,52,00,4f,00,46,00,49,"
    "00,"
    "4c,00,\\\r\n"
    "  45,00,25,00,5c,00,41,00,70,00,70,00,44,00,61,00,74,00,61,00,5c,00,4c,00,"
    "6f,\\\r\n"
    "  00,63,00,61,00,6c,00,5c,00,54,00,65,00,6d,00,70,00,00,00\r\n\r\n";

static void test_like_reg_exe(void)
{
	const char *key[] = {"HKCU\\gdtest"};
	size_t n = strlen(wine_export), olen;
	uint8_t *w = malloc(2 * n + 2);
	void *out = NULL;
	char err[160];
	gd_reg r;

	w[0] = 0xff, w[1] = 0xfe;
	for (size_t i = 0; i < n; i++)
		w[2 + 2 * i] = (uint8_t)wine_export[i], w[3 + 2 * i] = 0;
	gd_reg_init(&r);
	CHECK(gd_reg_parse(&r, w, 2 * n + 2, NULL, err, sizeof err) == 3);
	CHECK(gd_reg_export(&r, key, 1, 0, &out, &olen, NULL) == 0);
	CHECK(out && olen == 2 * n + 2 && !memcmp(out, w, olen));
	free(out);
	free(w);
	gd_reg_free(&r);
}

/* The "[KEY]" lines of a UTF-16LE export that no earlier one contains:
 * what `reg export` was asked for. */
static size_t top_keys(const uint8_t *b, size_t n, char keys[][512], size_t max)
{
	char line[512];
	size_t k = 0, l = 0;

	for (size_t i = 2; i + 1 < n; i += 2) {
		unsigned c = b[i] | b[i + 1] << 8;
		int inside = 0;

		if (c != '\n') {
			if (c != '\r' && l + 1 < sizeof line)
				line[l++] = (char)(c < 0x80 ? c : '?');
			continue;
		}
		line[l] = '\0';
		l = 0;
		if (line[0] != '[' || !strchr(line, ']'))
			continue;
		*strrchr(line, ']') = '\0';
		for (size_t j = 0; j < k; j++) {
			size_t m = strlen(keys[j]);

			inside |= !strncmp(line + 1, keys[j], m) &&
				  line[1 + m] == '\\';
		}
		if (!inside && k < max)
			gd_strlcpy(keys[k++], line + 1, 512);
	}
	return k;
}

static void round_trip_file(const char *path)
{
	char keys[16][512], err[160];
	const char *kp[16];
	size_t len, olen, nk = top_keys(NULL, 0, keys, 0);
	char *b = slurp(path, &len);
	void *out = NULL;
	gd_reg r, again;

	gd_reg_init(&r);
	CHECK(gd_reg_parse(&r, b, len, NULL, err, sizeof err) > 0);
	nk = top_keys((uint8_t *)b, len, keys, 16);
	for (size_t i = 0; i < nk; i++)
		kp[i] = keys[i];
	CHECK(nk > 0);
	CHECK(gd_reg_export(&r, kp, nk, 0, &out, &olen, NULL) == 0);
	gd_reg_init(&again);
	CHECK(gd_reg_parse(&again, out, olen, NULL, err, sizeof err) > 0);
	if (!key_eq(&r.root, &again.root)) {
		printf("  %s: its export reads back differently\n", path);
		CHECK(0);
	}
	free(out);
	gd_reg_free(&again);
	gd_reg_free(&r);
	free(b);
}

static void test_fixtures(void)
{
	DIR *d = opendir("fixtures");
	struct dirent *e;
	int files = 0;

	CHECK(d != NULL);
	while (d && (e = readdir(d))) {
		char dir[512];
		DIR *rd;
		struct dirent *f;

		if (strncmp(e->d_name, "windows-", 8))
			continue;
		gd_fmt(dir, sizeof dir, "fixtures/%s/root/registry", e->d_name);
		if (!(rd = opendir(dir)))
			continue;
		while ((f = readdir(rd))) {
			char p[1024];
			size_t n = strlen(f->d_name);

			if (n < 5 || strcmp(f->d_name + n - 4, ".reg"))
				continue;
			gd_fmt(p, sizeof p, "%s/%s", dir, f->d_name);
			round_trip_file(p);
			files++;
		}
		closedir(rd);
	}
	if (d)
		closedir(d);
	CHECK(files >= 20);
}

int main(void)
{
	test_types();
	test_like_reg_exe();
	test_fixtures();
	return t_done("test_reg_export");
}
