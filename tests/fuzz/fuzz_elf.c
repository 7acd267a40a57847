/* libFuzzer: ELF reader (headers, sections, dynamic, verneed) and the
 * whole bytes scanner on top of it. */
#include <stdlib.h>
#include <string.h>

#include "binscan/binscan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gd_bs_file f;
	struct gd_elf e;
	struct gd_bs_dyn d;
	char err[200];

	memset(&f, 0, sizeof f);
	gd_bs_scan_bytes(data, size, &f);
	gd_bs_file_free(&f);
	memset(&d, 0, sizeof d);
	if (!gd_elf_open(&e, data, size, err, sizeof err)) {
		struct gd_elf_shdr s;
		struct gd_bs_symver sv = {"libc.so.6", "GLIBC_2.2.5",
					  (char *)"malloc"};
		const struct gd_bs_symver *need[1] = {&sv};
		unsigned char found[1] = {0};

		gd_elf_dynamic(&e, &d, 64, err, sizeof err);
		gd_elf_find(&e, ".nv_fatbin", &s);
		gd_elf_mark_defined(&e, need, 1, found);
	}
	gd_bs_dyn_free(&d);
	return 0;
}
