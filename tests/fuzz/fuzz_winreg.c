/* libFuzzer: regedit export files (UTF-16LE/UTF-8, continuations,
 * deletions) into the registry tree, then the lookups the Windows readers
 * make. */
#include <stdlib.h>

#include "core/winreg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The name index (winreg.c) finds every subkey and value by its own name,
 * after any mix of adds and deletions. */
static void check_index(const gd_reg_key *k, int depth)
{
	for (size_t i = 0; i < k->nval; i++)
		if (gd_reg_get(k, k->val[i].name) != &k->val[i])
			abort();
	for (size_t i = 0; i < k->nsub; i++) {
		if (gd_reg_sub(k, k->sub[i]->name) != k->sub[i])
			abort();
		if (depth < 8)
			check_index(k->sub[i], depth + 1);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gd_reg r;
	char err[128], s[64];
	uint64_t x;
	gd_reg_key *k;

	gd_reg_init(&r);
	gd_reg_parse(&r, data, size, NULL, err, sizeof err);
	gd_reg_parse(&r, data, size, NULL, err, sizeof err); /* merge twice */
	k = gd_reg_find(&r, "HKLM\\A");
	gd_reg_str(k, "", s, sizeof s);
	gd_reg_u64(k, "b", &x);
	for (size_t i = 0; i < r.root.nsub; i++)
		gd_reg_str(r.root.sub[i], "x", s, sizeof s);
	check_index(&r.root, 0);
	gd_reg_free(&r);
	return 0;
}
