/* Placeholder: the discover/ work replaces this file. */
#include <stdlib.h>
#include <string.h>

#include "discover.h"

const char *gd_vendor_name(enum gd_vendor v)
{
	switch (v) {
	case GD_VENDOR_AMD:
		return "amd";
	case GD_VENDOR_NVIDIA:
		return "nvidia";
	case GD_VENDOR_INTEL:
		return "intel";
	default:
		return "other";
	}
}

int gd_discover(gd_ctx *ctx, struct gd_machine *m)
{
	(void)ctx;
	memset(m, 0, sizeof *m);
	return 0;
}

void gd_machine_free(struct gd_machine *m)
{
	for (size_t i = 0; i < m->n_gpus; i++)
		free(m->gpus[i].kfd_nodes);
	free(m->gpus);
	memset(m, 0, sizeof *m);
}
