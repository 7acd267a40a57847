/* probe/vulkan_int: what the Vulkan backend's files share (device and
 * buffer state, command submission, the compute pipeline). Runs only in
 * the probe child; volk keeps the Vulkan entry points in its globals. */
#ifndef GD_VULKAN_INT_H
#define GD_VULKAN_INT_H

#include <volk.h>

#include "backend.h"

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

struct vk_copy {
	VkBuffer src, dst;
	VkDeviceSize sz;
	VkQueryPool qp;
};

struct vk_pipe {
	VkShaderModule sm;
	VkDescriptorSetLayout dsl;
	VkPipelineLayout pl;
	VkPipeline p;
	VkDescriptorPool dp;
	VkDescriptorSet ds;
	uint32_t n;
};

const char *gd_vk_err(VkResult r);
/* A buffer with memory of the given properties, mapped when host-visible. */
VkResult gd_vk_buffer(struct vk_dev *d, VkDeviceSize sz,
		      VkMemoryPropertyFlags props, struct vk_buf *out);
void gd_vk_free(struct vk_dev *d, struct vk_buf *b);
/* Records with rec(arg, cmd), submits, waits on a fence. */
VkResult gd_vk_run(struct vk_dev *d, void (*rec)(void *, VkCommandBuffer),
		   void *arg);
void gd_vk_rec_copy(void *arg, VkCommandBuffer cb);
VkResult gd_vk_copy(struct vk_dev *d, struct vk_buf *src, struct vk_buf *dst,
		    VkDeviceSize sz);
/* vector_add over bufs[0..2] (p->n elements), from the embedded SPIR-V. */
VkResult gd_vk_pipe_make(struct vk_dev *d, struct vk_pipe *p,
			 struct vk_buf *bufs);
void gd_vk_pipe_free(struct vk_dev *d, struct vk_pipe *p);
void gd_vk_rec_dispatch(void *arg, VkCommandBuffer cb);
VkResult gd_vk_make_device(PFN_vkCreateDevice create, VkPhysicalDevice ph,
			   uint32_t family, VkDevice *out);

/* backend_vulkan_bench.c */
void gd_vk_vector_add(struct gd_pc *pc, struct vk_dev *d);
void gd_vk_bench(struct gd_pc *pc, struct vk_dev *d, int dev);
void gd_vk_context_cycle(struct gd_pc *pc, VkInstance inst, struct vk_dev *d);

#endif
