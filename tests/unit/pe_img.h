/* Hand-built PE32 / PE32+ images for the binscan PE unit tests: MZ
 * header, "PE\0\0", COFF header, optional header with 16 data
 * directories, a section table; SizeOfHeaders 0x400. Layouts: Microsoft
 * "PE Format". */
#ifndef GD_TEST_PE_IMG_H
#define GD_TEST_PE_IMG_H

#include <stdint.h>
#include <string.h>

#define PE_OFF 0x40
#define OPT (PE_OFF + 24)
#define IMG_N 0x1000
#define BASE64 0x180000000ull
#define BASE32 0x400000u

static inline void w16(uint8_t *b, size_t o, uint16_t v)
{
	b[o] = (uint8_t)v;
	b[o + 1] = (uint8_t)(v >> 8);
}

static inline void w32(uint8_t *b, size_t o, uint32_t v)
{
	w16(b, o, (uint16_t)v);
	w16(b, o + 2, (uint16_t)(v >> 16));
}

static inline void w64(uint8_t *b, size_t o, uint64_t v)
{
	w32(b, o, (uint32_t)v);
	w32(b, o + 4, (uint32_t)(v >> 32));
}

struct sec {
	const char *name;
	uint32_t va, size, rawoff;
};

/* The default image: three sections of 0x200 bytes each. */
static const struct sec std_secs[] = {
    {".text", 0x1000, 0x200, 0x400},
    {".idata", 0x2000, 0x200, 0x600},
    {".rdata", 0x3000, 0x400, 0x800},
};

static inline unsigned opt_size(int plus)
{
	return plus ? 240 : 224;
}

/* PE32+ (plus) or PE32 headers; SizeOfHeaders 0x400. */
static inline void mk_pe(uint8_t *b, size_t cap, int plus, const struct sec *s,
			 unsigned ns)
{
	memset(b, 0, cap);
	b[0] = 'M';
	b[1] = 'Z';
	w32(b, 0x3c, PE_OFF);
	memcpy(b + PE_OFF, "PE\0\0", 4);
	w16(b, PE_OFF + 4, plus ? 0x8664 : 0x14c);
	w16(b, PE_OFF + 6, (uint16_t)ns);
	w16(b, PE_OFF + 20, (uint16_t)opt_size(plus));
	w16(b, OPT, plus ? 0x20b : 0x10b);
	if (plus)
		w64(b, OPT + 24, BASE64);
	else
		w32(b, OPT + 28, BASE32);
	w32(b, OPT + 60, 0x400);
	w32(b, OPT + (plus ? 108 : 92), 16);
	for (unsigned i = 0; i < ns; i++) {
		size_t o = OPT + opt_size(plus) + 40 * i;

		memcpy(b + o, s[i].name,
		       strlen(s[i].name) < 8 ? strlen(s[i].name) : 8);
		w32(b, o + 8, s[i].size);
		w32(b, o + 12, s[i].va);
		w32(b, o + 16, s[i].size);
		w32(b, o + 20, s[i].rawoff);
	}
}

static inline void set_dir(uint8_t *b, int plus, unsigned i, uint32_t rva,
			   uint32_t size)
{
	w32(b, OPT + (plus ? 112 : 96) + 8 * i, rva);
	w32(b, OPT + (plus ? 112 : 96) + 8 * i + 4, size);
}

static inline void put_import(uint8_t *b, size_t off, uint32_t name_rva)
{
	w32(b, off, 0x2100); /* ImportLookupTableRVA: anything nonzero */
	w32(b, off + 12, name_rva);
	w32(b, off + 16, 0x2100);
}

#endif
