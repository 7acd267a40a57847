/* probe/backend_vulkan: the Vulkan op matrix through volk. libvulkan.so.1
 * is opened by gd_pc_dlopen (so GPUDOCTOR_LIB_PATH applies) and handed to
 * volkInitializeCustom. volk keeps its function pointers in globals: fine,
 * this code only runs in the probe child, one device at a time. The
 * vector_add shader is SPIR-V compiled at build time (shaders/). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <volk.h>

#include "backend.h"

extern const unsigned char gd_spv_vector_add[];
extern const unsigned long gd_spv_vector_add_len;

#define N_VEC (1 << 20)

struct vk_dev {
	VkPhysicalDevice phys;
	VkDevice dev;
	VkQueue q;
	uint32_t family;
	VkCommandPool pool;
	VkPhysicalDeviceMemoryProperties mem;
	float ts_period;
};

struct vk_buf {
	VkBuffer b;
	VkDeviceMemory m;
	void *map;
};

static const char *vk_err(VkResult r)
{
	switch (r) {
	case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
	case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
	case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
	case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
	case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
	case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
	case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
	case VK_ERROR_LAYER_NOT_PRESENT: return "VK_ERROR_LAYER_NOT_PRESENT";
	case VK_TIMEOUT: return "VK_TIMEOUT";
	default: return "VkResult";
	}
}

static int vk_memtype(const struct vk_dev *d, uint32_t bits,
		      VkMemoryPropertyFlags want)
{
	for (uint32_t i = 0; i < d->mem.memoryTypeCount; i++)
		if ((bits & (1u << i)) &&
		    (d->mem.memoryTypes[i].propertyFlags & want) == want)
			return (int)i;
	return -1;
}

static VkResult vk_buffer(struct vk_dev *d, VkDeviceSize sz,
			  VkMemoryPropertyFlags props, struct vk_buf *out)
{
	VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
	VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
	VkMemoryRequirements req;
	VkResult r;
	int t;

	memset(out, 0, sizeof *out);
	bi.size = sz;
	bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
		   VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
		   VK_BUFFER_USAGE_TRANSFER_DST_BIT;
	r = vkCreateBuffer(d->dev, &bi, NULL, &out->b);
	if (r)
		return r;
	vkGetBufferMemoryRequirements(d->dev, out->b, &req);
	t = vk_memtype(d, req.memoryTypeBits, props);
	if (t < 0)
		return VK_ERROR_FEATURE_NOT_PRESENT;
	ai.allocationSize = req.size;
	ai.memoryTypeIndex = (uint32_t)t;
	r = vkAllocateMemory(d->dev, &ai, NULL, &out->m);
	if (!r)
		r = vkBindBufferMemory(d->dev, out->b, out->m, 0);
	if (!r && (props & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT))
		r = vkMapMemory(d->dev, out->m, 0, sz, 0, &out->map);
	return r;
}

static void vk_free(struct vk_dev *d, struct vk_buf *b)
{
	if (b->map)
		vkUnmapMemory(d->dev, b->m);
	if (b->b)
		vkDestroyBuffer(d->dev, b->b, NULL);
	if (b->m)
		vkFreeMemory(d->dev, b->m, NULL);
	memset(b, 0, sizeof *b);
}

/* Records with rec(arg, cmd), submits, waits on a fence (10 s: the probe
 * deadline is the real limit). */
static VkResult vk_run(struct vk_dev *d, void (*rec)(void *, VkCommandBuffer),
		       void *arg)
{
	VkCommandBufferAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO};
	VkCommandBuffer cb;
	VkFence f;
	VkResult r;

	ai.commandPool = d->pool;
	ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
	ai.commandBufferCount = 1;
	r = vkAllocateCommandBuffers(d->dev, &ai, &cb);
	if (r)
		return r;
	bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
	vkBeginCommandBuffer(cb, &bi);
	rec(arg, cb);
	vkEndCommandBuffer(cb);
	r = vkCreateFence(d->dev, &fi, NULL, &f);
	if (!r) {
		si.commandBufferCount = 1;
		si.pCommandBuffers = &cb;
		r = vkQueueSubmit(d->q, 1, &si, f);
		if (!r)
			r = vkWaitForFences(d->dev, 1, &f, VK_TRUE,
					    10000000000ull);
		vkDestroyFence(d->dev, f, NULL);
	}
	vkFreeCommandBuffers(d->dev, d->pool, 1, &cb);
	return r;
}

