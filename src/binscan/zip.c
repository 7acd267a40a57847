/* Zip archives (Python wheels, .zip): the central directory is walked and
 * each wanted member is handed over in place (stored) or inflated into
 * memory under caps (deflate). Nothing is written to disk.
 * Layouts from PKWARE APPNOTE.TXT 6.3: end of central directory record
 * (4.3.16), zip64 end of central directory locator/record (4.3.14-15),
 * central directory file header (4.3.12), local file header (4.3.7), zip64
 * extended information extra field 0x0001 (4.5.3).
 * Bombs: a member is inflated only when its declared size is under the cap
 * and its ratio is one deflate can reach (~1032:1); output never exceeds
 * the declared size, so a lying header costs at most the cap. Members that
 * overlap or share a local header (Fifield's "better zip bomb": 60,000
 * central-directory entries over one 36 KB member kept scan busy for
 * minutes) refuse the archive, and the inflated bytes of all members
 * together are capped (gd_zip_total_cap). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

#include "binscan.h"

#define SIG_EOCD 0x06054b50u
#define SIG_Z64LOC 0x07064b50u
#define SIG_Z64EOCD 0x06064b50u
#define SIG_CDH 0x02014b50u
#define SIG_LFH 0x04034b50u

static int fail(char *err, size_t cap, const char *msg)
{
	if (err)
		gd_strlcpy(err, msg, cap);
	return -1;
}

static int find_cd(const uint8_t *b, size_t n, uint64_t *cd, uint64_t *cnt)
{
	size_t lo = n > 65557 ? n - 65557 : 0;
	uint32_t sig;

	if (n < 22)
		return -1;
	for (size_t p = n - 22 + 1; p-- > lo;) {
		uint16_t c16;
		uint32_t off32, loc;
		uint64_t z64;

		if (gd_bs_rd32(b, n, p, &sig) || sig != SIG_EOCD)
			continue;
		gd_bs_rd16(b, n, p + 10, &c16);
		gd_bs_rd32(b, n, p + 16, &off32);
		*cnt = c16;
		*cd = off32;
		if (p >= 20 && !gd_bs_rd32(b, n, p - 20, &loc) &&
		    loc == SIG_Z64LOC && !gd_bs_rd64(b, n, p - 12, &z64) &&
		    !gd_bs_rd32(b, n, z64, &sig) && sig == SIG_Z64EOCD) {
			gd_bs_rd64(b, n, z64 + 32, cnt);
			gd_bs_rd64(b, n, z64 + 48, cd);
		}
		return 0;
	}
	return -1;
}

/* Zip64 extra field: replaces the 0xFFFFFFFF fields, in order. */
static void zip64_extra(const uint8_t *b, size_t n, uint64_t x, uint16_t xlen,
			uint64_t *usize, uint64_t *csize, uint64_t *loff)
{
	uint64_t end = x + xlen;

	while (x + 4 <= end) {
		uint16_t id, len;
		uint64_t q;

		if (gd_bs_rd16(b, n, x, &id) || gd_bs_rd16(b, n, x + 2, &len))
			return;
		if (id == 1) {
			q = x + 4;
			if (*usize == 0xffffffffu &&
			    !gd_bs_rd64(b, n, q, usize))
				q += 8;
			if (*csize == 0xffffffffu &&
			    !gd_bs_rd64(b, n, q, csize))
				q += 8;
			if (*loff == 0xffffffffu)
				gd_bs_rd64(b, n, q, loff);
			return;
		}
		x += 4 + (uint64_t)len;
	}
}

static const char *inflate_member(const uint8_t *src, uint64_t csize,
				  uint64_t usize, uint8_t **out, size_t *len)
{
	z_stream z;
	uint8_t *buf;
	int r;

	*out = NULL;
	if (csize > UINT32_MAX || usize > UINT32_MAX)
		return "member larger than the inflate cap";
	buf = malloc(usize ? usize : 1);
	if (!buf)
		return "out of memory";
	memset(&z, 0, sizeof z);
	if (inflateInit2(&z, -15) != Z_OK) {
		free(buf);
		return "zlib init failed";
	}
	z.next_in = (Bytef *)src;
	z.avail_in = (uInt)csize;
	z.next_out = buf;
	z.avail_out = (uInt)usize;
	r = inflate(&z, Z_FINISH);
	*len = z.total_out;
	inflateEnd(&z);
	if (r == Z_STREAM_END) {
		*out = buf;
		return NULL;
	}
	free(buf);
	if (z.avail_out == 0)
		return "member inflates past its declared size (zip bomb?)";
	return "corrupt deflate data";
}

