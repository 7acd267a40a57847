/* probe/backend_vulkan_bench: the vector_add op, the figures of
 * `probe --bench` (GPU timestamps for copies, wall clock where the host
 * takes part) and the "model switch" context cycle. */
#include <stdlib.h>
#include <string.h>

#include "vulkan_int.h"

#define N_VEC (1 << 20)

void gd_vk_vector_add(struct gd_pc *pc, struct vk_dev *d)
{
	const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
					   VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
	struct vk_buf b[3] = {{0}};
	struct vk_pipe p = {0};
	float *want = malloc(N_VEC * 4);
	VkResult r = VK_ERROR_OUT_OF_HOST_MEMORY;

	gd_pc_phase(pc, "buffers 3 x 4 MiB host-visible");
	for (int i = 0; i < 3 && want; i++)
		if ((r = gd_vk_buffer(d, N_VEC * 4, host, &b[i])))
			break;
	if (r) {
		gd_pc_end(pc, GD_PS_ERROR, 0, "buffers: %s (%d)", gd_vk_err(r),
			  r);
		goto out;
	}
	gd_pc_fill_random(b[0].map, N_VEC, 1);
	gd_pc_fill_random(b[1].map, N_VEC, 2);
	memset(b[2].map, 0, N_VEC * 4);
	for (int i = 0; i < N_VEC; i++)
		want[i] = ((float *)b[0].map)[i] + ((float *)b[1].map)[i];
	gd_pc_phase(pc, "vkCreateComputePipelines vector_add");
	p.n = N_VEC;
	if ((r = gd_vk_pipe_make(d, &p, b))) {
		gd_pc_end(pc, GD_PS_ERROR, 0, "pipeline: %s (%d)", gd_vk_err(r),
			  r);
		goto out;
	}
	gd_pc_phase(pc, "dispatch vector_add");
	if ((r = gd_vk_run(d, gd_vk_rec_dispatch, &p))) {
		gd_pc_end(pc, GD_PS_ERROR, 0, "dispatch: %s (%d)", gd_vk_err(r),
			  r);
		goto out;
	}
	{
		double err = gd_pc_max_rel_error(b[2].map, want, N_VEC);

		gd_pc_end(pc, err == 0 ? GD_PS_OK : GD_PS_WRONG, err,
			  "%d elements checked", N_VEC);
	}
out:
	gd_vk_pipe_free(d, &p);
	for (int i = 0; i < 3; i++)
		gd_vk_free(d, &b[i]);
	free(want);
}

/* Median of 5 timed copies (GPU timestamps), after one warm-up. */
static double vk_time_copy(struct vk_dev *d, struct vk_buf *src,
			   struct vk_buf *dst, VkDeviceSize sz)
{
	VkQueryPoolCreateInfo qi = {
	    .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
	struct vk_copy c = {src->b, dst->b, sz, VK_NULL_HANDLE};
	double t[5];
	uint64_t ts[2];

	qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
	qi.queryCount = 2;
	if (d->ts_period <= 0 || vkCreateQueryPool(d->dev, &qi, NULL, &c.qp))
		return -1;
	for (int i = -1; i < 5; i++) {
		if (gd_vk_run(d, gd_vk_rec_copy, &c) ||
		    vkGetQueryPoolResults(d->dev, c.qp, 0, 2, sizeof ts, ts, 8,
					  VK_QUERY_RESULT_64_BIT |
					      VK_QUERY_RESULT_WAIT_BIT)) {
			vkDestroyQueryPool(d->dev, c.qp, NULL);
			return -1;
		}
		if (i >= 0)
			t[i] = (double)(ts[1] - ts[0]) * d->ts_period * 1e-9;
	}
	vkDestroyQueryPool(d->dev, c.qp, NULL);
	return gd_pc_median(t, 5);
}

/* Vulkan has no copy from pageable memory: an application copies its
 * malloc'd data into a mapped staging buffer and lets the GPU copy from
 * there, which is what the CUDA driver does inside cuMemcpyHtoD. Timed
 * as a whole on the wall clock: memcpy + submit + fence. */
static double vk_time_pageable(struct vk_dev *d, struct vk_buf *stage,
			       struct vk_buf *dst, VkDeviceSize sz)
{
	char *page = malloc(sz);
	double t[5];
	int ok = page != NULL;

