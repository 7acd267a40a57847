/* Hostile zips, generated here: a "better zip bomb" (many central-directory
 * entries over one local header, D2 of the reliability findings), members
 * whose data runs into the next header, the per-archive inflate cap, and
 * the name index that keeps member lookups at log(n). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "binscan/binscan.h"
#include "core/util.h"
#include "t.h"

static void w16(uint8_t *b, size_t o, uint16_t v)
{
	b[o] = (uint8_t)v;
	b[o + 1] = (uint8_t)(v >> 8);
}

static void w32(uint8_t *b, size_t o, uint32_t v)
{
	w16(b, o, (uint16_t)v);
	w16(b, o + 2, (uint16_t)(v >> 16));
}

struct zbuf {
	uint8_t *b;
	size_t n, cap;
};

static uint8_t *zb_take(struct zbuf *z, size_t len)
{
	if (z->n + len > z->cap) {
		z->cap = (z->n + len) * 2;
		z->b = realloc(z->b, z->cap);
	}
	memset(z->b + z->n, 0, len);
	z->n += len;
	return z->b + z->n - len;
}

/* `members` members named l00000.so..., each `usize` zero bytes deflated;
 * shared: one local header, named by every central-directory entry. */
static void make(struct zbuf *z, int members, uLong usize, int shared)
{
	uLongf cn = compressBound(usize) + 64;
	uint8_t *raw = calloc(1, usize ? usize : 1), *comp = malloc(cn);
	uint32_t *loff = calloc((size_t)members, sizeof *loff), crc;
	z_stream s = {0};
	size_t cd;
	uint8_t *p;

	deflateInit2(&s, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
	s.next_in = raw;
	s.avail_in = (uInt)usize;
	s.next_out = comp;
	s.avail_out = (uInt)cn;
	deflate(&s, Z_FINISH);
	cn = s.total_out;
	deflateEnd(&s);
	crc = (uint32_t)crc32(0, raw, (uInt)usize);
	memset(z, 0, sizeof *z);
	for (int i = 0; i < (shared ? 1 : members); i++) {
		loff[i] = (uint32_t)z->n;
		p = zb_take(z, 30 + 8 + cn);
		w32(p, 0, 0x04034b50);
		w16(p, 8, 8);
		w32(p, 14, crc);
		w32(p, 18, (uint32_t)cn);
		w32(p, 22, (uint32_t)usize);
		w16(p, 26, 8);
		gd_fmt((char *)p + 30, 9, "l%05d.so", i);
		memcpy(p + 38, comp, cn);
	}
	cd = z->n;
	for (int i = 0; i < members; i++) {
		p = zb_take(z, 46 + 8);
		w32(p, 0, 0x02014b50);
		w16(p, 10, 8);
		w32(p, 16, crc);
		w32(p, 20, (uint32_t)cn);
		w32(p, 24, (uint32_t)usize);
		w16(p, 28, 8);
		w32(p, 42, loff[shared ? 0 : i]);
		gd_fmt((char *)p + 46, 9, "l%05d.so", i);
	}
	p = zb_take(z, 22);
	w32(p, 0, 0x06054b50);
	w16(p, 8, (uint16_t)members);
	w16(p, 10, (uint16_t)members);
	w32(p, 12, (uint32_t)(z->n - 22 - cd));
	w32(p, 16, (uint32_t)cd);
	free(raw);
	free(comp);
	free(loff);
}

struct seen {
	int ok, errors;
	char last[80];
};

static int count(void *arg, const struct gd_zip_member *m,
		 const struct gd_zip_names *names, const char *why)
{
	struct seen *s = arg;

	(void)names;
	(void)m;
	if (why) {
		s->errors++;
		gd_strlcpy(s->last, why, sizeof s->last);
	} else {
		s->ok++;
	}
	return 0;
}

static int all(const char *n)
{
	(void)n;
	return 1;
}

static void test_shared_header(void)
{
	struct zbuf z;
	struct seen s = {0};
	char err[200] = "";
	double t0 = gd_now();

	/* the reproducer's shape: 60,000 entries, one 64 KB member */
	make(&z, 60000, 65536, 1);
	CHECK_INT(gd_zip_walk(z.b, z.n, GD_ZIP_MAX_MEMBER, all, count, &s, err,
			      sizeof err),
		  -1);
	CHECK_STR(err, "zip members overlap or repeat (zip bomb?)");
	CHECK_INT(s.ok + s.errors, 0);
	CHECK(gd_now() - t0 < 2.0);
	free(z.b);
}

static void test_overlap(void)
{
	struct zbuf z;
	struct seen s = {0};
	char err[200] = "";

	/* two honest members, then the first one's size claims the second */
	make(&z, 2, 1000, 0);
	CHECK_INT(gd_zip_walk(z.b, z.n, GD_ZIP_MAX_MEMBER, all, count, &s, err,
			      sizeof err),
		  0);
	CHECK_INT(s.ok, 2);
	w32(z.b, z.n - 22 - 2 * 54 + 20, 200); /* first CD entry's csize */
	CHECK_INT(gd_zip_walk(z.b, z.n, GD_ZIP_MAX_MEMBER, all, count, &s, err,
			      sizeof err),
		  -1);
	CHECK(strstr(err, "overlap") != NULL);
	free(z.b);
}

static void test_total_cap(void)
{
	struct zbuf z;
	struct seen s = {0};
	char err[200] = "";

	CHECK_INT(gd_zip_total_cap(1000, 1 << 20), 1 << 20);
	CHECK_INT(gd_zip_total_cap(1u << 30, 1 << 20),
		  64ull << 30 > GD_ZIP_MAX_TOTAL ? GD_ZIP_MAX_TOTAL
						 : 64ull << 30);
	/* 8 members of 256 KB zeros (~300 bytes each): 2 MB from a ~3 KB
	 * archive; with a 1 MB member cap the archive may inflate 1 MB */
	make(&z, 8, 256 * 1024, 0);
	CHECK_INT(
	    gd_zip_walk(z.b, z.n, 1 << 20, all, count, &s, err, sizeof err), 0);
	CHECK_INT(s.ok, 4);
	CHECK_INT(s.errors, 4);
	CHECK_STR(s.last, "archive inflates past its total cap (zip bomb?)");
	free(z.b);
}

static void test_names(void)
{
	const char *n[] = {"pkg/B.dll", "a/x.so", "pkg.libs/b.DLL", "z/x.so",
			   "c.so"};
	struct gd_zip_names ix;
	size_t first, cnt;

	CHECK_INT(gd_zip_names_init(&ix, n, 5), 0);
	CHECK(gd_zip_names_has(&ix, "z/x.so"));
	CHECK(gd_zip_names_has(&ix, "c.so"));
	CHECK(!gd_zip_names_has(&ix, "x.so"));
	cnt = gd_zip_names_base(&ix, "b.dll", &first);
	CHECK_INT(cnt, 2);
	if (cnt == 2) {
		CHECK_STR(ix.base[first], "pkg.libs/b.DLL");
		CHECK_STR(ix.base[first + 1], "pkg/B.dll");
	}
	CHECK_INT(gd_zip_names_base(&ix, "x.so", &first), 2);
	CHECK_INT(gd_zip_names_base(&ix, "nope", &first), 0);
	gd_zip_names_free(&ix);
	CHECK_INT(gd_zip_names_init(&ix, NULL, 0), 0);
	CHECK(!gd_zip_names_has(&ix, "a"));
	CHECK_INT(gd_zip_names_base(&ix, "a", &first), 0);
	gd_zip_names_free(&ix);
}

int main(void)
{
	test_shared_header();
	test_overlap();
	test_total_cap();
	test_names();
	return t_done("test_zip_hostile");
}
