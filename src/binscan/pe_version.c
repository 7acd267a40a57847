/* The version of a Windows PE file, as Explorer's "File version" and
 * "Product version" show it: VS_FIXEDFILEINFO (docs/scan.md) inside the
 * RT_VERSION resource, found by its signature 0xFEEF04BD (dwSignature)
 * followed by dwStrucVersion 0x00010000, at a 4-byte boundary as the
 * VS_VERSIONINFO layout aligns it. Searching the bytes instead of walking
 * the resource tree also reads the header-and-resource-only DLLs that
 * Windows captures store. */
#include <stdio.h>
#include <string.h>

#include "binscan.h"
#include "pe_version.h"

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

int gd_pe_version(const uint8_t *b, size_t n, char *file_ver, char *prod_ver,
		  size_t cap)
{
	if (cap)
		file_ver[0] = prod_ver[0] = '\0';
	if (n < 64 || b[0] != 'M' || b[1] != 'Z')
		return -1;
	for (size_t i = 0; i + 52 <= n; i += 4) {
		uint32_t fms, fls, pms, pls;

		if (le32(b + i) != 0xFEEF04BDu ||
		    le32(b + i + 4) != 0x00010000u)
			continue;
		fms = le32(b + i + 8);
		fls = le32(b + i + 12);
		pms = le32(b + i + 16);
		pls = le32(b + i + 20);
		snprintf(file_ver, cap, "%u.%u.%u.%u", fms >> 16, fms & 0xffff,
			 fls >> 16, fls & 0xffff);
		snprintf(prod_ver, cap, "%u.%u.%u.%u", pms >> 16, pms & 0xffff,
			 pls >> 16, pls & 0xffff);
		return 0;
	}
	return -1;
}
