/* Lookups in the generated id tables (ids_table.c, tools/gen-ids.py):
 * bsearch, the rows being sorted by the generator. */
#include <stdlib.h>

#include "ids_table.h"

static int cmp_row(const void *k, const void *e)
{
	const struct gd_id_row *a = k, *b = e;
	unsigned long x = (unsigned long)a->vendor << 16 | a->device,
		      y = (unsigned long)b->vendor << 16 | b->device;

	return x < y ? -1 : x > y;
}

const struct gd_id_row *gd_ids_lookup(unsigned vendor, unsigned device)
{
	size_t n;
	const struct gd_id_row *r = gd_ids_rows(&n);
	struct gd_id_row key = {0};

	key.vendor = (uint16_t)vendor;
	key.device = (uint16_t)device;
	if (vendor > 0xffff || device > 0xffff)
		return NULL;
	return bsearch(&key, r, n, sizeof *r, cmp_row);
}

static int cmp_rev(const void *k, const void *e)
{
	const struct gd_id_rev *a = k, *b = e;
	unsigned long x = (unsigned long)a->device << 8 | a->rev,
		      y = (unsigned long)b->device << 8 | b->rev;

	return x < y ? -1 : x > y;
}

const char *gd_ids_amd_name(unsigned device, unsigned revision)
{
	size_t n;
	const struct gd_id_rev *r = gd_ids_revs(&n), *hit;
	struct gd_id_rev key = {0};

	if (device > 0xffff)
		return NULL;
	key.device = (uint16_t)device;
	key.rev = (uint8_t)(revision & 0xff);
	hit = bsearch(&key, r, n, sizeof *r, cmp_rev);
	return hit ? hit->name : NULL;
}
