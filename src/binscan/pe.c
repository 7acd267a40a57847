/* PE32 / PE32+ reader over mapped bytes (Windows .dll, .pyd, .exe).
 * Layouts from the Microsoft "PE Format" specification (docs/scan.md,
 * "Sources"); each structure below names its section there. Every read is
 * checked against the buffer through gd_bs_rd*; nothing is copied.
 *
 * GPU code: clang (docs/scan.md, "Sources") puts the HIP offload
 * bundle in section ".hip_fatbin" and its wrapper {u32 magic "HIPF"
 * 0x48495046, u32 version, void *bundle, void *} in ".hipFatBinSegment";
 * CUDA uses ".nv_fatbin" and ".nvFatBinSegment" (magic 0x466243b1). PE
 * images have 8-byte section names and link.exe / lld-link truncate longer
 * ones, so Windows DLLs carry ".hip_fat", ".hipFatB", ".nv_fatb",
 * ".nvFatBi"; GNU ld keeps the long name through the string table. Both
 * spellings are read; the wrapper is followed only when no bundle section
 * is found (the bundle then sits in another section). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "binscan.h"

#define HIPF_MAGIC 0x48495046u
#define NVFB_MAGIC 0x466243b1u
#define MAX_NAME 127 /* an imported DLL name longer than this is junk */
/* The spec's Windows loader limit is 96 sections; newer loaders take more.
 * 1024 keeps every RVA lookup cheap on hostile input. */
#define MAX_SECTIONS 1024

static int fail(char *err, size_t cap, const char *msg)
{
	if (err)
		gd_strlcpy(err, msg, cap);
	return -1;
}

/* "MS-DOS Stub": e_lfanew at 0x3c; "Signature": "PE\0\0"; "COFF File
 * Header": Machine, NumberOfSections, TimeDateStamp, PointerToSymbolTable,
 * NumberOfSymbols, SizeOfOptionalHeader, Characteristics (20 bytes). */
static int open_coff(struct gd_pe *p, char *err, size_t cap)
{
	uint32_t lfanew, symptr, nsym, len;

	if (p->n < 64)
		return fail(err, cap, "truncated MZ header");
	gd_bs_rd32(p->b, p->n, 0x3c, &lfanew);
	if (!gd_bs_in(p->n, lfanew, 24))
		return fail(err, cap,
			    "MZ file whose PE header lies outside it "
			    "(truncated, or a DOS program)");
	if (memcmp(p->b + lfanew, "PE\0\0", 4))
		return fail(err, cap,
			    "MZ file without a PE signature (a DOS program?)");
	p->pe_off = lfanew;
	gd_bs_rd16(p->b, p->n, lfanew + 4, &p->machine);
	gd_bs_rd16(p->b, p->n, lfanew + 6, &p->nsect);
	gd_bs_rd32(p->b, p->n, lfanew + 12, &symptr);
	gd_bs_rd32(p->b, p->n, lfanew + 16, &nsym);
	gd_bs_rd16(p->b, p->n, lfanew + 20, &p->opt_size);
	/* "COFF String Table": right after the symbol table (18-byte records),
	 * led by its u32 size; images use it only for long section names (GNU
	 * ld). A table outside the file is ignored: names stay "/N". */
	p->strtab_off = symptr + (uint64_t)nsym * 18;
	if (symptr && !gd_bs_rd32(p->b, p->n, p->strtab_off, &len) &&
	    len >= 4 && gd_bs_in(p->n, p->strtab_off, len))
		p->strtab_len = len;
	return 0;
}

/* "Optional Header (Image Only)": Magic 0x10b (PE32) / 0x20b (PE32+);
 * ImageBase at 28 (u32) / 24 (u64); SizeOfHeaders at 60;
 * NumberOfRvaAndSizes at 92 / 108; "Optional Header Data Directories"
 * (8 bytes each: RVA, Size) at 96 / 112. */
