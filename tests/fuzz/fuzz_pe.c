/* libFuzzer: PE reader (headers, section names through the string table,
 * RVA mapping, import / delay-import / export tables), the GPU sections
 * behind it (.hip_fat, .nv_fatb, the .hipFatB wrapper), and the archive
 * resolution of its imports. Seeds: DLLs built by MinGW-w64 (see
 * corpus/fuzz_pe/README.md). */
#include <stdlib.h>
#include <string.h>

#include "binscan/binscan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = {"pkg/a.pyd", "pkg/amdhip64_7.dll",
					    "pkg.libs/KERNEL32.dll"};
	struct gd_zip_names ix;
	struct gd_bs_file f;
	struct gd_pe p;
	struct gd_pe_sect s;
	char err[200];

	memset(&f, 0, sizeof f);
	if (gd_bs_scan_bytes(data, size, &f) == 0 && gd_bs_is_pe(&f) &&
	    gd_zip_names_init(&ix, names, 3) == 0) {
		gd_dll_archive_needs(&f, "pkg/a.pyd", &ix);
		gd_zip_names_free(&ix);
	}
	gd_bs_file_free(&f);
	if (!gd_pe_open(&p, data, size, err, sizeof err)) {
		uint64_t off, avail;
		const uint8_t *d;
		size_t len;

		for (unsigned i = 0; i < p.nsect; i++)
			if (!gd_pe_section(&p, i, &s))
				gd_pe_sect_bytes(&p, &s, &d, &len);
		gd_pe_find(&p, ".hip_fatbin", &s);
		gd_pe_rva(&p, 0x1000, &off, &avail);
	}
	return 0;
}
