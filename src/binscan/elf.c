/* ELF64 little-endian reader over mapped bytes. Layouts from the System V
 * gABI and glibc (docs/scan.md, "Sources"): Elf64_Ehdr/Shdr/Phdr/Dyn/Sym,
 * GNU symbol versioning Elf64_Verneed/Vernaux/Verdef/Verdaux. Every read is
 * checked against the buffer; nothing is copied. */
#include <stdlib.h>
#include <string.h>

#include "binscan.h"

#define SHT_DYNAMIC 6
#define SHT_DYNSYM 11
#define SHT_GNU_VERDEF 0x6ffffffd
#define SHT_GNU_VERNEED 0x6ffffffe
#define SHT_GNU_VERSYM 0x6fffffff
#define PT_LOAD 1
#define PT_DYNAMIC 2
#define DT_NULL 0
#define DT_NEEDED 1
#define DT_STRTAB 5
#define DT_STRSZ 10
#define DT_SONAME 14
#define DT_RPATH 15
#define DT_RUNPATH 29

static int fail(char *err, size_t cap, const char *msg)
{
	if (err)
		gd_strlcpy(err, msg, cap);
	return -1;
}

int gd_elf_open(struct gd_elf *e, const uint8_t *b, size_t n, char *err,
		size_t errcap)
{
	uint16_t shentsize, phentsize;
	struct gd_elf_shdr s0;

	memset(e, 0, sizeof *e);
	if (n < 4 || memcmp(b, "\177ELF", 4))
		return fail(err, errcap, "not an ELF file");
	if (n < 64)
		return fail(err, errcap, "truncated ELF header");
	if (b[4] != 2 || b[5] != 1)
		return fail(err, errcap, "not a 64-bit little-endian ELF");
	e->b = b;
	e->n = n;
	e->osabi = b[7];
	e->abiversion = b[8];
	gd_bs_rd16(b, n, 16, &e->type);
	gd_bs_rd16(b, n, 18, &e->machine);
	gd_bs_rd64(b, n, 32, &e->phoff);
	gd_bs_rd64(b, n, 40, &e->shoff);
	gd_bs_rd32(b, n, 48, &e->flags);
	gd_bs_rd16(b, n, 54, &phentsize);
	gd_bs_rd16(b, n, 56, &e->phnum);
	gd_bs_rd16(b, n, 58, &shentsize);
	gd_bs_rd16(b, n, 60, &e->shnum);
	gd_bs_rd16(b, n, 62, &e->shstrndx);
	if (e->phnum && phentsize != 56)
		return fail(err, errcap, "bad program header size");
	if (e->shoff && shentsize != 64)
		return fail(err, errcap, "bad section header size");
	if (!e->shoff)
		e->shnum = 0;
	/* Extended numbering: the real counts live in section 0 (gABI). */
	if (e->shoff && (e->shnum == 0 || e->shstrndx == 0xffff)) {
		e->shnum = 1;
		if (gd_elf_shdr(e, 0, &s0))
			return fail(err, errcap,
				    "section headers outside the file");
		if (s0.size > 0xffff)
			return fail(err, errcap, "too many sections");
		e->shnum = (uint16_t)(s0.size ? s0.size : 1);
		if (e->shstrndx == 0xffff)
			e->shstrndx = (uint16_t)s0.link;
	}
	if (e->shnum && !gd_bs_in(n, e->shoff, (uint64_t)e->shnum * 64))
		return fail(err, errcap,
			    "section headers outside the file (truncated?)");
	if (e->phnum && !gd_bs_in(n, e->phoff, (uint64_t)e->phnum * 56))
		e->phnum = 0; /* unusable, sections still are */
	return 0;
}

int gd_elf_shdr(const struct gd_elf *e, unsigned i, struct gd_elf_shdr *s)
{
	uint64_t o = e->shoff + (uint64_t)i * 64;

	if (i >= e->shnum || !gd_bs_in(e->n, o, 64))
		return -1;
	gd_bs_rd32(e->b, e->n, o, &s->name);
	gd_bs_rd32(e->b, e->n, o + 4, &s->type);
	gd_bs_rd64(e->b, e->n, o + 8, &s->flags);
	gd_bs_rd64(e->b, e->n, o + 16, &s->addr);
	gd_bs_rd64(e->b, e->n, o + 24, &s->offset);
	gd_bs_rd64(e->b, e->n, o + 32, &s->size);
	gd_bs_rd32(e->b, e->n, o + 40, &s->link);
	gd_bs_rd32(e->b, e->n, o + 44, &s->info);
	gd_bs_rd64(e->b, e->n, o + 56, &s->entsize);
	return 0;
}