struct vk_copy {
	VkBuffer src, dst;
	VkDeviceSize sz;
	VkQueryPool qp;
};

static void rec_copy(void *arg, VkCommandBuffer cb)
{
	struct vk_copy *c = arg;
	VkBufferCopy reg = {0, 0, c->sz};

	if (c->qp) {
		vkCmdResetQueryPool(cb, c->qp, 0, 2);
		vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
				    c->qp, 0);
	}
	vkCmdCopyBuffer(cb, c->src, c->dst, 1, &reg);
	if (c->qp)
		vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
				    c->qp, 1);
}


static VkResult vk_copy(struct vk_dev *d, struct vk_buf *src,
			struct vk_buf *dst, VkDeviceSize sz)
{
	struct vk_copy c = {src->b, dst->b, sz, VK_NULL_HANDLE};

	return vk_run(d, rec_copy, &c);
}

/* Allocation and copies through a host-visible staging buffer (Vulkan has
 * no pageable copy: host memory must be mapped device-visible memory). */
static void vk_memory_ops(struct gd_pc *pc, struct vk_dev *d, int dev)
{
	VkDeviceSize sz = 64u << 20;
	const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
					   VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
	struct vk_buf m = {0}, up = {0}, down = {0};
	VkResult r;

	if (gd_pc_begin(pc, dev, "alloc_device")) {
		gd_pc_phase(pc, "vkAllocateMemory 64 MiB device-local");
		r = vk_buffer(d, sz, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &m);
		if (r)
			gd_pc_end(pc, GD_PS_ERROR, 0, "device-local 64 MiB: %s (%d)",
				  vk_err(r), r);
		else
			gd_pc_end(pc, GD_PS_OK, 0, "64 MiB device-local");
	}
	if (!m.m && vk_buffer(d, sz, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &m))
		goto out;
	gd_pc_phase(pc, "vkAllocateMemory host-visible");
	r = vk_buffer(d, sz, host, &up);
	if (!r)
		r = vk_buffer(d, sz, host, &down);
	if (!pc->args->quick && gd_pc_begin(pc, dev, "alloc_pinned")) {
		if (r)
			gd_pc_end(pc, GD_PS_ERROR, 0, "host-visible 64 MiB: %s (%d)",
				  vk_err(r), r);
		else
			gd_pc_end(pc, GD_PS_OK, 0, "2 x 64 MiB host-visible, coherent, mapped");
	}
	if (r)
		goto out;
	for (size_t i = 0; i < sz; i++)
		((unsigned char *)up.map)[i] = (unsigned char)(i * 7 + 1);
	if (gd_pc_begin(pc, dev, "copy_h2d")) {
		gd_pc_phase(pc, "vkCmdCopyBuffer staging -> device 64 MiB");
		r = vk_copy(d, &up, &m, sz);
		if (r)
			gd_pc_end(pc, GD_PS_ERROR, 0, "%s (%d)", vk_err(r), r);
		else
			gd_pc_end(pc, GD_PS_OK, 0, "64 MiB from mapped host memory");
	}
	if (gd_pc_begin(pc, dev, "copy_d2h")) {
		gd_pc_phase(pc, "vkCmdCopyBuffer device -> staging 64 MiB");
		memset(down.map, 0, sz);
		r = vk_copy(d, &m, &down, sz);
		if (r)
			gd_pc_end(pc, GD_PS_ERROR, 0, "%s (%d)", vk_err(r), r);
		else if (memcmp(down.map, up.map, sz))
			gd_pc_end(pc, GD_PS_WRONG, 1, "read back differs from what was written");
		else
			gd_pc_end(pc, GD_PS_OK, 0, "64 MiB, checked");
	}
out:
	vk_free(d, &m);
	vk_free(d, &up);
	vk_free(d, &down);
}