static const char *member_data(const uint8_t *b, size_t n, uint16_t method,
			       uint64_t loff, uint64_t csize, uint64_t usize,
			       uint64_t max, struct gd_zip_member *m)
{
	uint32_t sig;
	uint16_t nl, xl;
	uint64_t d;
	uint8_t *buf;
	const char *why;

	if (gd_bs_rd32(b, n, loff, &sig) || sig != SIG_LFH ||
	    gd_bs_rd16(b, n, loff + 26, &nl) ||
	    gd_bs_rd16(b, n, loff + 28, &xl))
		return "local header outside the archive (truncated?)";
	d = loff + 30 + nl + xl;
	if (!gd_bs_in(n, d, csize))
		return "member data outside the archive (truncated?)";
	if (method == 0) {
		m->data = b + d;
		m->len = (size_t)csize;
		return NULL;
	}
	if (method != 8)
		return "compression method not supported";
	if (usize > max)
		return "member larger than the inflate cap";
	if (usize / GD_ZIP_MAX_RATIO > csize + 1)
		return "compression ratio impossible for deflate (zip bomb)";
	why = inflate_member(b + d, csize, usize, &buf, &m->len);
	if (why)
		return why;
	m->data = buf;
	m->inflated = 1;
	return NULL;
}

/* One central-directory entry. */
struct zent {
	char *name;
	uint64_t loff, csize, usize;
	uint64_t end; /* where its local header + data end */
	uint16_t flags, method;
};

/* Reads cnt central-directory entries from cd. Returns how many were read
 * (fewer when one is cut off); *ents is malloc'd, names too. */
static size_t read_entries(const uint8_t *b, size_t n, uint64_t cd,
			   uint64_t cnt, struct zent **ents)
{
	struct zent *v = calloc(cnt ? cnt : 1, sizeof *v);
	uint64_t p = cd;
	size_t k = 0;

	*ents = v;
	for (uint64_t i = 0; v && i < cnt; i++) {
		struct zent *e = &v[k];
		uint32_t sig, c32, u32, o32;
		uint16_t nl, xl, cl, lnl, lxl;

		if (gd_bs_rd32(b, n, p, &sig) || sig != SIG_CDH ||
		    gd_bs_rd16(b, n, p + 28, &nl) ||
		    gd_bs_rd16(b, n, p + 30, &xl) ||
		    gd_bs_rd16(b, n, p + 32, &cl) || !gd_bs_in(n, p + 46, nl))
			break;
		if (!(e->name = strndup((const char *)b + p + 46, nl)))
			break;
		gd_bs_rd16(b, n, p + 8, &e->flags);
		gd_bs_rd16(b, n, p + 10, &e->method);
		gd_bs_rd32(b, n, p + 20, &c32);
		gd_bs_rd32(b, n, p + 24, &u32);
		gd_bs_rd32(b, n, p + 42, &o32);
		e->csize = c32, e->usize = u32, e->loff = o32;
		zip64_extra(b, n, p + 46 + nl, xl, &e->usize, &e->csize,
			    &e->loff);
		e->end = e->loff + 30;
		if (!gd_bs_rd16(b, n, e->loff + 26, &lnl) &&
		    !gd_bs_rd16(b, n, e->loff + 28, &lxl) &&
		    e->csize <= n) /* no wrap-around on a huge csize */
			e->end = e->loff + 30 + lnl + lxl + e->csize;
		p += 46 + (uint64_t)nl + xl + cl;
		k++;
	}
	return k;
}

static void free_entries(struct zent *v, size_t nn)
{
	for (size_t i = 0; v && i < nn; i++)
		free(v[i].name);
	free(v);
}

static int cmp_loff(const void *a, const void *b)
{
	const struct zent *x = *(const struct zent *const *)a;
	const struct zent *y = *(const struct zent *const *)b;

	return (x->loff > y->loff) - (x->loff < y->loff);
}

/* 1 when two members share bytes: a local header named twice, or one
 * member's data running into the next one's header. A zip writer never
 * does that; bombs do, to inflate the same bytes many times. */
