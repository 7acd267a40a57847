/* libFuzzer: the KFD properties parser and node decoding on any bytes. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "discover/discover.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct gd_kfd_props p;
	struct gd_kfd_node n;
	struct gd_override o;
	char buf[64];

	gd_kfd_props_parse((const char *)data, size, &p);
	gd_kfd_node_from_props(&n, 1, &p);
	gd_gfx_from_version(n.gfx_target_version, buf, sizeof buf);
	/* the override parser on the same bytes, as a C string */
	if (size < sizeof buf) {
		memcpy(buf, data, size);
		buf[size] = '\0';
		memset(&o, 0, sizeof o);
		gd_hsa_override_parse(buf, &o);
	}
	return 0;
}
