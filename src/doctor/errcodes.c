/* Lookups over the generated error-code table (errcodes_gen.c). */
#include "errcodes.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GD_ERRIDX_BITS 12

struct gd_errcode_index {
	uint16_t slot[1u << GD_ERRIDX_BITS]; /* code index + 1; 0 empty */
	uint8_t pre[65536 / 8];		     /* names' first two bytes */
};

static unsigned two(const char *w)
{
	return (unsigned)(unsigned char)w[0] << 8 | (unsigned char)w[1];
}

int gd_errcode_maybe(const struct gd_errcode_index *x, const char *w)
{
	unsigned k = two(w);

	return x->pre[k >> 3] >> (k & 7) & 1;
}

static unsigned name_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h >> (32 - GD_ERRIDX_BITS);
}

int gd_errcode_api_find(const char *id)
{
	for (unsigned i = 0; i < gd_errcode_n_apis; i++)
		if (!strcmp(gd_errcode_apis[i].id, id))
			return (int)i;
	return -1;
}

const struct gd_errcode *gd_errcode_by_value(unsigned api, long long v)
{
	for (unsigned i = 0; i < gd_errcode_n; i++)
		if (gd_errcodes[i].api == api && gd_errcodes[i].value == v)
			return &gd_errcodes[i];
	return NULL;
}

struct gd_errcode_index *gd_errcode_index_new(void)
{
	struct gd_errcode_index *x = calloc(1, sizeof *x);
	const unsigned mask = (1u << GD_ERRIDX_BITS) - 1;

	if (!x)
		return NULL;
	for (unsigned i = 0; i < gd_errcode_n && i < mask; i++) {
		const char *s = gd_errcodes[i].name;
		unsigned h = name_hash(s, strlen(s));

		while (x->slot[h])
			h = (h + 1) & mask;
		x->slot[h] = (uint16_t)(i + 1);
		x->pre[two(s) >> 3] |= (uint8_t)(1u << (two(s) & 7));
	}
	return x;
}

const struct gd_errcode *gd_errcode_lookup(const struct gd_errcode_index *x,
					   const char *name, size_t n)
{
	const unsigned mask = (1u << GD_ERRIDX_BITS) - 1;

	for (unsigned h = name_hash(name, n); x->slot[h]; h = (h + 1) & mask) {
		const struct gd_errcode *c = &gd_errcodes[x->slot[h] - 1];

		if (!strncmp(c->name, name, n) && !c->name[n])
			return c;
	}
	return NULL;
}

int gd_errcode_is_success(const struct gd_errcode *c)
{
	return c->value == 0 || strstr(c->name, "SUCCESS") ||
	       strstr(c->name, "Success");
}
