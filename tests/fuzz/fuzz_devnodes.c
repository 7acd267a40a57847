/* libFuzzer: the .gpudoctor/devnodes parser (core/devnodes.c) on any bytes:
 * it must not crash, keep at most GD_DEVNODES_MAX nodes, and every node
 * it keeps must be findable by its path. Seeds: corpus/fuzz_devnodes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/devnodes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct gd_devnodes d;
	char err[128];

	if (gd_devnodes_parse((const char *)data, size, &d, err, sizeof err) <
	    0)
		return 0;
	if (d.n > GD_DEVNODES_MAX)
		abort();
	for (size_t i = 0; i < d.n; i++)
		if (d.v[i].path[0] != '/' || d.v[i].mode > 07777 ||
		    !gd_devnodes_find(&d, d.v[i].path))
			abort();
	return 0;
}
