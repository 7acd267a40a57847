/* Clang offload bundles, as written by clang-offload-bundler into the
 * .hip_fatbin section of HIP programs and libraries.
 *
 * Layouts (sources: docs/scan.md, "Sources"). Uncompressed:
 *   "__CLANG_OFFLOAD_BUNDLE__" (24 bytes), u64 NumberOfEntries, then per
 *   entry u64 Offset, u64 Size, u64 TripleSize, TripleSize bytes of the
 *   bundle entry ID ("hipv4-amdgcn-amd-amdhsa--gfx1030:xnack-"); offsets
 *   are relative to the start of the bundle.
 * Compressed (LLVM 17+):
 *   CommonFields: u32 Magic "CCOB", u16 Version, u16 Method
 *     (llvm::compression::Format: 0 = zlib, 1 = zstd)
 *   V1: Common, u32 UncompressedFileSize, u64 Hash                (20 bytes)
 *   V2: Common, u32 FileSize, u32 UncompressedFileSize, u64 Hash  (24 bytes)
 *   V3: Common, u64 FileSize, u64 UncompressedFileSize, u64 Hash  (32 bytes)
 *   followed by the compressed uncompressed-format bundle. FileSize is the
 *   whole compressed bundle including its header.
 * Listing targets needs only the entry table at the start of the
 * decompressed bundle, so only a prefix is decompressed (at most 16 MiB,
 * whatever the header claims): a decompression bomb costs nothing. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "binscan.h"

#define MAGIC "__CLANG_OFFLOAD_BUNDLE__"
#define MAGIC_LEN 24
#define PREFIX_MAX (16u * 1024 * 1024)

static int fail(char *err, size_t cap, const char *msg)
{
	if (err)
		gd_strlcpy(err, msg, cap);
	return -1;
}

/* "hipv4-amdgcn-amd-amdhsa--gfx1030:xnack-" -> "gfx1030", "xnack-". */
static int parse_id(const char *id, size_t len, enum gd_bs_kind *kind,
		    char *target, size_t tcap, char *feat, size_t fcap)
{
	char buf[256];
	const char *p, *t, *colon;

	if (len >= sizeof buf)
		return -1;
	memcpy(buf, id, len);
	buf[len] = '\0';
	if ((p = strstr(buf, "amdgcn-amd-amdhsa"))) {
		*kind = GD_BS_AMDGCN;
		p += strlen("amdgcn-amd-amdhsa");
		t = strstr(p, "gfx");
		if (!t)
			return -1;
	} else if ((p = strstr(buf, "nvptx64-nvidia-cuda"))) {
		*kind = GD_BS_SASS;
		t = strstr(p, "sm_");
		if (!t)
			return -1;
	} else {
		return -1; /* host entry or unknown device */
	}
	colon = strchr(t, ':');
	if (colon) {
		gd_strlcpy(feat, colon + 1, fcap);
		gd_fmt(target, tcap, "%.*s", (int)(colon - t), t);
	} else {
		feat[0] = '\0';
		gd_strlcpy(target, t, tcap);
	}
	return 0;
}

/* Parse the entry table. Returns 0, 1 when the prefix is too short (need
 * more bytes), -1 on malformed data. *end gets the extent of the bundle
 * (max offset+size) when the data is the real (uncompressed) bundle. */
