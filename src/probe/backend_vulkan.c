/* probe/backend_vulkan: placeholder while the real one is written. */
#include "backend.h"

static int vulkan_run(struct gd_pc *pc)
{
	gd_pc_skip(pc, -1, "init", GD_PS_SKIPPED, "not built yet");
	return 0;
}

const struct gd_backend gd_backend_vulkan = {
	.name = "vulkan",
	.title = "Vulkan",
	.run = vulkan_run,
};
