/* gd_pe_slim (pe_slim.h): the few kilobytes of a PE file that gpudoctor
 * reads, as a smaller PE file. A Windows capture must not carry a 1 GB
 * torch_cuda.dll, yet its replay must see the same imports and version.
 *
 * Kept, in RVA space: the export directory and its DLL name, every import
 * and delay-load descriptor (the terminating one too) with its DLL name,
 * and the RT_VERSION resource (its three directory levels and the data).
 * Layout ("PE Format" spec): the original headers up to the end of the
 * optional header, COFF symbol pointers cleared (the string table is not
 * kept), then a new section table with one section per kept range (a piece
 * of an original section: its name and flags, VirtualAddress = the range's
 * RVA), then the ranges' bytes. Every RVA the readers follow maps to the
 * same bytes as in the original; everything else maps to nothing. File
 * offsets keep the RVA's alignment modulo 16, so the version signature
 * stays 4-byte aligned for gd_pe_version. */
#include "pe_slim.h"

#include <stdlib.h>
#include <string.h>

#include "binscan.h"

#define MAX_RANGES 8192
#define MAX_PIECES 64
#define NAME_MAX_LEN 128
#define VERSION_MAX (256u << 10)

struct range {
	uint32_t lo, hi; /* RVA, hi exclusive */
	int sect;
};

struct slim {
	const struct gd_pe *p;
	struct range *r;
	size_t n;
	int full;
};

static int sect_of(const struct gd_pe *p, uint32_t rva, struct gd_pe_sect *s)
{
	for (unsigned i = 0; i < p->nsect; i++) {
		uint32_t span;

		if (gd_pe_section(p, i, s))
			continue;
		span =
		    s->vsize && s->vsize < s->rawsize ? s->vsize : s->rawsize;
		if (rva >= s->va && rva - s->va < span)
			return (int)i;
	}
	return -1;
}

/* [rva, rva+len), clipped to its section's bytes in the file. */
static void add(struct slim *sl, uint32_t rva, uint32_t len)
{
	struct gd_pe_sect s;
	uint64_t off, avail;
	int i = sect_of(sl->p, rva, &s);

	if (i < 0 || !len || gd_pe_rva(sl->p, rva, &off, &avail))
		return;
	if (len > avail)
		len = (uint32_t)avail;
	if (sl->n >= MAX_RANGES) {
		sl->full = 1;
		return;
	}
	sl->r[sl->n++] = (struct range){rva, rva + len, i};
}

static void add_name(struct slim *sl, uint32_t rva)
{
	uint64_t off, avail;
	const uint8_t *z;

	if (gd_pe_rva(sl->p, rva, &off, &avail))
		return;
	if (avail > NAME_MAX_LEN)
		avail = NAME_MAX_LEN;
	z = memchr(sl->p->b + off, 0, avail);
	add(sl, rva,
	    z ? (uint32_t)(z - (sl->p->b + off)) + 1 : (uint32_t)avail);
}

/* Import (esize 20, name at 12) or delay-load (32, name at 4) table. */
static void table(struct slim *sl, uint32_t rva, unsigned esize,
		  unsigned name_at)
{
	static const uint8_t zero[32];

	for (unsigned i = 0; i < GD_PE_MAX_IMPORTS; i++) {
		uint64_t off, avail;
		uint32_t e = rva + i * esize, name, attr;

		if (gd_pe_rva(sl->p, e, &off, &avail) || avail < esize)
			return;
		add(sl, e, esize);
		if (!memcmp(sl->p->b + off, zero, esize))
			return;
		gd_bs_rd32(sl->p->b, sl->p->n, off + name_at, &name);
		gd_bs_rd32(sl->p->b, sl->p->n, off, &attr);
		if (esize == 32 && !(attr & 1) && name >= sl->p->image_base)
			name -= (uint32_t)sl->p->image_base; /* see pe.c */
		add_name(sl, name);
	}
}

/* IMAGE_RESOURCE_DIRECTORY at base+dir: 16 bytes, then Named + Id entries
 * of 8 bytes (name or id, offset; high bit: a subdirectory). Keeps the
 * directory and, for each entry (only id `want` at the top level), what it
 * leads to; a data entry (16 bytes: RVA, size, ...) and its data. */
