/* probe/backend_hip_bench: the HIP "model switch": streams and buffers
 * created, used and destroyed from several threads, then the device's
 * primary context reset with hipDeviceReset and used again. (The copy and
 * launch figures are device.c's, over backend_hip_dev.c.) */
#include <stdlib.h>
#include <string.h>

#include "hip_api.h"

/* One cycle: what a framework's worker thread does with its own stream. */
static long hip_cycle_once(struct gd_pc_cycle_thread *t, void *arg)
{
	struct gd_hip *h = arg;
	hipStream_t s = NULL;
	void *p = NULL;
	hipError_t e;

	gd_pc_cycle_step(t, "hipSetDevice");
	if ((e = h->SetDevice(h->dev)))
		return e;
	gd_pc_cycle_step(t, "hipStreamCreate");
	if ((e = h->StreamCreate(&s)))
		return e;
	gd_pc_cycle_step(t, "hipMalloc 1 MiB");
	e = h->Malloc(&p, 1 << 20);
	if (!e) {
		gd_pc_cycle_step(t,
				 "hipMemcpyAsync D2D + hipStreamSynchronize");
		e = h->MemcpyAsync(p, (char *)p + (512 << 10), 512 << 10,
				   GD_HIP_D2D, s);
		if (!e)
			e = h->StreamSynchronize(s);
		gd_pc_cycle_step(t, "hipFree");
		h->Free(p);
	}
	gd_pc_cycle_step(t, "hipStreamDestroy");
	h->StreamDestroy(s);
	return e;
}

/* After the threads: hipDeviceReset tears the primary context down; the
 * device must then work again (a new stream, an allocation, a copy). */
static hipError_t hip_reset(struct gd_pc *pc, struct gd_hip *h,
			    const char **what)
{
	void *p = NULL;
	char buf[64] = "", back[64];
	hipError_t e;

	gd_pc_phase(pc, "hipDeviceReset");
	*what = "hipDeviceReset";
	h->StreamDestroy(h->stream);
	h->stream = NULL;
	if ((e = h->DeviceReset()))
		return e;
	h->ev[0] = h->ev[1] = NULL; /* the reset destroyed any events */
	gd_pc_phase(pc, "hipSetDevice + hipStreamCreate after the reset");
	*what = "hipSetDevice/hipStreamCreate after hipDeviceReset";
	if ((e = h->SetDevice(h->dev)) || (e = h->StreamCreate(&h->stream)))
		return e;
	*what = "hipMalloc/hipMemcpy after hipDeviceReset";
	memset(buf, 0x5a, sizeof buf);
	if ((e = h->Malloc(&p, sizeof buf)))
		return e;
	e = h->Memcpy(p, buf, sizeof buf, GD_HIP_H2D);
	if (!e)
		e = h->Memcpy(back, p, sizeof back, GD_HIP_D2H);
	h->Free(p);
	if (!e && memcmp(buf, back, sizeof buf))
		e = -1;
	return e;
}

void gd_hip_context_cycle(struct gd_pc *pc, struct gd_hip *h)
{
	struct gd_pc_cycler c;
	const char *what = "";
	char e[200];
	hipError_t he;

	memset(&c, 0, sizeof c);
	c.pc = pc;
	c.cycle = hip_cycle_once;
	c.arg = h;
	c.budget_s = 2.0;
	c.nthreads = 4;
	if (gd_pc_cycle_run(&c)) {
		gd_hip_err(h, (hipError_t)c.err, e, sizeof e);
		gd_pc_end(pc, GD_PS_ERROR, 0, "thread %d cycle %d, %s: %s",
			  c.err_thread, c.err_cycle, c.err_what, e);
		return;
	}
	he = hip_reset(pc, h, &what);
	if (he == -1) {
		gd_pc_end(pc, GD_PS_WRONG, 1,
			  "%d stream cycles from 4 threads "
			  "ok, but after hipDeviceReset a copy read back "
			  "differs",
			  c.cycles);
	} else if (he) {
		gd_hip_err(h, he, e, sizeof e);
		gd_pc_end(pc, GD_PS_ERROR, 0,
			  "%d stream cycles from 4 threads "
			  "ok; then %s: %s",
			  c.cycles, what, e);
	} else {
		gd_pc_end(pc, GD_PS_OK, 0,
			  "%d stream/buffer cycles from 4 "
			  "threads in %.1f s, then hipDeviceReset and the "
			  "device used again",
			  c.cycles, c.seconds);
	}
}