struct vk_pipe {
	VkShaderModule sm;
	VkDescriptorSetLayout dsl;
	VkPipelineLayout pl;
	VkPipeline p;
	VkDescriptorPool dp;
	VkDescriptorSet ds;
	uint32_t n;
};

static VkResult vk_pipe_make(struct vk_dev *d, struct vk_pipe *p,
			     struct vk_buf *bufs)
{
	VkShaderModuleCreateInfo si = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
	VkDescriptorSetLayoutBinding b[3];
	VkDescriptorSetLayoutCreateInfo li = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 4};
	VkPipelineLayoutCreateInfo pli = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	VkComputePipelineCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
	VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3};
	VkDescriptorPoolCreateInfo dpi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
	VkDescriptorSetAllocateInfo dai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
	VkDescriptorBufferInfo dbi[3];
	VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
	uint32_t *code = malloc(gd_spv_vector_add_len + 4);
	VkResult r;

	if (!code)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	memcpy(code, gd_spv_vector_add, gd_spv_vector_add_len); /* align */
	si.codeSize = gd_spv_vector_add_len;
	si.pCode = code;
	r = vkCreateShaderModule(d->dev, &si, NULL, &p->sm);
	free(code);
	if (r)
		return r;
	for (uint32_t i = 0; i < 3; i++) {
		b[i] = (VkDescriptorSetLayoutBinding){
			i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
			VK_SHADER_STAGE_COMPUTE_BIT, NULL};
		dbi[i] = (VkDescriptorBufferInfo){bufs[i].b, 0, VK_WHOLE_SIZE};
	}
	li.bindingCount = 3;
	li.pBindings = b;
	if ((r = vkCreateDescriptorSetLayout(d->dev, &li, NULL, &p->dsl)))
		return r;
	pli.setLayoutCount = 1;
	pli.pSetLayouts = &p->dsl;
	pli.pushConstantRangeCount = 1;
	pli.pPushConstantRanges = &pcr;
	if ((r = vkCreatePipelineLayout(d->dev, &pli, NULL, &p->pl)))
		return r;
	ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
	ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
	ci.stage.module = p->sm;
	ci.stage.pName = "main";
	ci.layout = p->pl;
	if ((r = vkCreateComputePipelines(d->dev, VK_NULL_HANDLE, 1, &ci, NULL,
					  &p->p)))
		return r;
	dpi.maxSets = 1;
	dpi.poolSizeCount = 1;
	dpi.pPoolSizes = &ps;
	if ((r = vkCreateDescriptorPool(d->dev, &dpi, NULL, &p->dp)))
		return r;
	dai.descriptorPool = p->dp;
	dai.descriptorSetCount = 1;
	dai.pSetLayouts = &p->dsl;
	if ((r = vkAllocateDescriptorSets(d->dev, &dai, &p->ds)))
		return r;
	w.dstSet = p->ds;
	w.descriptorCount = 3;
	w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
	w.pBufferInfo = dbi;
	vkUpdateDescriptorSets(d->dev, 1, &w, 0, NULL);
	return VK_SUCCESS;
}

static void vk_pipe_free(struct vk_dev *d, struct vk_pipe *p)
{
	if (p->dp)
		vkDestroyDescriptorPool(d->dev, p->dp, NULL);
	if (p->p)
		vkDestroyPipeline(d->dev, p->p, NULL);
	if (p->pl)
		vkDestroyPipelineLayout(d->dev, p->pl, NULL);
	if (p->dsl)
		vkDestroyDescriptorSetLayout(d->dev, p->dsl, NULL);
	if (p->sm)
		vkDestroyShaderModule(d->dev, p->sm, NULL);
}

