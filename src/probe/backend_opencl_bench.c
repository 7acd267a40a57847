/* probe/backend_opencl_bench: the OpenCL "model switch" context cycle.
 * (The copy and launch figures are device.c's, over
 * backend_opencl_dev.c.) */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "opencl_api.h"

struct cl_cycle {
	struct gd_cl *cl;
	cl_device_id id;
};

static long cl_cycle_once(struct gd_pc_cycle_thread *t, void *arg)
{
	struct cl_cycle *c = arg;
	cl_context ctx;
	cl_command_queue q;
	cl_int e = 0;

	gd_pc_cycle_step(t, "clCreateContext");
	ctx = c->cl->CreateContext(NULL, 1, &c->id, NULL, NULL, &e);
	if (!ctx)
		return e ? e : CL_OUT_OF_HOST_MEMORY;
	gd_pc_cycle_step(t, "clCreateCommandQueue");
	q = c->cl->CreateCommandQueue(ctx, c->id, 0, &e);
	if (q) {
		gd_pc_cycle_step(t, "clReleaseCommandQueue");
		c->cl->ReleaseCommandQueue(q);
	}
	gd_pc_cycle_step(t, "clReleaseContext");
	c->cl->ReleaseContext(ctx);
	return q ? 0 : e ? e : CL_OUT_OF_HOST_MEMORY;
}

/* The "model switch": contexts created and destroyed from 4 threads for
 * about 2 s (NVIDIA's clCreateContext is slow, PoCL's fast). */
void gd_cl_context_cycle(struct gd_pc *pc, struct gd_cl *cl, cl_device_id id)
{
	struct cl_cycle cc = {cl, id};
	struct gd_pc_cycler c;

	memset(&c, 0, sizeof c);
	c.pc = pc;
	c.cycle = cl_cycle_once;
	c.arg = &cc;
	c.budget_s = 2.0;
	c.nthreads = 4;
	if (gd_pc_cycle_run(&c)) {
		gd_pc_end(pc, GD_PS_ERROR, 0,
			  "thread %d cycle %d, %s: %s (%ld)", c.err_thread,
			  c.err_cycle, c.err_what, gd_cl_err((cl_int)c.err),
			  c.err);
		return;
	}
	gd_pc_end(pc, GD_PS_OK, 0,
		  "%d contexts created and released from 4 "
		  "threads in %.1f s",
		  c.cycles, c.seconds);
}