static void res_dir(struct slim *sl, uint32_t base, uint32_t dir, int level,
		    int want)
{
	uint64_t off, avail;
	uint16_t named, ids;

	if (level > 2 || gd_pe_rva(sl->p, base + dir, &off, &avail) ||
	    avail < 16)
		return;
	gd_bs_rd16(sl->p->b, sl->p->n, off + 12, &named);
	gd_bs_rd16(sl->p->b, sl->p->n, off + 14, &ids);
	add(sl, base + dir, 16 + 8u * (named + ids));
	for (unsigned i = 0; i < (unsigned)named + ids && i < 256; i++) {
		uint32_t id, to, drva, dsize;
		uint64_t o2, a2;

		if (gd_bs_rd32(sl->p->b, sl->p->n, off + 16 + 8 * i, &id) ||
		    gd_bs_rd32(sl->p->b, sl->p->n, off + 20 + 8 * i, &to))
			return;
		if (want >= 0 && id != (uint32_t)want)
			continue;
		if (to & 0x80000000u) {
			res_dir(sl, base, to & 0x7fffffffu, level + 1, -1);
			continue;
		}
		if (gd_pe_rva(sl->p, base + to, &o2, &a2) || a2 < 16)
			continue;
		add(sl, base + to, 16);
		gd_bs_rd32(sl->p->b, sl->p->n, o2, &drva);
		gd_bs_rd32(sl->p->b, sl->p->n, o2 + 4, &dsize);
		add(sl, drva, dsize < VERSION_MAX ? dsize : VERSION_MAX);
	}
}

static int by_rva(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Sorted, and ranges of one section closer than gap merged. */
static size_t merge(struct range *r, size_t n, uint32_t gap)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		if (m && r[m - 1].sect == r[i].sect &&
		    r[i].lo <= r[m - 1].hi + gap) {
			if (r[i].hi > r[m - 1].hi)
				r[m - 1].hi = r[i].hi;
			continue;
		}
		r[m++] = r[i];
	}
	return m;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)v), put16(p + 2, (uint16_t)(v >> 16));
}

static int emit(const struct gd_pe *p, const struct range *r, size_t n,
		uint8_t **out, size_t *olen)
{
	uint64_t hdr = p->sect_off + (uint64_t)n * 40, size, pos;
	uint8_t *o;

	hdr = (hdr + 15) & ~(uint64_t)15;
	size = hdr;
	for (size_t i = 0; i < n; i++)
		size += (r[i].hi - r[i].lo) + 32;
	if (n && hdr > r[0].lo)
		return -1; /* headers would cover the first kept RVA */
	if (!(o = calloc(1, size)))
		return -1;
	memcpy(o, p->b, p->sect_off);
	put16(o + p->pe_off + 6, (uint16_t)n);
	put32(o + p->pe_off + 12, 0); /* PointerToSymbolTable */
	put32(o + p->pe_off + 16, 0); /* NumberOfSymbols */
	put32(o + p->pe_off + 24 + 60, (uint32_t)hdr); /* SizeOfHeaders */
	pos = hdr;
	for (size_t i = 0; i < n; i++) {
		uint8_t *h = o + p->sect_off + i * 40;
		const uint8_t *orig =
		    p->b + p->sect_off + (size_t)r[i].sect * 40;
		uint32_t len = r[i].hi - r[i].lo;
		uint64_t off, avail;

		pos += (uint64_t)((r[i].lo - pos) & 15);
		memcpy(h, orig, 8);
		put32(h + 8, len);
		put32(h + 12, r[i].lo);
		put32(h + 16, len);
		put32(h + 20, (uint32_t)pos);
		memcpy(h + 36, orig + 36, 4);
		if (!gd_pe_rva(p, r[i].lo, &off, &avail))
			memcpy(o + pos, p->b + off, len <= avail ? len : avail);
		pos += len;
	}
	*out = o;
	*olen = (size_t)pos;
	return 0;
}

int gd_pe_slim(const uint8_t *b, size_t n, uint8_t **out, size_t *olen)
{
	struct gd_pe p;
	struct slim sl = {&p, NULL, 0, 0};
	uint32_t rva, size, gap = 256;
	size_t m;
	int rc;

	*out = NULL;
	*olen = 0;
	if (gd_pe_open(&p, b, n, NULL, 0) < 0 ||
	    !(sl.r = malloc(MAX_RANGES * sizeof *sl.r)))
		return -1;
	if (!gd_pe_dir(&p, GD_PE_DIR_EXPORT, &rva, &size)) {
		uint64_t off, avail;
		uint32_t name;

		add(&sl, rva, 40);
		if (!gd_pe_rva(&p, rva, &off, &avail) && avail >= 40 &&
		    !gd_bs_rd32(b, n, off + 12, &name))
			add_name(&sl, name);
	}
	if (!gd_pe_dir(&p, GD_PE_DIR_IMPORT, &rva, &size))
		table(&sl, rva, 20, 12);
	if (!gd_pe_dir(&p, GD_PE_DIR_DELAY_IMPORT, &rva, &size))
		table(&sl, rva, 32, 4);
	if (!gd_pe_dir(&p, GD_PE_DIR_RESOURCE, &rva, &size))
		res_dir(&sl, rva, 0, 0, 16 /* RT_VERSION */);
	qsort(sl.r, sl.n, sizeof *sl.r, by_rva);
	/* fewer, larger pieces until the section table fits the headers */
	m = merge(sl.r, sl.n, gap);
	while (m > MAX_PIECES && gap < (1u << 28)) {
		gap *= 4;
		m = merge(sl.r, m, gap);
	}
	rc = sl.full || m > MAX_PIECES ? -1 : emit(&p, sl.r, m, out, olen);
	free(sl.r);
	return rc;
}
