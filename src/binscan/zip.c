/* Zip archives (Python wheels, .zip): the central directory is walked and
 * each wanted member is handed over in place (stored) or inflated into
 * memory under caps (deflate). Nothing is written to disk.
 * Layouts from PKWARE APPNOTE.TXT 6.3: end of central directory record
 * (4.3.16), zip64 end of central directory locator/record (4.3.14-15),
 * central directory file header (4.3.12), local file header (4.3.7), zip64
 * extended information extra field 0x0001 (4.5.3).
 * Bombs: a member is inflated only when its declared size is under the cap
 * and its ratio is one deflate can reach (~1032:1); output never exceeds
 * the declared size, so a lying header costs at most the cap. */
#include <stdlib.h>
#include <string.h>
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
		if (p >= 20 && !gd_bs_rd32(b, n, p - 20, &loc) && loc == SIG_Z64LOC &&
		    !gd_bs_rd64(b, n, p - 12, &z64) &&
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
			if (*usize == 0xffffffffu && !gd_bs_rd64(b, n, q, usize))
				q += 8;
			if (*csize == 0xffffffffu && !gd_bs_rd64(b, n, q, csize))
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
	    gd_bs_rd16(b, n, loff + 26, &nl) || gd_bs_rd16(b, n, loff + 28, &xl))
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

static char **collect_names(const uint8_t *b, size_t n, uint64_t cd,
			    uint64_t cnt)
{
	char **names = calloc(cnt + 1, sizeof *names);
	uint64_t p = cd;

	for (uint64_t i = 0; names && i < cnt; i++) {
		uint32_t sig;
		uint16_t nl, xl, cl;

		if (gd_bs_rd32(b, n, p, &sig) || sig != SIG_CDH ||
		    gd_bs_rd16(b, n, p + 28, &nl) || gd_bs_rd16(b, n, p + 30, &xl) ||
		    gd_bs_rd16(b, n, p + 32, &cl) || !gd_bs_in(n, p + 46, nl))
			break;
		names[i] = strndup((const char *)b + p + 46, nl);
		p += 46 + (uint64_t)nl + xl + cl;
	}
	return names;
}

static void free_names(char **names)
{
	for (size_t i = 0; names && names[i]; i++)
		free(names[i]);
	free(names);
}

int gd_zip_walk(const uint8_t *b, size_t n, uint64_t max_member,
		int (*want)(const char *name), gd_zip_fn fn, void *arg,
		char *err, size_t errcap)
{
	uint64_t cd, cnt, p;
	char **names;
	size_t nn = 0;
	int rc = 0;

	if (find_cd(b, n, &cd, &cnt))
		return fail(err, errcap, "no zip end-of-central-directory record (truncated?)");
	if (cnt > GD_ZIP_MAX_ENTRIES || !gd_bs_in(n, cd, cnt * 46))
		return fail(err, errcap, "zip central directory outside the archive");
	names = collect_names(b, n, cd, cnt);
	if (!names)
		return fail(err, errcap, "out of memory");
	while (names[nn])
		nn++;
	p = cd;
	for (size_t i = 0; i < nn && rc >= 0; i++) {
		uint16_t flags, method, nl, xl, cl;
		uint32_t c32, u32, o32;
		uint64_t csize, usize, loff;
		struct gd_zip_member m = {names[i], NULL, 0, 0};
		const char *why = NULL;

		gd_bs_rd16(b, n, p + 8, &flags);
		gd_bs_rd16(b, n, p + 10, &method);
		gd_bs_rd32(b, n, p + 20, &c32);
		gd_bs_rd32(b, n, p + 24, &u32);
		gd_bs_rd16(b, n, p + 28, &nl);
		gd_bs_rd16(b, n, p + 30, &xl);
		gd_bs_rd16(b, n, p + 32, &cl);
		gd_bs_rd32(b, n, p + 42, &o32);
		csize = c32, usize = u32, loff = o32;
		zip64_extra(b, n, p + 46 + nl, xl, &usize, &csize, &loff);
		p += 46 + (uint64_t)nl + xl + cl;
		if (!want(names[i]))
			continue;
		if (flags & 1)
			why = "encrypted member";
		else
			why = member_data(b, n, method, loff, csize, usize,
					  max_member, &m);
		rc = fn(arg, &m, (const char *const *)names, nn, why);
		if (m.inflated)
			free((void *)m.data);
	}
	free_names(names);
	return rc < 0 ? -1 : 0;
}