static int overlapping(struct zent *v, size_t nn)
{
	struct zent **o = malloc((nn ? nn : 1) * sizeof *o);
	int bad = 0;

	if (!o)
		return 1;
	for (size_t i = 0; i < nn; i++)
		o[i] = &v[i];
	qsort(o, nn, sizeof *o, cmp_loff);
	for (size_t i = 1; i < nn && !bad; i++)
		bad = o[i]->loff < o[i - 1]->end;
	free(o);
	return bad;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static const char *basename_of(const char *s)
{
	const char *sl = strrchr(s, '/');

	return sl ? sl + 1 : s;
}

static int cmp_base(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	int c = strcasecmp(basename_of(x), basename_of(y));

	return c ? c : strcmp(x, y);
}

int gd_zip_names_init(struct gd_zip_names *ix, const char *const *names,
		      size_t n)
{
	ix->n = n;
	ix->v = malloc((n ? n : 1) * sizeof *ix->v);
	ix->base = malloc((n ? n : 1) * sizeof *ix->base);
	if (!ix->v || !ix->base) {
		gd_zip_names_free(ix);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		ix->v[i] = ix->base[i] = names[i];
	qsort(ix->v, n, sizeof *ix->v, cmp_str);
	qsort(ix->base, n, sizeof *ix->base, cmp_base);
	return 0;
}

void gd_zip_names_free(struct gd_zip_names *ix)
{
	free(ix->v);
	free(ix->base);
	ix->v = ix->base = NULL;
	ix->n = 0;
}

int gd_zip_names_has(const struct gd_zip_names *ix, const char *name)
{
	return ix->n && bsearch(&name, ix->v, ix->n, sizeof *ix->v, cmp_str);
}

size_t gd_zip_names_base(const struct gd_zip_names *ix, const char *base,
			 size_t *first)
{
	size_t lo = 0, hi = ix->n, k;

	while (lo < hi) { /* first basename >= base */
		size_t mid = lo + (hi - lo) / 2;

		if (strcasecmp(basename_of(ix->base[mid]), base) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = lo;
	for (k = lo; k < ix->n && !strcasecmp(basename_of(ix->base[k]), base);)
		k++;
	return k - lo;
}

uint64_t gd_zip_total_cap(size_t n, uint64_t max_member)
{
	uint64_t cap = (uint64_t)n * GD_ZIP_TOTAL_RATIO;

	if (cap < max_member)
		cap = max_member;
	return cap < GD_ZIP_MAX_TOTAL ? cap : GD_ZIP_MAX_TOTAL;
}

/* One wanted member: its bytes under the per-member and what is left of
 * the per-archive cap (*budget). */
static const char *member_bytes(const uint8_t *b, size_t n,
				const struct zent *e, uint64_t max,
				uint64_t *budget, struct gd_zip_member *m)
{
	const char *why;

	if (e->flags & 1)
		return "encrypted member";
	if (e->method == 8 && e->usize <= max && e->usize > *budget)
		return "archive inflates past its total cap (zip bomb?)";
	why = member_data(b, n, e->method, e->loff, e->csize, e->usize, max, m);
	if (!why && m->inflated)
		*budget -= m->len < *budget ? m->len : *budget;
	return why;
}

static int walk_entries(const uint8_t *b, size_t n, struct zent *v, size_t nn,
			uint64_t max, int (*want)(const char *), gd_zip_fn fn,
			void *arg, const struct gd_zip_names *ix)
{
	uint64_t budget = gd_zip_total_cap(n, max);
	int rc = 0;

	for (size_t i = 0; i < nn && rc >= 0; i++) {
		struct gd_zip_member m = {v[i].name, NULL, 0, 0};
		const char *why;

		if (!want(v[i].name))
			continue;
		why = member_bytes(b, n, &v[i], max, &budget, &m);
		rc = fn(arg, &m, ix, why);
		if (m.inflated)
			free((void *)m.data);
	}
	return rc;
}

int gd_zip_walk(const uint8_t *b, size_t n, uint64_t max_member,
		int (*want)(const char *name), gd_zip_fn fn, void *arg,
		char *err, size_t errcap)
{
	uint64_t cd, cnt;
	struct gd_zip_names ix;
	struct zent *v;
	const char **names;
	size_t nn;
	int rc;

	if (find_cd(b, n, &cd, &cnt))
		return fail(
		    err, errcap,
		    "no zip end-of-central-directory record (truncated?)");
	if (cnt > GD_ZIP_MAX_ENTRIES || !gd_bs_in(n, cd, cnt * 46))
		return fail(err, errcap,
			    "zip central directory outside the archive");
	nn = read_entries(b, n, cd, cnt, &v);
	if (!v)
		return fail(err, errcap, "out of memory");
	if (overlapping(v, nn)) {
		free_entries(v, nn);
		return fail(err, errcap,
			    "zip members overlap or repeat (zip bomb?)");
	}
	names = calloc(nn ? nn : 1, sizeof *names);
	if (names)
		for (size_t i = 0; i < nn; i++)
			names[i] = v[i].name;
	if (!names || gd_zip_names_init(&ix, names, nn) < 0) {
		free(names);
		free_entries(v, nn);
		return fail(err, errcap, "out of memory");
	}
	free(names);
	rc = walk_entries(b, n, v, nn, max_member, want, fn, arg, &ix);
	gd_zip_names_free(&ix);
	free_entries(v, nn);
	return rc < 0 ? -1 : 0;
}