static int parse_table(const uint8_t *b, size_t n, struct gd_bs_file *f,
		       const char *container, int compressed, uint64_t *end,
		       char *err, size_t errcap)
{
	uint64_t cnt, o = MAGIC_LEN + 8, ext = 0;

	if (n < MAGIC_LEN + 8)
		return 1;
	if (memcmp(b, MAGIC, MAGIC_LEN))
		return fail(err, errcap, "bad offload bundle magic");
	gd_bs_rd64(b, n, MAGIC_LEN, &cnt);
	if (cnt == 0 || cnt > 65536)
		return fail(err, errcap,
			    "offload bundle with an implausible entry count");
	/* Pass 0 checks the whole table, pass 1 records: a short prefix never
	 * leaves half a table behind. */
	for (int pass = 0; pass < 2; pass++, o = MAGIC_LEN + 8)
		for (uint64_t i = 0; i < cnt; i++) {
			uint64_t off, size, tlen;
			enum gd_bs_kind kind;
			char target[64], feat[64];
			struct gd_bs_target *t;

			if (gd_bs_rd64(b, n, o, &off) ||
			    gd_bs_rd64(b, n, o + 8, &size) ||
			    gd_bs_rd64(b, n, o + 16, &tlen))
				return 1;
			if (tlen > 4096)
				return fail(err, errcap,
					    "offload bundle entry ID too long");
			if (!gd_bs_in(n, o + 24, tlen))
				return 1;
			if (off + size < off)
				return fail(err, errcap,
					    "offload bundle entry overflows");
			if (off + size > ext)
				ext = off + size;
			if (pass &&
			    !parse_id((const char *)b + o + 24, (size_t)tlen,
				      &kind, target, sizeof target, feat,
				      sizeof feat)) {
				t = gd_bs_add_target(f, kind, target, feat,
						     container);
				if (!t)
					return fail(err, errcap,
						    "out of memory");
				t->compressed = compressed;
				if (!compressed && gd_bs_in(n, off, size)) {
					char g[40], ft[40];

					gd_amdgpu_co_target(
					    b + off, (size_t)size, g, sizeof g,
					    ft, sizeof ft, &t->co_version);
				}
			}
			o += 24 + tlen;
		}
	*end = ext;
	return 0;
}

/* Decompress at most want bytes of the start of the stream. */
static int prefix(int method, const uint8_t *src, size_t slen, uint8_t *dst,
		  size_t want, size_t *got)
{
	*got = 0;
	if (method == 1) {
		ZSTD_DStream *z = ZSTD_createDStream();
		ZSTD_inBuffer in = {src, slen, 0};
		ZSTD_outBuffer out = {dst, want, 0};
		size_t r = 0;

		if (!z)
			return -1;
		ZSTD_initDStream(z);
		while (out.pos < want && in.pos < in.size) {
			r = ZSTD_decompressStream(z, &out, &in);
			if (ZSTD_isError(r) || r == 0)
				break;
		}
		ZSTD_freeDStream(z);
		*got = out.pos;
		return ZSTD_isError(r) ? -1 : 0;
	} else {
		z_stream z;
		int r;

		memset(&z, 0, sizeof z);
		if (inflateInit(&z) != Z_OK)
			return -1;
		z.next_in = (Bytef *)src;
		z.avail_in = slen > UINT32_MAX ? UINT32_MAX : (uInt)slen;
		z.next_out = dst;
		z.avail_out = (uInt)want;
		r = inflate(&z, Z_SYNC_FLUSH);
		*got = want - z.avail_out;
		inflateEnd(&z);
		return (r == Z_OK || r == Z_STREAM_END || r == Z_BUF_ERROR)
			   ? 0
			   : -1;
	}
}