static int open_optional(struct gd_pe *p, char *err, size_t cap)
{
	uint64_t opt = p->pe_off + 24, dirs;
	uint32_t ndirs, base32;

	if (p->opt_size < 2)
		return fail(
		    err, cap,
		    "PE file without an optional header (an object file?)");
	if (!gd_bs_in(p->n, opt, p->opt_size))
		return fail(err, cap, "truncated PE optional header");
	gd_bs_rd16(p->b, p->n, opt, &p->magic);
	if (p->magic != 0x10b && p->magic != 0x20b)
		return fail(
		    err, cap,
		    "unknown PE optional header magic (not PE32 or PE32+)");
	dirs = p->magic == 0x20b ? 112 : 96;
	if (p->opt_size < dirs)
		return fail(err, cap, "PE optional header too short");
	if (p->magic == 0x20b) {
		gd_bs_rd64(p->b, p->n, opt + 24, &p->image_base);
	} else {
		gd_bs_rd32(p->b, p->n, opt + 28, &base32);
		p->image_base = base32;
	}
	gd_bs_rd32(p->b, p->n, opt + 60, &p->size_of_headers);
	gd_bs_rd32(p->b, p->n, opt + dirs - 4, &ndirs);
	p->dir_off = opt + dirs;
	p->n_dirs = (uint32_t)((p->opt_size - dirs) / 8);
	if (ndirs < p->n_dirs)
		p->n_dirs = ndirs;
	if (p->n_dirs > 16)
		p->n_dirs = 16;
	return 0;
}

int gd_pe_open(struct gd_pe *p, const uint8_t *b, size_t n, char *err,
	       size_t errcap)
{
	memset(p, 0, sizeof *p);
	if (n < 2 || b[0] != 'M' || b[1] != 'Z')
		return fail(err, errcap, "not a PE file");
	p->b = b;
	p->n = n;
	if (open_coff(p, err, errcap) || open_optional(p, err, errcap))
		return -1;
	/* "Section Table (Section Headers)": right after the optional header,
	 * NumberOfSections entries of 40 bytes. */
	p->sect_off = p->pe_off + 24 + p->opt_size;
	if (!gd_bs_in(n, p->sect_off, (uint64_t)p->nsect * 40))
		return fail(err, errcap,
			    "PE section table outside the file (truncated?)");
	if (p->nsect > MAX_SECTIONS)
		return fail(err, errcap, "PE file claims over 1024 sections");
	/* SizeOfHeaders covers "the MS-DOS stub, PE header, and section
	 * headers": a count that runs past it is corrupt. */
	if (p->sect_off + (uint64_t)p->nsect * 40 > p->size_of_headers)
		return fail(err, errcap,
			    "PE section count runs past the headers (corrupt)");
	return 0;
}

/* "/1234": decimal offset into the string table; "//AAAAAA": base-64
 * (LLVM's encoding past 9999999; docs/scan.md, "Sources"). */
static int long_name_off(const char *raw, uint64_t *off)
{
	uint64_t v = 0;

	if (raw[1] == '/') {
		static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijkl"
					"mnopqrstuvwxyz0123456789+/";

		for (int i = 2; i < 8 && raw[i]; i++) {
			const char *c = strchr(a, raw[i]);

			if (!c)
				return -1;
			v = v * 64 + (uint64_t)(c - a);
		}
		*off = v;
		return raw[2] ? 0 : -1;
	}
	for (int i = 1; i < 8 && raw[i]; i++) {
		if (raw[i] < '0' || raw[i] > '9')
			return -1;
		v = v * 10 + (uint64_t)(raw[i] - '0');
	}
	*off = v;
	return raw[1] ? 0 : -1;
}

static void sect_name(const struct gd_pe *p, const uint8_t *h, char *out,
		      size_t cap)
{
	char raw[9];
	uint64_t off;
	const char *s;

	memcpy(raw, h, 8);
	raw[8] = '\0';
	gd_strlcpy(out, raw, cap);
	if (raw[0] == '/' && p->strtab_len && !long_name_off(raw, &off) &&
	    off >= 4 &&
	    !gd_bs_str(p->b + p->strtab_off, p->strtab_len, off, &s))
		gd_strlcpy(out, s, cap);
}

/* Section header fields but the name: VirtualSize at 8, VirtualAddress,
 * SizeOfRawData, PointerToRawData, ..., Characteristics at 36. */