int gd_elf_bytes(const struct gd_elf *e, const struct gd_elf_shdr *s,
		 const uint8_t **p, size_t *len)
{
	if (s->type == 8 /* SHT_NOBITS */ ||
	    !gd_bs_in(e->n, s->offset, s->size))
		return -1;
	*p = e->b + s->offset;
	*len = (size_t)s->size;
	return 0;
}

const char *gd_elf_shname(const struct gd_elf *e, const struct gd_elf_shdr *s)
{
	struct gd_elf_shdr st;
	const uint8_t *p;
	size_t len;
	const char *name;

	if (gd_elf_shdr(e, e->shstrndx, &st) ||
	    gd_elf_bytes(e, &st, &p, &len) || gd_bs_str(p, len, s->name, &name))
		return "";
	return name;
}

int gd_elf_find(const struct gd_elf *e, const char *name, struct gd_elf_shdr *s)
{
	for (unsigned i = 1; i < e->shnum; i++)
		if (!gd_elf_shdr(e, i, s) && !strcmp(gd_elf_shname(e, s), name))
			return 0;
	return -1;
}

static int find_type(const struct gd_elf *e, uint32_t type,
		     struct gd_elf_shdr *s)
{
	for (unsigned i = 1; i < e->shnum; i++)
		if (!gd_elf_shdr(e, i, s) && s->type == type)
			return 0;
	return -1;
}

/* File offset of a virtual address, through the PT_LOAD segments. */
static int vaddr_off(const struct gd_elf *e, uint64_t va, uint64_t *off)
{
	for (unsigned i = 0; i < e->phnum; i++) {
		uint64_t o = e->phoff + (uint64_t)i * 56, pvaddr, poff, pfsz;
		uint32_t type;

		if (gd_bs_rd32(e->b, e->n, o, &type) || type != PT_LOAD ||
		    gd_bs_rd64(e->b, e->n, o + 8, &poff) ||
		    gd_bs_rd64(e->b, e->n, o + 16, &pvaddr) ||
		    gd_bs_rd64(e->b, e->n, o + 32, &pfsz))
			continue;
		if (va >= pvaddr && va - pvaddr < pfsz) {
			*off = poff + (va - pvaddr);
			return 0;
		}
	}
	return -1;
}

/* Locate the dynamic table and its string table: by sections, else by
 * program headers (stripped section headers). */
static int dyn_tables(const struct gd_elf *e, const uint8_t **dyn, size_t *dlen,
		      const uint8_t **str, size_t *slen)
{
	struct gd_elf_shdr s, ss;
	uint64_t o, strva = 0, strsz = 0, stroff;

	if (!find_type(e, SHT_DYNAMIC, &s)) {
		if (gd_elf_bytes(e, &s, dyn, dlen) ||
		    gd_elf_shdr(e, s.link, &ss) ||
		    gd_elf_bytes(e, &ss, str, slen))
			return -1;
		return 0;
	}
	for (unsigned i = 0; i < e->phnum; i++) {
		uint32_t type;
		uint64_t poff, pfsz;

		o = e->phoff + (uint64_t)i * 56;
		if (gd_bs_rd32(e->b, e->n, o, &type) || type != PT_DYNAMIC ||
		    gd_bs_rd64(e->b, e->n, o + 8, &poff) ||
		    gd_bs_rd64(e->b, e->n, o + 32, &pfsz) ||
		    !gd_bs_in(e->n, poff, pfsz))
			continue;
		*dyn = e->b + poff;
		*dlen = (size_t)pfsz;
		for (uint64_t k = 0; k + 16 <= pfsz; k += 16) {
			uint64_t tag, val;

			gd_bs_rd64(*dyn, *dlen, k, &tag);
			gd_bs_rd64(*dyn, *dlen, k + 8, &val);
			if (tag == DT_STRTAB)
				strva = val;
			else if (tag == DT_STRSZ)
				strsz = val;
		}
		if (!strva || vaddr_off(e, strva, &stroff) ||
		    !gd_bs_in(e->n, stroff, strsz))
			return -1;
		*str = e->b + stroff;
		*slen = (size_t)strsz;
		return 0;
	}
	return 1;
}

static void put(char *dst, size_t cap, const uint8_t *str, size_t slen,
		uint64_t off)
{
	const char *s;

	if (!gd_bs_str(str, slen, off, &s))
		gd_strlcpy(dst, s, cap);
}