static void rec_dispatch(void *arg, VkCommandBuffer cb)
{
	struct vk_pipe *p = arg;

	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p->p);
	vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p->pl, 0, 1,
				&p->ds, 0, NULL);
	vkCmdPushConstants(cb, p->pl, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &p->n);
	vkCmdDispatch(cb, (p->n + 255) / 256, 1, 1);
}

static void vk_vector_add(struct gd_pc *pc, struct vk_dev *d)
{
	const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
					   VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
	struct vk_buf b[3] = {{0}};
	struct vk_pipe p = {0};
	float *want = malloc(N_VEC * 4);
	VkResult r = VK_ERROR_OUT_OF_HOST_MEMORY;

	gd_pc_phase(pc, "buffers 3 x 4 MiB host-visible");
	for (int i = 0; i < 3 && want; i++)
		if ((r = vk_buffer(d, N_VEC * 4, host, &b[i])))
			break;
	if (r) {
		gd_pc_end(pc, GD_PS_ERROR, 0, "buffers: %s (%d)", vk_err(r), r);
		goto out;
	}
	gd_pc_fill_random(b[0].map, N_VEC, 1);
	gd_pc_fill_random(b[1].map, N_VEC, 2);
	memset(b[2].map, 0, N_VEC * 4);
	for (int i = 0; i < N_VEC; i++)
		want[i] = ((float *)b[0].map)[i] + ((float *)b[1].map)[i];
	gd_pc_phase(pc, "vkCreateComputePipelines vector_add");
	p.n = N_VEC;
	if ((r = vk_pipe_make(d, &p, b))) {
		gd_pc_end(pc, GD_PS_ERROR, 0, "pipeline: %s (%d)", vk_err(r), r);
		goto out;
	}
	gd_pc_phase(pc, "dispatch vector_add");
	if ((r = vk_run(d, rec_dispatch, &p))) {
		gd_pc_end(pc, GD_PS_ERROR, 0, "dispatch: %s (%d)", vk_err(r), r);
		goto out;
	}
	{
		double err = gd_pc_max_rel_error(b[2].map, want, N_VEC);

		gd_pc_end(pc, err == 0 ? GD_PS_OK : GD_PS_WRONG, err,
			  "%d elements checked", N_VEC);
	}
out:
	vk_pipe_free(d, &p);
	for (int i = 0; i < 3; i++)
		vk_free(d, &b[i]);
	free(want);
}

/* Median of 5 timed copies (GPU timestamps), after one warm-up. */
static double vk_time_copy(struct vk_dev *d, struct vk_buf *src,
			   struct vk_buf *dst, VkDeviceSize sz)
{
	VkQueryPoolCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
	struct vk_copy c = {src->b, dst->b, sz, VK_NULL_HANDLE};
	double t[5];
	uint64_t ts[2];

	qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
	qi.queryCount = 2;
	if (d->ts_period <= 0 || vkCreateQueryPool(d->dev, &qi, NULL, &c.qp))
		return -1;
	for (int i = -1; i < 5; i++) {
		if (vk_run(d, rec_copy, &c) ||
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

static void vk_bench(struct gd_pc *pc, struct vk_dev *d, int dev)
{
	const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
					   VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
	VkDeviceSize sz = 256u << 20;
	struct vk_buf a = {0}, b = {0}, h = {0};
	double t, lat[30];

	gd_pc_phase(pc, "bench: buffers 256 MiB");
	if (vk_buffer(d, sz, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &a) ||
	    vk_buffer(d, sz, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &b))
		goto out;
	gd_pc_phase(pc, "bench: d2d copy");
	t = vk_time_copy(d, &a, &b, sz);
	if (t > 0)
		gd_pc_figure(pc, dev, "d2d_bandwidth", sz / t / 1e9, "GB/s",
			     "vkCmdCopyBuffer 256 MiB, bytes counted once (memory traffic is 2x), GPU timestamps, median of 5");
	if (!vk_buffer(d, sz, host, &h)) {
		gd_pc_phase(pc, "bench: h2d from mapped memory");
		memset(h.map, 1, sz);
		t = vk_time_copy(d, &h, &a, sz);
		if (t > 0)
			gd_pc_figure(pc, dev, "h2d_pinned", sz / t / 1e9, "GB/s",
				     "vkCmdCopyBuffer 256 MiB from host-visible coherent memory, GPU timestamps, median of 5");
	}
	gd_pc_phase(pc, "bench: launch latency");
	{
		struct vk_buf v[3] = {{0}};
		struct vk_pipe p = {0};
		int ok = 1;

		for (int i = 0; i < 3; i++)
			ok &= !vk_buffer(d, 4096, host, &v[i]);
		p.n = 256;
		if (ok && !vk_pipe_make(d, &p, v)) {
			for (int i = -5; i < 30; i++) {
				double t0 = gd_pc_now();

				vk_run(d, rec_dispatch, &p);
				if (i >= 0)
					lat[i] = (gd_pc_now() - t0) * 1e6;
			}
			gd_pc_figure(pc, dev, "launch_latency",
				     gd_pc_median(lat, 30), "us",
				     "record + submit 1 dispatch + fence wait, wall clock, median of 30");
		}
		vk_pipe_free(d, &p);
		for (int i = 0; i < 3; i++)
			vk_free(d, &v[i]);
	}
out:
	vk_free(d, &a);
	vk_free(d, &b);
	vk_free(d, &h);
}

struct vk_cycle {
	VkPhysicalDevice phys;
	uint32_t family;
	PFN_vkCreateDevice create;
	PFN_vkDestroyDevice destroy;
	VkResult err;
};

static VkResult vk_make_device(PFN_vkCreateDevice create, VkPhysicalDevice ph,
			       uint32_t family, VkDevice *out)
{
	float prio = 1.0f;
	VkDeviceQueueCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
	VkDeviceCreateInfo di = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};

	qi.queueFamilyIndex = family;
	qi.queueCount = 1;
	qi.pQueuePriorities = &prio;
	di.queueCreateInfoCount = 1;
	di.pQueueCreateInfos = &qi;
	return create(ph, &di, NULL, out);
}

static void *vk_cycle_thread(void *arg)
{
	struct vk_cycle *c = arg;

	for (int i = 0; i < 10 && !c->err; i++) {
		VkDevice dv;

		c->err = vk_make_device(c->create, c->phys, c->family, &dv);
		if (!c->err)
			c->destroy(dv, NULL);
	}
	return NULL;
}

/* The "model switch": devices created and destroyed from 4 threads,
 * through the loader's instance-level entry points (volk's globals point
 * at the current device's functions). */
static void vk_context_cycle(struct gd_pc *pc, VkInstance inst,
			     struct vk_dev *d)
{
	struct vk_cycle c[4];
	pthread_t th[4];
	int started[4];
	PFN_vkCreateDevice cr = (PFN_vkCreateDevice)vkGetInstanceProcAddr(
		inst, "vkCreateDevice");
	PFN_vkDestroyDevice de = (PFN_vkDestroyDevice)vkGetInstanceProcAddr(
		inst, "vkDestroyDevice");

	if (!cr || !de) {
		gd_pc_end(pc, GD_PS_MISSING, 0, "vkCreateDevice/vkDestroyDevice not resolved");
		return;
	}
	gd_pc_phase(pc, "4 threads x 10 vkCreateDevice/vkDestroyDevice");
	for (int i = 0; i < 4; i++) {
		c[i] = (struct vk_cycle){d->phys, d->family, cr, de, VK_SUCCESS};
		started[i] = !pthread_create(&th[i], NULL, vk_cycle_thread, &c[i]);
	}
	for (int i = 0; i < 4; i++)
		if (started[i])
			pthread_join(th[i], NULL);
	for (int i = 0; i < 4; i++)
		if (c[i].err) {
			gd_pc_end(pc, GD_PS_ERROR, 0, "thread %d: %s (%d)", i,
				  vk_err(c[i].err), c[i].err);
			return;
		}
	gd_pc_end(pc, GD_PS_OK, 0, "40 devices from 4 threads");
}

static VkResult vk_open(struct vk_dev *d)
{
	VkQueueFamilyProperties qf[16];
	VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
	VkPhysicalDeviceProperties props;
	uint32_t nq = 16;
	VkResult r;

	vkGetPhysicalDeviceQueueFamilyProperties(d->phys, &nq, qf);
	d->family = UINT32_MAX;
	for (uint32_t i = 0; i < nq && d->family == UINT32_MAX; i++)
		if (qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
			d->family = i;
	if (d->family == UINT32_MAX)
		return VK_ERROR_FEATURE_NOT_PRESENT;
	vkGetPhysicalDeviceMemoryProperties(d->phys, &d->mem);
	vkGetPhysicalDeviceProperties(d->phys, &props);
	d->ts_period = qf[d->family].timestampValidBits
			       ? props.limits.timestampPeriod : 0;
	r = vk_make_device(vkCreateDevice, d->phys, d->family, &d->dev);
	if (r)
		return r;
	volkLoadDevice(d->dev);
	vkGetDeviceQueue(d->dev, d->family, 0, &d->q);
	pi.queueFamilyIndex = d->family;
	pi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
	return vkCreateCommandPool(d->dev, &pi, NULL, &d->pool);
}

static void vk_device_ops(struct gd_pc *pc, VkInstance inst,
			  VkPhysicalDevice ph, int dev)
{
	struct vk_dev d;
	VkResult r;

	memset(&d, 0, sizeof d);
	d.phys = ph;
	gd_pc_phase(pc, "vkCreateDevice");
	r = vk_open(&d);
	if (r) {
		gd_pc_skip(pc, dev, "alloc_device", GD_PS_ERROR,
			   "vkCreateDevice (compute queue): %s (%d)", vk_err(r), r);
		goto out;
	}
	vk_memory_ops(pc, &d, dev);
	if (gd_pc_begin(pc, dev, "kernel_vector_add"))
		vk_vector_add(pc, &d);
	if (!pc->args->quick) {
		gd_pc_skip(pc, dev, "gemm_fp32", GD_PS_SKIPPED,
			   "no Vulkan BLAS library is probed");
		if (gd_pc_begin(pc, dev, "context_cycle"))
			vk_context_cycle(pc, inst, &d);
	}
	if (pc->args->bench)
		vk_bench(pc, &d, dev);
out:
	if (d.pool)
		vkDestroyCommandPool(d.dev, d.pool, NULL);
	if (d.dev)
		vkDestroyDevice(d.dev, NULL);
}

static void vk_describe(VkPhysicalDevice ph, int idx, const char *lib,
			struct gd_probe_device *pd)
{
	VkPhysicalDeviceProperties p;
	VkPhysicalDeviceMemoryProperties m;
	uint32_t v;

	vkGetPhysicalDeviceProperties(ph, &p);
	vkGetPhysicalDeviceMemoryProperties(ph, &m);
	memset(pd, 0, sizeof *pd);
	pd->index = idx;
	gd_strlcpy(pd->name, p.deviceName, sizeof pd->name);
	for (uint32_t i = 0; i < m.memoryHeapCount; i++)
		if (m.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT &&
		    m.memoryHeaps[i].size > pd->mem_bytes)
			pd->mem_bytes = m.memoryHeaps[i].size;
	v = p.driverVersion;
	if (p.vendorID == 0x10de) /* NVIDIA packs 10.8.8.6 bits */
		gd_fmt(pd->driver, sizeof pd->driver, "%u.%u.%u", v >> 22,
		       (v >> 14) & 0xff, (v >> 6) & 0xff);
	else
		gd_fmt(pd->driver, sizeof pd->driver, "%u.%u.%u",
		       VK_API_VERSION_MAJOR(v), VK_API_VERSION_MINOR(v),
		       VK_API_VERSION_PATCH(v));
	gd_fmt(pd->runtime, sizeof pd->runtime, "Vulkan %u.%u.%u",
	       VK_API_VERSION_MAJOR(p.apiVersion),
	       VK_API_VERSION_MINOR(p.apiVersion),
	       VK_API_VERSION_PATCH(p.apiVersion));
	gd_strlcpy(pd->library, lib, sizeof pd->library);
	pd->software = p.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
}

static VkInstance vk_instance(struct gd_pc *pc, char *lib, size_t lcap)
{
	static const char *const names[] = {"libvulkan.so.1", "libvulkan.so",
					    NULL};
	VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO};
	VkInstanceCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
	char searched[600];
	VkInstance inst = VK_NULL_HANDLE;
	void *h, *gipa;
	VkResult r;

	gd_pc_phase(pc, "dlopen libvulkan.so.1");
	h = gd_pc_dlopen(pc, names, NULL, lib, lcap, searched, sizeof searched);
	if (!h) {
		gd_pc_end(pc, GD_PS_MISSING, 0, "Vulkan loader not found: %s",
			  searched);
		return NULL;
	}
	{
		const struct gd_sym syms[] = {
			{"vkGetInstanceProcAddr", &gipa, 1}, {NULL, NULL, 0}};
		char missing[64];

		if (gd_pc_dlsym(h, syms, missing, sizeof missing)) {
			gd_pc_end(pc, GD_PS_MISSING, 0, "%s lacks %s", lib,
				  missing);
			return NULL;
		}
	}
	volkInitializeCustom((PFN_vkGetInstanceProcAddr)(uintptr_t)gipa);
	app.pApplicationName = "gpudoctor";
	app.apiVersion = VK_API_VERSION_1_1;
	ci.pApplicationInfo = &app;
	gd_pc_phase(pc, "vkCreateInstance");
	r = vkCreateInstance(&ci, NULL, &inst);
	if (r) {
		gd_pc_end(pc, GD_PS_ERROR, 0, "vkCreateInstance: %s (%d)%s",
			  vk_err(r), r, r == VK_ERROR_INCOMPATIBLE_DRIVER
			  ? ": no Vulkan driver (ICD) loads" : "");
		return NULL;
	}
	volkLoadInstance(inst);
	return inst;
}

static int vulkan_run(struct gd_pc *pc)
{
	VkPhysicalDevice ph[8];
	uint32_t n = 8;
	VkInstance inst;
	VkResult r;
	char lib[256];

	gd_pc_begin_always(pc, -1, "init");
	inst = vk_instance(pc, lib, sizeof lib);
	if (!inst)
		return 0;
	gd_pc_phase(pc, "vkEnumeratePhysicalDevices");
	r = vkEnumeratePhysicalDevices(inst, &n, ph);
	if ((r && r != VK_INCOMPLETE) || !n) {
		gd_pc_end(pc, GD_PS_ERROR, 0,
			  "vkEnumeratePhysicalDevices: %s (%d), %u devices: no device",
			  vk_err(r), r, n);
		return 0;
	}
	for (uint32_t i = 0; i < n; i++) {
		struct gd_probe_device pd;

		vk_describe(ph[i], (int)i, lib, &pd);
		gd_pc_device(pc, &pd);
	}
	gd_pc_end(pc, GD_PS_OK, 0, "%u device(s); %s", n, lib);
	for (uint32_t i = 0; i < n; i++)
		vk_device_ops(pc, inst, ph[i], (int)i);
	vkDestroyInstance(inst, NULL);
	return 0;
}

const struct gd_backend gd_backend_vulkan = {
	.name = "vulkan",
	.title = "Vulkan",
	.run = vulkan_run,
};