static int sect_geom(const struct gd_pe *p, unsigned i, struct gd_pe_sect *s)
{
	uint64_t o = p->sect_off + (uint64_t)i * 40;

	if (i >= p->nsect || !gd_bs_in(p->n, o, 40))
		return -1;
	gd_bs_rd32(p->b, p->n, o + 8, &s->vsize);
	gd_bs_rd32(p->b, p->n, o + 12, &s->va);
	gd_bs_rd32(p->b, p->n, o + 16, &s->rawsize);
	gd_bs_rd32(p->b, p->n, o + 20, &s->rawoff);
	gd_bs_rd32(p->b, p->n, o + 36, &s->flags);
	return 0;
}

int gd_pe_section(const struct gd_pe *p, unsigned i, struct gd_pe_sect *s)
{
	if (sect_geom(p, i, s))
		return -1;
	sect_name(p, p->b + p->sect_off + (uint64_t)i * 40, s->name,
		  sizeof s->name);
	return 0;
}

int gd_pe_find(const struct gd_pe *p, const char *name, struct gd_pe_sect *s)
{
	for (unsigned i = 0; i < p->nsect; i++)
		if (!gd_pe_section(p, i, s) && !strcmp(s->name, name))
			return 0;
	return -1;
}

/* Bytes of a section present in the file: SizeOfRawData is rounded up to
 * FileAlignment, VirtualSize is the true size (0 in some linkers' output). */
static uint32_t file_span(const struct gd_pe_sect *s)
{
	return s->vsize && s->vsize < s->rawsize ? s->vsize : s->rawsize;
}

int gd_pe_sect_bytes(const struct gd_pe *p, const struct gd_pe_sect *s,
		     const uint8_t **d, size_t *len)
{
	uint32_t span = file_span(s);

	if (!span || !gd_bs_in(p->n, s->rawoff, span))
		return -1;
	*d = p->b + s->rawoff;
	*len = span;
	return 0;
}

int gd_pe_dir(const struct gd_pe *p, unsigned i, uint32_t *rva, uint32_t *size)
{
	if (i >= p->n_dirs)
		return -1;
	gd_bs_rd32(p->b, p->n, p->dir_off + (uint64_t)i * 8, rva);
	gd_bs_rd32(p->b, p->n, p->dir_off + (uint64_t)i * 8 + 4, size);
	return *rva ? 0 : -1;
}

int gd_pe_rva(const struct gd_pe *p, uint64_t rva, uint64_t *off,
	      uint64_t *avail)
{
	struct gd_pe_sect s;
	uint64_t end = 0;

	if (rva < p->size_of_headers && rva < p->n) {
		end = p->size_of_headers < p->n ? p->size_of_headers : p->n;
		*off = rva;
	}
	for (unsigned i = 0; !end && i < p->nsect; i++) {
		if (sect_geom(p, i, &s) || rva < s.va ||
		    rva - s.va >= file_span(&s))
			continue;
		*off = s.rawoff + (rva - s.va);
		end = (uint64_t)s.rawoff + file_span(&s);
	}
	if (!end || *off >= p->n)
		return -1;
	if (end > p->n)
		end = p->n;
	*avail = end - *off;
	return 0;
}

/* A NUL-terminated DLL name at rva, inside its section. */
static int rva_name(const struct gd_pe *p, uint64_t rva, const char **s)
{
	uint64_t off, avail;
	size_t len;

	if (gd_pe_rva(p, rva, &off, &avail) ||
	    gd_bs_str(p->b + off, avail, 0, s))
		return -1;
	len = strlen(*s);
	if (!len || len > MAX_NAME)
		return -1;
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)(*s)[i] < 0x20 ||
		    (unsigned char)(*s)[i] >= 0x7f)
			return -1;
	return 0;
}

static int add_needed(struct gd_bs_dyn *d, const char *name)
{
	char **slot;

	for (size_t i = 0; i < d->needed.n; i++)
		if (!strcasecmp(d->needed.v[i], name))
			return 0;
	if (!(slot = gd_vec_push(&d->needed)) || !(*slot = strdup(name))) {
		if (slot)
			d->needed.n--;
		return -1;
	}
	return 1;
}