size_t gd_elf_verneed(const struct gd_elf *e, struct gd_elf_vn *out, size_t cap)
{
	struct gd_elf_shdr s, ss;
	const uint8_t *p, *str;
	size_t len, slen, n = 0;
	uint64_t o = 0;

	if (find_type(e, SHT_GNU_VERNEED, &s) ||
	    gd_elf_bytes(e, &s, &p, &len) || gd_elf_shdr(e, s.link, &ss) ||
	    gd_elf_bytes(e, &ss, &str, &slen))
		return 0;
	for (unsigned guard = 0; guard < 4096 && n < cap; guard++) {
		uint16_t cnt;
		uint32_t file, aux, next;
		const char *fname;
		uint64_t a;

		if (gd_bs_rd16(p, len, o + 2, &cnt) ||
		    gd_bs_rd32(p, len, o + 4, &file) ||
		    gd_bs_rd32(p, len, o + 8, &aux) ||
		    gd_bs_rd32(p, len, o + 12, &next) ||
		    gd_bs_str(str, slen, file, &fname))
			break;
		a = o + aux;
		for (unsigned j = 0; j < cnt && n < cap; j++) {
			uint16_t other;
			uint32_t name, anext;

			if (gd_bs_rd16(p, len, a + 6, &other) ||
			    gd_bs_rd32(p, len, a + 8, &name) ||
			    gd_bs_rd32(p, len, a + 12, &anext) ||
			    gd_bs_str(str, slen, name, &out[n].ver))
				break;
			out[n].idx = other & 0x7fff;
			out[n++].file = fname;
			if (!anext)
				break;
			a += anext;
		}
		if (!next)
			break;
		o += next;
	}
	return n;
}

size_t gd_elf_verdef(const struct gd_elf *e, const char **names, size_t cap)
{
	struct gd_elf_shdr vd, vds;
	const uint8_t *p, *str;
	size_t len, slen, n = 0;
	uint64_t o = 0;

	if (find_type(e, SHT_GNU_VERDEF, &vd) ||
	    gd_elf_bytes(e, &vd, &p, &len) || gd_elf_shdr(e, vd.link, &vds) ||
	    gd_elf_bytes(e, &vds, &str, &slen))
		return 0;
	for (unsigned guard = 0; guard < 4096 && n < cap; guard++) {
		uint16_t flags;
		uint32_t aux, next, name;

		/* vd_flags VER_FLG_BASE (1) names the file itself, not a
		 * version others can need */
		if (gd_bs_rd16(p, len, o + 2, &flags) ||
		    gd_bs_rd32(p, len, o + 12, &aux) ||
		    gd_bs_rd32(p, len, o + 16, &next) ||
		    gd_bs_rd32(p, len, o + aux, &name) ||
		    gd_bs_str(str, slen, name, &names[n]))
			break;
		if (!(flags & 1))
			n++;
		if (!next)
			break;
		o += next;
	}
	return n;
}

static void add_symver(struct gd_bs_dyn *d, size_t max, const char *lib,
		       const char *ver, const char *sym)
{
	struct gd_bs_symver *sv;

	char *copy;

	d->n_symvers_total++;
	if (d->symvers.n >= max || !(copy = strdup(sym)))
		return;
	if (!(sv = gd_vec_push(&d->symvers))) {
		free(copy);
		return;
	}
	gd_strlcpy(sv->lib, lib, sizeof sv->lib);
	gd_strlcpy(sv->ver, ver, sizeof sv->ver);
	sv->sym = copy;
}

/* Undefined dynsym entries whose versym points at a verneed entry. */
static void read_symvers(const struct gd_elf *e, struct gd_bs_dyn *d,
			 size_t max)
{
	struct gd_elf_vn vn[512];
	size_t nvn = gd_elf_verneed(e, vn, 512);
	struct gd_elf_shdr sy, vs, ss;
	const uint8_t *sp, *vp, *str;
	size_t slen, vlen, strl;

	for (size_t i = 0; i < nvn; i++)
		add_symver(d, max, vn[i].file, vn[i].ver, "");
	if (!nvn || find_type(e, SHT_DYNSYM, &sy) ||
	    find_type(e, SHT_GNU_VERSYM, &vs) ||
	    gd_elf_bytes(e, &sy, &sp, &slen) ||
	    gd_elf_bytes(e, &vs, &vp, &vlen) || gd_elf_shdr(e, sy.link, &ss) ||
	    gd_elf_bytes(e, &ss, &str, &strl))
		return;
	for (size_t k = 1; k < slen / 24 && k < vlen / 2; k++) {
		uint32_t name;
		uint16_t shndx, v;
		const char *s;

		gd_bs_rd32(sp, slen, k * 24, &name);
		gd_bs_rd16(sp, slen, k * 24 + 6, &shndx);
		gd_bs_rd16(vp, vlen, k * 2, &v);
		v &= 0x7fff;
		if (shndx != 0 || v < 2 || gd_bs_str(str, strl, name, &s))
			continue;
		for (size_t i = 0; i < nvn; i++)
			if (vn[i].idx == v) {
				add_symver(d, max, vn[i].file, vn[i].ver, s);
				break;
			}
	}
}

