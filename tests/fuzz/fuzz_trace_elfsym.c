/* Fuzz the function lookup of the hang report (probe/trace_elfsym.c): the
 * ELF file is whatever the traced program mapped, so it may be damaged or
 * hostile. The first 8 bytes are the file offset asked for, the rest the
 * file; the answer must be a string within its buffer. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe/trace.h"

struct img {
	const uint8_t *p;
	size_t n;
};

static int rd_mem(void *ctx, uint64_t off, void *buf, size_t n)
{
	const struct img *im = ctx;

	if (off > im->n || n > im->n - off)
		return -1;
	memcpy(buf, im->p + off, n);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct img im;
	uint64_t off = 0;
	char out[128], tiny[4];

	if (size < 8)
		return 0;
	memcpy(&off, data, 8);
	im.p = data + 8;
	im.n = size - 8;
	gd_trace_elf_func(rd_mem, &im, off % (im.n + 1), out, sizeof out);
	if (!memchr(out, '\0', sizeof out))
		abort();
	gd_trace_elf_func(rd_mem, &im, off, tiny, sizeof tiny);
	if (!memchr(tiny, '\0', sizeof tiny))
		abort();
	return 0;
}