/* One table of fixed-size descriptors ending in an all-zero entry:
 * "Import Directory Table" (20 bytes: ImportLookupTableRVA, TimeDateStamp,
 * ForwarderChain, NameRVA at 12, ImportAddressTableRVA) or "Delay-Load
 * Directory Table" (32 bytes: Attributes, Name at 4, ModuleHandle, Delay
 * IAT, Delay INT, Bound IAT, Unload IAT, TimeStamp). Each entry is mapped
 * on its own, so a table may run across sections. Returns names added. */
static int walk_table(const struct gd_pe *p, uint32_t rva, unsigned esize,
		      unsigned name_at, struct gd_bs_dyn *d, char *err,
		      size_t cap)
{
	int added = 0;

	for (unsigned i = 0; i < GD_PE_MAX_IMPORTS; i++) {
		uint64_t off, avail, e = (uint64_t)rva + (uint64_t)i * esize;
		uint32_t name, attr;
		const char *s;
		int r;

		if (gd_pe_rva(p, e, &off, &avail) || avail < esize)
			return fail(
			    err, cap,
			    "import table runs outside the file (truncated?)");
		if (!memcmp(p->b + off, (const uint8_t[32]){0}, esize))
			return added;
		gd_bs_rd32(p->b, p->n, off + name_at, &name);
		gd_bs_rd32(p->b, p->n, off, &attr);
		/* Delay-load Attributes bit 0 clear: the old (Visual C++ 6)
		 * layout with VAs instead of RVAs. */
		if (esize == 32 && !(attr & 1) && name >= p->image_base)
			name -= (uint32_t)p->image_base;
		if (rva_name(p, name, &s))
			return fail(
			    err, cap,
			    "imported DLL name outside the file or not text");
		if ((r = add_needed(d, s)) < 0)
			return fail(err, cap, "out of memory");
		added += r;
	}
	return fail(err, cap, "import table has no end (over 4096 entries)");
}

int gd_pe_imports(const struct gd_pe *p, struct gd_bs_dyn *d, char *err,
		  size_t errcap)
{
	uint32_t rva, size;
	const char *s;
	uint64_t off, avail;
	int r, rc = 0;

	if (!gd_pe_dir(p, GD_PE_DIR_IMPORT, &rva, &size) &&
	    walk_table(p, rva, 20, 12, d, err, errcap) < 0)
		rc = -1;
	if (!gd_pe_dir(p, GD_PE_DIR_DELAY_IMPORT, &rva, &size)) {
		r = walk_table(p, rva, 32, 4, d, rc ? NULL : err, errcap);
		if (r < 0)
			rc = -1;
		else
			d->n_delay = (size_t)r;
	}
	/* "Export Directory Table": Name RVA (the DLL's own name) at 12. */
	if (!gd_pe_dir(p, GD_PE_DIR_EXPORT, &rva, &size) &&
	    !gd_pe_rva(p, rva, &off, &avail) && avail >= 40) {
		uint32_t name;

		gd_bs_rd32(p->b, p->n, off + 12, &name);
		if (!rva_name(p, name, &s))
			gd_strlcpy(d->soname, s, sizeof d->soname);
	}
	return rc;
}

const char *gd_pe_machine_name(uint16_t m)
{
	/* "Machine Types" */
	return m == GD_PE_MACHINE_AMD64	  ? "x86-64"
	       : m == GD_PE_MACHINE_I386  ? "i386"
	       : m == GD_PE_MACHINE_ARM64 ? "arm64"
	       : m == 0x1c4		  ? "arm"
					  : "other";
}

static void set_err(struct gd_bs_file *f, const char *msg)
{
	if (!f->error[0])
		gd_strlcpy(f->error, msg, sizeof f->error);
}

static int is_hip_name(const char *nm)
{
	return !strcmp(nm, ".hip_fat") || !strcmp(nm, ".hip_fatbin") ||
	       !strcmp(nm, "__CLANG_OFFLOAD_BUNDLE__");
}

