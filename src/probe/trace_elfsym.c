/* probe/trace_elfsym: which function of a library holds a return address
 * (see trace.h), for the hang report of a native caller. ELF64
 * little-endian only (the shim is Linux x86-64/aarch64); the file is the
 * one mapped in the traced process, read with bounded reads: every
 * offset, count and size is checked against the reads that succeed, so a
 * damaged or hostile file gives "" and nothing else. Layout: the System V
 * gABI (Elf64_Ehdr, Elf64_Phdr, Elf64_Shdr, Elf64_Sym). */
#include <stdint.h>
#include <string.h>

#include "core/util.h"
#include "probe/trace.h"

#define PT_LOAD_ 1
#define SHT_SYMTAB_ 2
#define SHT_DYNSYM_ 11
#define STT_FUNC_ 2
#define MAX_PHDRS 512
#define MAX_SHDRS 65535
#define MAX_SYMS (8u << 20)
#define CHUNK 256

static uint64_t u64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint16_t u16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

/* The virtual address of file offset off (its PT_LOAD), or -1. */
static int vaddr_of(gd_trace_rd_fn rd, void *ctx, const unsigned char *eh,
		    uint64_t off, uint64_t *va)
{
	uint64_t phoff = u64(eh + 32);
	unsigned phnum = u16(eh + 56);

	if (u16(eh + 54) != 56 || phnum > MAX_PHDRS)
		return -1;
	for (unsigned i = 0; i < phnum; i++) {
		unsigned char ph[56];
		uint64_t poff, fsz;

		if (rd(ctx, phoff + (uint64_t)i * 56, ph, sizeof ph) < 0)
			return -1;
		poff = u64(ph + 8);
		fsz = u64(ph + 32);
		if (u32(ph) == PT_LOAD_ && poff <= off && off - poff < fsz) {
			*va = off - poff + u64(ph + 16);
			return 0;
		}
	}
	return -1;
}

/* Search one symbol table (section sh) for the function holding va. */
static int in_table(gd_trace_rd_fn rd, void *ctx, const unsigned char *eh,
		    const unsigned char *sh, uint64_t va, char *out, size_t cap)
{
	uint64_t shoff = u64(eh + 40), off = u64(sh + 24), size = u64(sh + 32);
	uint32_t link = u32(sh + 40);
	unsigned char str[64], syms[CHUNK * 24];
	uint64_t n = size / 24, str_off, str_size;

	if (u64(sh + 56) != 24 || n > MAX_SYMS || link >= u16(eh + 60) ||
	    rd(ctx, shoff + (uint64_t)link * 64, str, sizeof str) < 0)
		return -1;
	str_off = u64(str + 24);
	str_size = u64(str + 32);
	for (uint64_t i = 0; i < n; i += CHUNK) {
		uint64_t k = n - i < CHUNK ? n - i : CHUNK;

		if (rd(ctx, off + i * 24, syms, (size_t)(k * 24)) < 0)
			return -1;
		for (uint64_t j = 0; j < k; j++) {
			const unsigned char *s = syms + j * 24;
			uint64_t v = u64(s + 8), sz = u64(s + 16);
			uint32_t name = u32(s);
			char buf[128];

			if ((s[4] & 0xf) != STT_FUNC_ || !sz || va < v ||
			    va - v >= sz || name >= str_size)
				continue;
			memset(buf, 0, sizeof buf);
			if (rd(ctx, str_off + name, buf,
			       str_size - name < sizeof buf - 1
				   ? (size_t)(str_size - name)
				   : sizeof buf - 1) < 0)
				return -1;
			gd_strlcpy(out, buf, cap);
			gd_sanitize(out);
			return out[0] ? 0 : -1;
		}
	}
	return -1;
}

int gd_trace_elf_func(gd_trace_rd_fn rd, void *ctx, uint64_t off, char *out,
		      size_t cap)
{
	static const unsigned types[] = {SHT_SYMTAB_, SHT_DYNSYM_};
	unsigned char eh[64];
	uint64_t va;
	unsigned shnum;

	if (!cap)
		return -1;
	out[0] = '\0';
	if (rd(ctx, 0, eh, sizeof eh) < 0 || memcmp(eh, "\177ELF", 4) ||
	    eh[4] != 2 || eh[5] != 1 || u16(eh + 58) != 64)
		return -1;
	shnum = u16(eh + 60);
	if (shnum > MAX_SHDRS || vaddr_of(rd, ctx, eh, off, &va) < 0)
		return -1;
	for (size_t t = 0; t < 2; t++)
		for (unsigned i = 0; i < shnum; i++) {
			unsigned char sh[64];

			if (rd(ctx, u64(eh + 40) + (uint64_t)i * 64, sh,
			       sizeof sh) < 0)
				return -1;
			if (u32(sh + 4) != types[t])
				continue;
			if (in_table(rd, ctx, eh, sh, va, out, cap) == 0)
				return 0;
			break; /* stripped or not there: the next table */
		}
	return -1;
}