int gd_elf_dynamic(const struct gd_elf *e, struct gd_bs_dyn *d,
		   size_t max_symvers, char *err, size_t errcap)
{
	const uint8_t *dyn, *str;
	size_t dlen, slen;
	int rc = dyn_tables(e, &dyn, &dlen, &str, &slen);

	if (rc)
		return rc < 0 ? fail(err, errcap,
				     "dynamic section outside the file")
			      : 1;
	for (uint64_t k = 0; k + 16 <= dlen; k += 16) {
		uint64_t tag, val;
		const char *s;
		char **slot;

		gd_bs_rd64(dyn, dlen, k, &tag);
		gd_bs_rd64(dyn, dlen, k + 8, &val);
		if (tag == DT_NULL)
			break;
		if (tag == DT_NEEDED && !gd_bs_str(str, slen, val, &s) &&
		    d->needed.n < 4096 && (slot = gd_vec_push(&d->needed)))
			*slot = strdup(s);
		else if (tag == DT_SONAME)
			put(d->soname, sizeof d->soname, str, slen, val);
		else if (tag == DT_RUNPATH)
			put(d->runpath, sizeof d->runpath, str, slen, val);
		else if (tag == DT_RPATH)
			put(d->rpath, sizeof d->rpath, str, slen, val);
	}
	read_symvers(e, d, max_symvers);
	return 0;
}

static int need_cmp(const struct gd_bs_symver *a, const char *sym,
		    const char *ver)
{
	int c = strcmp(a->sym, sym);

	return c ? c : strcmp(a->ver, ver);
}

static void mark(const struct gd_bs_symver *const *need, size_t n,
		 unsigned char *found, const char *sym, const char *ver)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = need_cmp(need[mid], sym, ver);

		if (c == 0) {
			found[mid] = 1;
			return;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
}

int gd_elf_mark_defined(const struct gd_elf *e,
			const struct gd_bs_symver *const *need, size_t n,
			unsigned char *found)
{
	struct gd_elf_shdr vd, vds, sy, vs, ss;
	const uint8_t *p, *str, *sp, *vp, *sstr;
	size_t len, slen, splen, vlen, sstrl;
	const char *names[1024] = {0};
	uint64_t o = 0;

	if (find_type(e, SHT_GNU_VERDEF, &vd) ||
	    gd_elf_bytes(e, &vd, &p, &len) || gd_elf_shdr(e, vd.link, &vds) ||
	    gd_elf_bytes(e, &vds, &str, &slen))
		return -1;
	for (unsigned guard = 0; guard < 4096; guard++) {
		uint16_t ndx;
		uint32_t aux, next, name;
		const char *s;

		if (gd_bs_rd16(p, len, o + 4, &ndx) ||
		    gd_bs_rd32(p, len, o + 12, &aux) ||
		    gd_bs_rd32(p, len, o + 16, &next) ||
		    gd_bs_rd32(p, len, o + aux, &name) ||
		    gd_bs_str(str, slen, name, &s))
			break;
		ndx &= 0x7fff;
		if (ndx < 1024)
			names[ndx] = s;
		mark(need, n, found, "", s);
		if (!next)
			break;
		o += next;
	}
	if (find_type(e, SHT_DYNSYM, &sy) ||
	    find_type(e, SHT_GNU_VERSYM, &vs) ||
	    gd_elf_bytes(e, &sy, &sp, &splen) ||
	    gd_elf_bytes(e, &vs, &vp, &vlen) || gd_elf_shdr(e, sy.link, &ss) ||
	    gd_elf_bytes(e, &ss, &sstr, &sstrl))
		return 0;
	for (size_t k = 1; k < splen / 24 && k < vlen / 2; k++) {
		uint32_t nm;
		uint16_t shndx, v;
		const char *s;

		gd_bs_rd32(sp, splen, k * 24, &nm);
		gd_bs_rd16(sp, splen, k * 24 + 6, &shndx);
		gd_bs_rd16(vp, vlen, k * 2, &v);
		v &= 0x7fff;
		if (shndx == 0 || v >= 1024 || !names[v] ||
		    gd_bs_str(sstr, sstrl, nm, &s))
			continue;
		mark(need, n, found, s, names[v]);
	}
	return 0;
}
