/* An ELF stub of a library for `gather`: what the DT_NEEDED closure
 * (ldclosure.c) reads of it and nothing else, so a capture replays the
 * same verdict without carrying hundreds of megabytes of code. The stub
 * is a valid ELF64 with the original header fields (class, data, OS ABI,
 * type, machine, flags) and five sections: .dynstr holding only the names
 * used, .dynamic (DT_NEEDED, DT_SONAME, DT_RUNPATH, DT_RPATH),
 * .gnu.version_r and .gnu.version_d (Elf64_Verneed/Vernaux/Verdef/Verdaux
 * layouts, docs/scan.md "Sources"), .shstrtab. A file that
 * is not a 64-bit ELF keeps its first 64 bytes: enough to say what it is. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "binscan.h"

#define MAXV 512

struct sbuf {
	uint8_t *b;
	size_t n, cap;
};

static int grow(struct sbuf *s, size_t add)
{
	uint8_t *nb;
	size_t cap = s->cap ? s->cap : 4096;

	while (cap < s->n + add)
		cap *= 2;
	if (cap == s->cap)
		return 0;
	nb = realloc(s->b, cap);
	if (!nb)
		return -1;
	memset(nb + s->cap, 0, cap - s->cap);
	s->b = nb;
	s->cap = cap;
	return 0;
}

static size_t put(struct sbuf *s, const void *p, size_t n)
{
	size_t at = s->n;

	if (grow(s, n))
		return 0;
	memcpy(s->b + s->n, p, n);
	s->n += n;
	return at;
}

static void align(struct sbuf *s, size_t a)
{
	static const uint8_t z[8];

	put(s, z, (a - s->n % a) % a);
}

static void w16(uint8_t *p, uint16_t v)
{
	memcpy(p, &v, 2); /* the stub is little-endian, as the reader */
}

static void w32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void w64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/* A string into .dynstr; its offset. */
static uint32_t str(struct sbuf *st, const char *s)
{
	return (uint32_t)put(st, s, strlen(s) + 1);
}

static void dyn(struct sbuf *d, uint64_t tag, uint64_t val)
{
	uint8_t e[16];

	w64(e, tag);
	w64(e + 8, val);
	put(d, e, 16);
}

/* Verneed entries grouped by file, in the order met. Returns the count
 * of Elf64_Verneed records. */
static unsigned verneed(struct sbuf *v, struct sbuf *st,
			const struct gd_elf_vn *vn, size_t n)
{
	unsigned char *done = calloc(n + 1, 1);
	unsigned groups = 0;
	size_t last = 0;

	for (size_t i = 0; done && i < n; i++) {
		size_t at = v->n, cnt = 0;
		uint8_t h[16] = {0};

		if (done[i])
			continue;
		if (groups++)
			w32(v->b + last + 12, (uint32_t)(at - last));
		last = at;
		put(v, h, 16);
		for (size_t k = i; k < n; k++) {
			uint8_t a[16] = {0};

			if (done[k] || strcmp(vn[k].file, vn[i].file))
				continue;
			done[k] = 1;
			w16(a + 6, vn[k].idx);
			w32(a + 8, str(st, vn[k].ver));
			w32(a + 12, 16);
			put(v, a, 16);
			cnt++;
		}
		w32(v->b + v->n - 4, 0); /* last aux */
		w16(v->b + at, 1);
		w16(v->b + at + 2, (uint16_t)cnt);
		w32(v->b + at + 4, str(st, vn[i].file));
		w32(v->b + at + 8, 16);
	}
	free(done);
	return groups;
}

static unsigned verdef(struct sbuf *v, struct sbuf *st, const char **defs,
		       size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint8_t d[28] = {0};

		w16(d, 1);
		w16(d + 4, (uint16_t)(i + 2));
		w16(d + 6, 1);
		w32(d + 12, 20);
		w32(d + 16, i + 1 < n ? 28 : 0);
		w32(d + 20, str(st, defs[i]));
		put(v, d, 28);
	}
	return (unsigned)n;
}

static void shdr(struct sbuf *o, uint32_t name, uint32_t type, size_t off,
		 size_t size, uint32_t link, uint32_t info, uint64_t entsize)
{
	uint8_t s[64] = {0};

	w32(s, name);
	w32(s + 4, type);
	w64(s + 24, off);
	w64(s + 32, size);
	w32(s + 40, link);
	w32(s + 44, info);
	w64(s + 48, 8);
	w64(s + 56, entsize);
	put(o, s, 64);
}

