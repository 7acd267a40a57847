/* Lookups in the generated id tables (ids_table.c, tools/gen-ids.py):
 * binary search, the rows being sorted by the generator. */
#include "ids_table.h"

const struct gd_id_row *gd_ids_lookup(unsigned vendor, unsigned device)
{
	size_t n, lo = 0, hi;
	const struct gd_id_row *r = gd_ids_rows(&n);
	unsigned long key = (unsigned long)vendor << 16 | device;

	hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		unsigned long k =
		    (unsigned long)r[mid].vendor << 16 | r[mid].device;

		if (k == key)
			return &r[mid];
		if (k < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *gd_ids_amd_name(unsigned device, unsigned revision)
{
	size_t n, lo = 0, hi;
	const struct gd_id_rev *r = gd_ids_revs(&n);
	unsigned long key = (unsigned long)device << 8 | (revision & 0xff);

	hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		unsigned long k =
		    (unsigned long)r[mid].device << 8 | r[mid].rev;

		if (k == key)
			return r[mid].name;
		if (k < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
