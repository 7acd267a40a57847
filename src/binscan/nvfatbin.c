/* NVIDIA fatbin containers (.nv_fatbin, __nv_relfatbin, .fatbin files).
 * NVIDIA does not document the format; the layout below is the one two
 * open readers use (docs/scan.md, "Sources"), checked against nvcc 13.0
 * output and cuobjdump (the oracle):
 *   container: u32 magic 0xBA55ED50, u16 version 1, u16 header size (16),
 *              u64 size of the entries that follow.
 *   entry:     u16 kind (1 PTX, 2 ELF/cubin, 4 LTO-IR), u16 ?, u32 header
 *              size (64, 80, 96, 112...), u64 payload size, u32 compressed
 *              size, u32 ?, u16 minor, u16 major (PTX ISA of a PTX entry),
 *              u32 arch (90 = sm_90), u32 name offset, u32 name length,
 *              u64 flags, u64 0, u64 uncompressed size.
 *   flags:     0x1 64-bit, 0x2 debug, 0x10 linux, 0x2000 compressed (LZ4),
 *              0x8000 compressed (CUDA 12.8+ -compress-mode), 0x100000
 *              arch-specific ("sm_90a"), 0x200000 family ("sm_100f")
 *              (the last two measured with nvcc 13.0 -gencode ...a / ...f).
 * Only entry headers are read: listing targets never needs the payload,
 * and a file's section is read with pread, so its pages are never mapped. */
#include <string.h>
#include <unistd.h>

#include "binscan.h"

#define FATBIN_MAGIC 0xBA55ED50u
#define FL_COMPRESS_LZ4 0x2000ull
#define FL_COMPRESS_NEW 0x8000ull
#define FL_ARCH_SPECIFIC 0x100000ull
#define FL_FAMILY 0x200000ull

static int fail(char *err, size_t cap, const char *msg)
{
	if (err)
		gd_strlcpy(err, msg, cap);
	return -1;
}

/* Where the bytes come from: a buffer, or a file read with pread (a
 * 400 MB section is walked by its headers without mapping its pages). */
struct src {
	const uint8_t *b;
	int fd;
	uint64_t base, n;
};

static int rd(const struct src *s, uint64_t off, void *buf, size_t len)
{
	if (!gd_bs_in(s->n, off, len))
		return -1;
	if (s->b) {
		memcpy(buf, s->b + off, len);
		return 0;
	}
	return pread(s->fd, buf, len, (off_t)(s->base + off)) == (ssize_t)len
		   ? 0
		   : -1;
}

static int entry(const struct src *s, uint64_t q, uint64_t end,
		 struct gd_bs_file *f, uint64_t *next, char *err, size_t errcap)
{
	uint8_t h[64];
	uint16_t kind, minor, major;
	uint32_t hs, arch;
	uint64_t size, flags;
	char name[32];
	const char *sfx;
	struct gd_bs_target *t;

	if (q + 64 > end || rd(s, q, h, sizeof h))
		return fail(err, errcap, "truncated fatbin entry header");
	gd_bs_rd16(h, 64, 0, &kind);
	gd_bs_rd32(h, 64, 4, &hs);
	gd_bs_rd64(h, 64, 8, &size);
	gd_bs_rd16(h, 64, 24, &minor);
	gd_bs_rd16(h, 64, 26, &major);
	gd_bs_rd32(h, 64, 28, &arch);
	gd_bs_rd64(h, 64, 40, &flags);
	if (hs < 64 || hs > 4096 || size > end || q + hs > end - size)
		return fail(err, errcap,
			    "fatbin entry size points outside its container");
	*next = q + hs + size;
	if (kind != 1 && kind != 2)
		return 0; /* LTO-IR and other kinds: not runnable code */
	if (arch > 10000)
		return fail(err, errcap,
			    "fatbin entry with an implausible arch");
	sfx = (flags & FL_ARCH_SPECIFIC) ? "a" : (flags & FL_FAMILY) ? "f" : "";
	gd_fmt(name, sizeof name, "%s_%u%s", kind == 2 ? "sm" : "compute", arch,
	       sfx);
	t = gd_bs_add_target(f, kind == 2 ? GD_BS_SASS : GD_BS_PTX, name, "",
			     "fatbin");
	if (!t)
		return fail(err, errcap, "out of memory");
	if (flags & (FL_COMPRESS_LZ4 | FL_COMPRESS_NEW))
		t->compressed = 1;
	if (kind == 1 && (major > t->ptx_major ||
			  (major == t->ptx_major && minor > t->ptx_minor))) {
		t->ptx_major = major;
		t->ptx_minor = minor;
	}
	return 0;
}

static int container(const struct src *s, uint64_t p, struct gd_bs_file *f,
		     uint64_t *next, char *err, size_t errcap)
{
	uint8_t h[16];
	uint16_t hs;
	uint64_t size, q, end;

	if (rd(s, p, h, sizeof h))
		return fail(err, errcap, "truncated fatbin header");
	gd_bs_rd16(h, 16, 6, &hs);
	gd_bs_rd64(h, 16, 8, &size);
	if (hs < 16 || !gd_bs_in(s->n, p, hs) || !gd_bs_in(s->n, p + hs, size))
		return fail(err, errcap,
			    "fatbin size points outside the data (truncated?)");
	q = p + hs;
	end = q + size;
	while (q + 64 <= end) {
		if (entry(s, q, end, f, &q, err, errcap))
			return -1;
	}
	*next = end;
	return 0;
}

/* Next container magic at or after *p, through 4 KiB windows (between
 * containers there is only alignment padding). */
static int next_magic(const struct src *s, uint64_t *p)
{
	static const uint8_t magic[4] = {0x50, 0xed, 0x55, 0xba};
	uint8_t w[4096];

	while (*p + 4 <= s->n) {
		size_t len =
		    s->n - *p < sizeof w ? (size_t)(s->n - *p) : sizeof w;
		const uint8_t *m;

		if (rd(s, *p, w, len))
			return -1;
		m = memmem(w, len, magic, 4);
		if (m) {
			*p += (uint64_t)(m - w);
			return 0;
		}
		*p += len - 3;
	}
	return -1;
}

static int walk(const struct src *s, struct gd_bs_file *f, char *err,
		size_t errcap)
{
	uint64_t p = 0;
	size_t found = 0;

	while (!next_magic(s, &p)) {
		if (container(s, p, f, &p, err, errcap))
			return -1;
		found++;
	}
	if (!found)
		return fail(err, errcap, "no fatbin container found");
	return 0;
}

int gd_nvfatbin_scan(const uint8_t *b, size_t n, struct gd_bs_file *f,
		     char *err, size_t errcap)
{
	struct src s = {b, -1, 0, n};

	return walk(&s, f, err, errcap);
}

int gd_nvfatbin_scan_fd(int fd, uint64_t off, uint64_t n, struct gd_bs_file *f,
			char *err, size_t errcap)
{
	struct src s = {NULL, fd, off, n};

	return walk(&s, f, err, errcap);
}