/* The stub of a parsed ELF64: header, then the five sections. */
static int build(const struct gd_elf *e, struct sbuf *o)
{
	static const char shs[] =
	    "\0.dynstr\0.dynamic\0.gnu.version_r\0.gnu.version_d\0.shstrtab";
	struct sbuf st = {0}, d = {0}, vr = {0}, vd = {0};
	struct gd_bs_dyn dy = {0};
	struct gd_elf_vn vn[MAXV];
	const char *defs[MAXV];
	size_t nvn = gd_elf_verneed(e, vn, MAXV);
	size_t ndef = gd_elf_verdef(e, defs, MAXV);
	size_t off[6];
	unsigned nr, nd;

	put(&st, "", 1);
	if (gd_elf_dynamic(e, &dy, 0, NULL, 0) == 0) {
		for (size_t i = 0; i < dy.needed.n; i++)
			dyn(&d, 1 /* DT_NEEDED */, str(&st, dy.needed.v[i]));
		if (dy.soname[0])
			dyn(&d, 14 /* DT_SONAME */, str(&st, dy.soname));
		if (dy.runpath[0])
			dyn(&d, 29 /* DT_RUNPATH */, str(&st, dy.runpath));
		if (dy.rpath[0])
			dyn(&d, 15 /* DT_RPATH */, str(&st, dy.rpath));
	}
	dyn(&d, 0, 0);
	nr = verneed(&vr, &st, vn, nvn);
	nd = verdef(&vd, &st, defs, ndef);
	gd_bs_dyn_free(&dy);
	put(o, e->b, 64); /* e_ident, type, machine, flags; fixed below */
	off[1] = put(o, st.b, st.n);
	align(o, 8);
	off[2] = put(o, d.b, d.n);
	align(o, 8);
	off[3] = vr.n ? put(o, vr.b, vr.n) : o->n;
	align(o, 8);
	off[4] = vd.n ? put(o, vd.b, vd.n) : o->n;
	off[5] = put(o, shs, sizeof shs);
	align(o, 8);
	off[0] = o->n;
	put(o, (uint8_t[64]){0}, 64);
	shdr(o, 1, 3, off[1], st.n, 0, 0, 0);
	shdr(o, 9, 6, off[2], d.n, 1, 0, 16);
	shdr(o, 18, 0x6ffffffe, off[3], vr.n, 1, nr, 0);
	shdr(o, 33, 0x6ffffffd, off[4], vd.n, 1, nd, 0);
	shdr(o, 48, 3, off[5], sizeof shs, 0, 0, 0);
	free(st.b);
	free(d.b);
	free(vr.b);
	free(vd.b);
	if (o->n < off[0] + 6 * 64)
		return -1;	/* out of memory on the way */
	w64(o->b + 24, 0);	/* e_entry */
	w64(o->b + 32, 0);	/* e_phoff */
	w64(o->b + 40, off[0]); /* e_shoff */
	w16(o->b + 52, 64);	/* e_ehsize */
	w16(o->b + 54, 0);	/* e_phentsize */
	w16(o->b + 56, 0);	/* e_phnum */
	w16(o->b + 58, 64);	/* e_shentsize */
	w16(o->b + 60, 6);	/* e_shnum */
	w16(o->b + 62, 5);	/* e_shstrndx */
	return 0;
}

int gd_elf_stub(gd_ctx *ctx, const char *path, char **buf, size_t *len)
{
	int fd = gd_fs_open(&ctx->fs, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct sbuf o = {0};
	struct stat st;
	struct gd_elf e;
	uint8_t *m;
	int rc = 0;

	*buf = NULL;
	*len = 0;
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size == 0) {
		close(fd);
		return 0; /* stored empty: nothing to judge */
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return -1;
	if (gd_elf_open(&e, m, (size_t)st.st_size, NULL, 0) ||
	    build(&e, &o) < 0) {
		/* not a 64-bit ELF (or a broken one): its header says so */
		o.n = 0;
		put(&o, m, (size_t)st.st_size < 64 ? (size_t)st.st_size : 64);
	}
	munmap(m, (size_t)st.st_size);
	if (!o.b && st.st_size)
		rc = -1;
	*buf = (char *)o.b;
	*len = o.n;
	return rc;
}
