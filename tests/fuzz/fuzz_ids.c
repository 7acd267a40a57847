/* libFuzzer: amdgpu.ids and pci.ids lookups, NVIDIA procfs parsers, the
 * PCI uevent / config-space fallbacks and PCI addresses, on any bytes.
 * The first 4 bytes choose the ids looked up. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "discover/discover.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char name[160], vn[160], *s;
	unsigned dev = 0x731f, rev = 0xc1;

	if (size >= 4) {
		dev = (unsigned)data[0] << 8 | data[1];
		rev = data[2];
	}
	gd_amdgpu_ids_lookup((const char *)data, size, dev, rev, name,
			     sizeof name);
	gd_pci_ids_lookup((const char *)data, size, 0x1002, dev, vn, sizeof vn,
			  name, sizeof name);
	{
		struct gd_pci_uevent u;

		gd_pci_uevent_parse((const char *)data, size, &u);
		gd_pci_config_parse(data, size, &u);
	}
	s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	gd_nv_version_parse(s, name, sizeof name);
	gd_nv_info_get(s, "Model", name, sizeof name);
	{
		uint32_t d, b, v, f;

		gd_pci_bdf_parse(s, &d, &b, &v, &f);
	}
	free(s);
	return 0;
}
