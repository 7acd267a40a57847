/* libFuzzer: regedit export files (UTF-16LE/UTF-8, continuations,
 * deletions) into the registry tree, then the lookups the Windows readers
 * make. */
#include "core/winreg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
	gd_reg_free(&r);
	return 0;
}
