/* probe/backend_hip: placeholder while the real one is written. */
#include "backend.h"

static int hip_run(struct gd_pc *pc)
{
	gd_pc_skip(pc, -1, "init", GD_PS_SKIPPED, "not built yet");
	return 0;
}

const struct gd_backend gd_backend_hip = {
	.name = "hip",
	.title = "HIP",
	.run = hip_run,
};
