/* probe/vulkan_util: buffers, one-shot command submission, and the
 * vector_add compute pipeline, shared by the Vulkan op matrix and bench. */
#include <stdlib.h>
#include <string.h>

#include "vulkan_int.h"

extern const unsigned char gd_spv_vector_add[];
extern const unsigned long gd_spv_vector_add_len;

const char *gd_vk_err(VkResult r)
{
	switch (r) {
	case VK_ERROR_OUT_OF_HOST_MEMORY:
		return "VK_ERROR_OUT_OF_HOST_MEMORY";
	case VK_ERROR_OUT_OF_DEVICE_MEMORY:
		return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
	case VK_ERROR_INITIALIZATION_FAILED:
		return "VK_ERROR_INITIALIZATION_FAILED";
	case VK_ERROR_DEVICE_LOST:
		return "VK_ERROR_DEVICE_LOST";
	case VK_ERROR_INCOMPATIBLE_DRIVER:
		return "VK_ERROR_INCOMPATIBLE_DRIVER";
	case VK_ERROR_EXTENSION_NOT_PRESENT:
		return "VK_ERROR_EXTENSION_NOT_PRESENT";
	case VK_ERROR_FEATURE_NOT_PRESENT:
		return "VK_ERROR_FEATURE_NOT_PRESENT";
	case VK_ERROR_LAYER_NOT_PRESENT:
		return "VK_ERROR_LAYER_NOT_PRESENT";
	case VK_TIMEOUT:
		return "VK_TIMEOUT";
	default:
		return "VkResult";
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

VkResult gd_vk_buffer(struct vk_dev *d, VkDeviceSize sz,
		      VkMemoryPropertyFlags props, struct vk_buf *out)
{
	VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
	VkMemoryAllocateInfo ai = {.sType =
				       VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
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

void gd_vk_free(struct vk_dev *d, struct vk_buf *b)
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
VkResult gd_vk_run(struct vk_dev *d, void (*rec)(void *, VkCommandBuffer),
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

void gd_vk_rec_copy(void *arg, VkCommandBuffer cb)
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

VkResult gd_vk_copy(struct vk_dev *d, struct vk_buf *src, struct vk_buf *dst,
		    VkDeviceSize sz)
{
	struct vk_copy c = {src->b, dst->b, sz, VK_NULL_HANDLE};

	return gd_vk_run(d, gd_vk_rec_copy, &c);
}

static VkResult vk_shader(struct vk_dev *d, struct vk_pipe *p)
{
	VkShaderModuleCreateInfo si = {
	    .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
	uint32_t *code = malloc(gd_spv_vector_add_len + 4);
	VkResult r;

	if (!code)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	memcpy(code, gd_spv_vector_add, gd_spv_vector_add_len); /* align */
	si.codeSize = gd_spv_vector_add_len;
	si.pCode = code;
	r = vkCreateShaderModule(d->dev, &si, NULL, &p->sm);
	free(code);
	return r;
}

/* One descriptor set: the three storage buffers. */
static VkResult vk_descriptors(struct vk_dev *d, struct vk_pipe *p,
			       struct vk_buf *bufs)
{
	VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3};
	VkDescriptorPoolCreateInfo dpi = {
	    .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
	VkDescriptorSetAllocateInfo dai = {
	    .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
	VkDescriptorBufferInfo dbi[3];
	VkWriteDescriptorSet w = {.sType =
				      VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
	VkResult r;

	for (uint32_t i = 0; i < 3; i++)
		dbi[i] = (VkDescriptorBufferInfo){bufs[i].b, 0, VK_WHOLE_SIZE};
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

VkResult gd_vk_pipe_make(struct vk_dev *d, struct vk_pipe *p,
			 struct vk_buf *bufs)
{
	VkDescriptorSetLayoutBinding b[3];
	VkDescriptorSetLayoutCreateInfo li = {
	    .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 4};
	VkPipelineLayoutCreateInfo pli = {
	    .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	VkComputePipelineCreateInfo ci = {
	    .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
	VkResult r;

	if ((r = vk_shader(d, p)))
		return r;
	for (uint32_t i = 0; i < 3; i++)
		b[i] = (VkDescriptorSetLayoutBinding){
		    i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
		    VK_SHADER_STAGE_COMPUTE_BIT, NULL};
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
	return vk_descriptors(d, p, bufs);
}

void gd_vk_pipe_free(struct vk_dev *d, struct vk_pipe *p)
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

void gd_vk_rec_dispatch(void *arg, VkCommandBuffer cb)
{
	struct vk_pipe *p = arg;

	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p->p);
	vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p->pl, 0, 1,
				&p->ds, 0, NULL);
	vkCmdPushConstants(cb, p->pl, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &p->n);
	vkCmdDispatch(cb, (p->n + 255) / 256, 1, 1);
}

VkResult gd_vk_make_device(PFN_vkCreateDevice create, VkPhysicalDevice ph,
			   uint32_t family, VkDevice *out)
{
	float prio = 1.0f;
	VkDeviceQueueCreateInfo qi = {
	    .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
	VkDeviceCreateInfo di = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};

	qi.queueFamilyIndex = family;
	qi.queueCount = 1;
	qi.pQueuePriorities = &prio;
	di.queueCreateInfoCount = 1;
	di.pQueueCreateInfos = &qi;
	return create(ph, &di, NULL, out);
}
