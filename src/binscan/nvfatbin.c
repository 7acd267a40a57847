/* NVIDIA fatbin containers (.nv_fatbin, __nv_relfatbin, .fatbin files).
 * NVIDIA does not document the format; the layout below is the one used by
 * n-eiling/cuda-fatbin-decompression (fatbin-decompress.h) and
 * jiegec/fatbinary (src/lib.rs), checked against nvcc 13.0 output and
 * cuobjdump (the oracle):
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
 * Only entry headers are read: listing targets never needs the payload. */
#include <string.h>

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

static int entry(const uint8_t *b, size_t n, uint64_t q, uint64_t end,
		 struct gd_bs_file *f, uint64_t *next, char *err, size_t errcap)
{
	uint16_t kind, minor, major;
	uint32_t hs, arch;
	uint64_t size, flags;
	char name[32];
	const char *sfx;
	struct gd_bs_target *t;

	if (gd_bs_rd16(b, n, q, &kind) || gd_bs_rd32(b, n, q + 4, &hs) ||
	    gd_bs_rd64(b, n, q + 8, &size) || gd_bs_rd16(b, n, q + 24, &minor) ||
	    gd_bs_rd16(b, n, q + 26, &major) || gd_bs_rd32(b, n, q + 28, &arch) ||
	    gd_bs_rd64(b, n, q + 40, &flags))
		return fail(err, errcap, "truncated fatbin entry header");
	if (hs < 64 || hs > 4096 || size > end || q + hs > end - size)
		return fail(err, errcap, "fatbin entry size points outside its container");
	*next = q + hs + size;
	if (kind != 1 && kind != 2)
		return 0; /* LTO-IR and other kinds: not runnable code */
	if (arch > 10000)
		return fail(err, errcap, "fatbin entry with an implausible arch");
	sfx = (flags & FL_ARCH_SPECIFIC) ? "a" : (flags & FL_FAMILY) ? "f" : "";
	gd_fmt(name, sizeof name, "%s_%u%s", kind == 2 ? "sm" : "compute", arch, sfx);
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

static int container(const uint8_t *b, size_t n, uint64_t p,
		     struct gd_bs_file *f, uint64_t *next, char *err,
		     size_t errcap)
{
	uint16_t ver, hs;
	uint64_t size, q, end;

	if (gd_bs_rd16(b, n, p + 4, &ver) || gd_bs_rd16(b, n, p + 6, &hs) ||
	    gd_bs_rd64(b, n, p + 8, &size))
		return fail(err, errcap, "truncated fatbin header");
	if (hs < 16 || !gd_bs_in(n, p, hs) || !gd_bs_in(n, p + hs, size))
		return fail(err, errcap, "fatbin size points outside the data (truncated?)");
	q = p + hs;
	end = q + size;
	while (q + 64 <= end) {
		if (entry(b, n, q, end, f, &q, err, errcap))
			return -1;
	}
	*next = end;
	return 0;
}

int gd_nvfatbin_scan(const uint8_t *b, size_t n, struct gd_bs_file *f,
		     char *err, size_t errcap)
{
	static const uint8_t magic[4] = {0x50, 0xed, 0x55, 0xba};
	uint64_t p = 0;
	size_t found = 0;

	while (p < n) {
		const uint8_t *m = memmem(b + p, n - p, magic, 4);

		if (!m)
			break;
		p = (uint64_t)(m - b);
		if (container(b, n, p, f, &p, err, errcap))
			return -1;
		found++;
	}
	if (!found)
		return fail(err, errcap, "no fatbin container found");
	return 0;
}