	if (ok)
		memset(page, 3, sz); /* fault the pages in before timing */
	for (int i = -1; i < 5 && ok; i++) {
		double t0 = gd_pc_now();

		memcpy(stage->map, page, sz);
		ok = !gd_vk_copy(d, stage, dst, sz);
		if (i >= 0)
			t[i] = gd_pc_now() - t0;
	}
	free(page);
	return ok ? gd_pc_median(t, 5) : -1;
}

/* Record + submit one small dispatch + fence wait, wall clock. */
static void vk_bench_latency(struct gd_pc *pc, struct vk_dev *d, int dev)
{
	const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
					   VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
	struct vk_buf v[3] = {{0}};
	struct vk_pipe p = {0};
	double lat[30];
	int ok = 1;

	gd_pc_phase(pc, "bench: launch latency");
	for (int i = 0; i < 3; i++)
		ok &= !gd_vk_buffer(d, 4096, host, &v[i]);
	p.n = 256;
	if (ok && !gd_vk_pipe_make(d, &p, v)) {
		for (int i = -5; i < 30 && ok; i++) {
			double t0 = gd_pc_now();

			ok = !gd_vk_run(d, gd_vk_rec_dispatch, &p);
			if (i >= 0)
				lat[i] = (gd_pc_now() - t0) * 1e6;
		}
		if (ok)
			gd_pc_figure(pc, dev, "launch_latency",
				     gd_pc_median(lat, 30), "us",
				     "record + submit 1 dispatch + fence wait, "
				     "wall clock, median of 30");
	}
	gd_vk_pipe_free(d, &p);
	for (int i = 0; i < 3; i++)
		gd_vk_free(d, &v[i]);
}

void gd_vk_bench(struct gd_pc *pc, struct vk_dev *d, int dev)
{
	const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
					   VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
	VkDeviceSize sz = 256u << 20;
	struct vk_buf a = {0}, b = {0}, h = {0};
	double t;

	gd_pc_phase(pc, "bench: buffers 256 MiB");
	if (gd_vk_buffer(d, sz, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &a) ||
	    gd_vk_buffer(d, sz, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &b))
		goto out;
	gd_pc_phase(pc, "bench: d2d copy");
	t = vk_time_copy(d, &a, &b, sz);
	if (t > 0)
		gd_pc_figure(
		    pc, dev, "d2d_bandwidth", sz / t / 1e9, "GB/s",
		    "vkCmdCopyBuffer 256 MiB, bytes counted once (memory "
		    "traffic is 2x), GPU timestamps, median of 5");
	if (!gd_vk_buffer(d, sz, host, &h)) {
		gd_pc_phase(pc, "bench: h2d from mapped memory");
		memset(h.map, 1, sz);
		t = vk_time_copy(d, &h, &a, sz);
		if (t > 0)
			gd_pc_figure(
			    pc, dev, "h2d_pinned", sz / t / 1e9, "GB/s",
			    "vkCmdCopyBuffer 256 MiB from host-visible "
			    "coherent memory, GPU timestamps, median of 5");
		gd_pc_phase(pc, "bench: h2d from malloc memory via staging");
		t = vk_time_pageable(d, &h, &a, sz);
		if (t > 0)
			gd_pc_figure(
			    pc, dev, "h2d_pageable", sz / t / 1e9, "GB/s",
			    "memcpy 256 MiB malloc -> mapped staging + "
			    "vkCmdCopyBuffer + fence, wall clock, median of 5");
	}
	vk_bench_latency(pc, d, dev);
out:
	gd_vk_free(d, &a);
	gd_vk_free(d, &b);
	gd_vk_free(d, &h);
}

struct vk_cycle {
	VkPhysicalDevice phys;
	uint32_t family;
	PFN_vkCreateDevice create;
	PFN_vkDestroyDevice destroy;
};

static long vk_cycle_once(struct gd_pc_cycle_thread *t, void *arg)
{
	struct vk_cycle *c = arg;
	VkDevice dv;
	VkResult r;

	gd_pc_cycle_step(t, "vkCreateDevice");
	r = gd_vk_make_device(c->create, c->phys, c->family, &dv);
	if (r)
		return r;
	gd_pc_cycle_step(t, "vkDestroyDevice");
	c->destroy(dv, NULL);
	return 0;
}

/* The "model switch": devices created and destroyed from 4 threads for
 * about 2 s, through the loader's instance-level entry points (volk's
 * globals point at the current device's functions). One vkCreateDevice
 * takes ~0.4 s on NVIDIA's driver and ~1 ms on lavapipe, hence a time
 * budget rather than a count. */
void gd_vk_context_cycle(struct gd_pc *pc, VkInstance inst, struct vk_dev *d)
{
	struct vk_cycle vc = {d->phys, d->family, NULL, NULL};
	struct gd_pc_cycler c;

	vc.create =
	    (PFN_vkCreateDevice)vkGetInstanceProcAddr(inst, "vkCreateDevice");
	vc.destroy =
	    (PFN_vkDestroyDevice)vkGetInstanceProcAddr(inst, "vkDestroyDevice");
	if (!vc.create || !vc.destroy) {
		gd_pc_end(pc, GD_PS_MISSING, 0,
			  "vkCreateDevice/vkDestroyDevice not resolved");
		return;
	}
	memset(&c, 0, sizeof c);
	c.pc = pc;
	c.cycle = vk_cycle_once;
	c.arg = &vc;
	c.budget_s = 2.0;
	c.nthreads = 4;
	if (gd_pc_cycle_run(&c)) {
		gd_pc_end(pc, GD_PS_ERROR, 0,
			  "thread %d cycle %d, %s: %s (%ld)", c.err_thread,
			  c.err_cycle, c.err_what, gd_vk_err((VkResult)c.err),
			  c.err);
		return;
	}
	gd_pc_end(pc, GD_PS_OK, 0,
		  "%d devices created and destroyed from 4 "
		  "threads in %.1f s",
		  c.cycles, c.seconds);
}