static int is_nv_name(const char *nm)
{
	return !strcmp(nm, ".nv_fatb") || !strcmp(nm, ".nv_fatbin");
}

/* The wrapper section: {u32 magic, u32 version, pointer to the code} with
 * a pointer of 4 (PE32) or 8 (PE32+) bytes holding a VA (ImageBase + RVA). */
static int follow_wrapper(const struct gd_pe *p, const struct gd_pe_sect *s,
			  uint32_t magic, const uint8_t **code, size_t *len)
{
	const uint8_t *w;
	size_t wl;
	uint32_t m, lo = 0;
	uint64_t va = 0, off, avail;

	if (gd_pe_sect_bytes(p, s, &w, &wl) || gd_bs_rd32(w, wl, 0, &m) ||
	    m != magic)
		return -1;
	if (p->magic == 0x20b ? gd_bs_rd64(w, wl, 8, &va)
			      : gd_bs_rd32(w, wl, 8, &lo))
		return -1;
	va = p->magic == 0x20b ? va : lo;
	if (va < p->image_base ||
	    gd_pe_rva(p, va - p->image_base, &off, &avail))
		return -1;
	*code = p->b + off;
	*len = (size_t)avail;
	return 0;
}

static void scan_code(const struct gd_pe *p, const struct gd_pe_sect *s,
		      int hip, int fd, struct gd_bs_file *f)
{
	const uint8_t *d;
	size_t len;
	char err[200];

	if (gd_pe_sect_bytes(p, s, &d, &len)) {
		gd_fmt(err, sizeof err,
		       "section %s points outside the file (truncated?)",
		       s->name);
		set_err(f, err);
		return;
	}
	if (hip ? gd_offload_bundles_scan(d, len, f, err, sizeof err)
	    : fd >= 0
		? gd_nvfatbin_scan_fd(fd, s->rawoff, len, f, err, sizeof err)
		: gd_nvfatbin_scan(d, len, f, err, sizeof err))
		set_err(f, err);
}

static void scan_sections(const struct gd_pe *p, int fd, struct gd_bs_file *f)
{
	struct gd_pe_sect s, hipw = {0}, nvw = {0};
	int hip = 0, nv = 0;
	const uint8_t *d;
	size_t len;
	char err[200];

	for (unsigned i = 0; i < p->nsect; i++) {
		if (gd_pe_section(p, i, &s))
			continue;
		if (is_hip_name(s.name) || is_nv_name(s.name)) {
			hip |= is_hip_name(s.name);
			nv |= is_nv_name(s.name);
			scan_code(p, &s, is_hip_name(s.name), fd, f);
		} else if (!strcmp(s.name, ".hipFatB") ||
			   !strcmp(s.name, ".hipFatBinSegment")) {
			hipw = s;
		} else if (!strcmp(s.name, ".nvFatBi") ||
			   !strcmp(s.name, ".nvFatBinSegment")) {
			nvw = s;
		}
	}
	if (!hip && hipw.name[0] &&
	    !follow_wrapper(p, &hipw, HIPF_MAGIC, &d, &len) &&
	    gd_offload_bundle_scan(d, len, f, &(uint64_t){0}, err, sizeof err))
		set_err(f, err);
	if (!nv && nvw.name[0] &&
	    !follow_wrapper(p, &nvw, NVFB_MAGIC, &d, &len) &&
	    gd_nvfatbin_scan(d, len, f, err, sizeof err))
		set_err(f, err);
}

int gd_pe_scan(const uint8_t *b, size_t n, int fd, struct gd_bs_file *f)
{
	struct gd_pe p;
	char err[200];

	if (gd_pe_open(&p, b, n, err, sizeof err)) {
		set_err(f, err);
		return -1;
	}
	gd_strlcpy(f->format, "pe", sizeof f->format);
	/* nonzero marks the file as PE (gd_bs_is_pe); 0 is "any machine" */
	f->pe_machine = p.machine ? p.machine : 0xffff;
	if (gd_pe_imports(&p, &f->dyn, err, sizeof err))
		set_err(f, err);
	f->has_dyn = 1;
	scan_sections(&p, fd, f);
	return 0;
}
