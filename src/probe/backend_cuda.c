/* probe/backend_cuda: placeholder while the real one is written. */
#include "backend.h"

static int cuda_run(struct gd_pc *pc)
{
	gd_pc_skip(pc, -1, "init", GD_PS_SKIPPED, "not built yet");
	return 0;
}

const struct gd_backend gd_backend_cuda = {
	.name = "cuda",
	.title = "CUDA",
	.run = cuda_run,
};