static int scan_ccob(const uint8_t *b, size_t n, struct gd_bs_file *f,
		     uint64_t *used, char *err, size_t errcap)
{
	uint16_t ver, method;
	uint64_t total = 0, usize = 0, hs;
	uint32_t v32;
	uint8_t *buf = NULL, *nb;
	size_t want, got;
	int rc;

	if (gd_bs_rd16(b, n, 4, &ver) || gd_bs_rd16(b, n, 6, &method))
		return fail(err, errcap, "truncated compressed bundle header");
	if (ver == 1) {
		hs = 20;
		if (gd_bs_rd32(b, n, 8, &v32))
			return fail(err, errcap,
				    "truncated compressed bundle header");
		usize = v32;
	} else if (ver == 2) {
		hs = 24;
		if (gd_bs_rd32(b, n, 8, &v32))
			return fail(err, errcap,
				    "truncated compressed bundle header");
		total = v32;
		if (gd_bs_rd32(b, n, 12, &v32))
			return fail(err, errcap,
				    "truncated compressed bundle header");
		usize = v32;
	} else if (ver == 3) {
		hs = 32;
		if (gd_bs_rd64(b, n, 8, &total) || gd_bs_rd64(b, n, 16, &usize))
			return fail(err, errcap,
				    "truncated compressed bundle header");
	} else {
		return fail(err, errcap,
			    "unknown compressed bundle (CCOB) version");
	}
	if (method > 1)
		return fail(err, errcap, "unknown compressed bundle method");
	if (n < hs || (total && (total < hs || total > n)))
		return fail(err, errcap,
			    "compressed bundle size points outside the data");
	if (!total && method == 1) {
		size_t fs = ZSTD_findFrameCompressedSize(b + hs, n - hs);

		if (!ZSTD_isError(fs))
			total = hs + fs;
	}
	*used = total;
	(void)usize; /* the claim is never trusted for allocation */
	for (want = 64 * 1024;; want *= 4) {
		if (want > PREFIX_MAX)
			want = PREFIX_MAX;
		if (!(nb = realloc(buf, want))) {
			free(buf);
			return fail(err, errcap, "out of memory");
		}
		buf = nb;
		if (prefix(method, b + hs, (total ? total : n) - hs, buf, want,
			   &got)) {
			free(buf);
			return fail(err, errcap,
				    method ? "zstd: corrupt compressed bundle"
					   : "zlib: corrupt compressed bundle");
		}
		rc =
		    parse_table(buf, got, f, method ? "ccob-zstd" : "ccob-zlib",
				1, &hs, err, errcap);
		if (rc <= 0 || got < want || want == PREFIX_MAX)
			break;
	}
	free(buf);
	if (rc > 0)
		return fail(err, errcap,
			    "compressed bundle ends inside its entry table");
	return rc;
}

int gd_offload_bundle_scan(const uint8_t *b, size_t n, struct gd_bs_file *f,
			   uint64_t *used, char *err, size_t errcap)
{
	uint64_t end = 0;
	int rc;

	*used = 0;
	if (n >= 4 && !memcmp(b, "CCOB", 4))
		return scan_ccob(b, n, f, used, err, errcap);
	rc = parse_table(b, n, f, "offload-bundle", 0, &end, err, errcap);
	if (rc > 0)
		return fail(err, errcap, "truncated offload bundle");
	if (rc == 0 && end > n)
		return fail(err, errcap,
			    "offload bundle entry points outside the data");
	*used = end;
	return rc;
}

/* First bundle magic (plain or CCOB) in [p, p + len). */
static const uint8_t *next_magic(const uint8_t *p, size_t len)
{
	const uint8_t *a = memmem(p, len, MAGIC, MAGIC_LEN);
	const uint8_t *c = memmem(p, a ? (size_t)(a - p) : len, "CCOB", 4);

	return c ? c : a;
}

int gd_offload_bundles_scan(const uint8_t *b, size_t n, struct gd_bs_file *f,
			    char *err, size_t errcap)
{
	size_t pos = 0, found = 0;
	const uint8_t *m;
	char e1[200] = "";

	while (pos < n && (m = next_magic(b + pos, n - pos))) {
		uint64_t used = 0;
		size_t at = (size_t)(m - b);
		char e[200];

		if (gd_offload_bundle_scan(m, n - at, f, &used, e, sizeof e)) {
			if (!e1[0])
				gd_strlcpy(e1, e, sizeof e1);
			pos = at + 4; /* a false match inside data: go on */
			continue;
		}
		found++;
		if (!used)
			break; /* extent unknown (CCOB v1 zlib): rest is this
				  one */
		pos = at + (size_t)used;
	}
	if (!found)
		return fail(err, errcap,
			    e1[0] ? e1 : "no offload bundle in .hip_fatbin");
	return 0;
}
