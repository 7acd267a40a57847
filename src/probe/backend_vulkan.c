/* probe/backend_vulkan: the Vulkan op matrix through volk. libvulkan.so.1
 * is opened by gd_pc_dlopen (so GPUDOCTOR_LIB_PATH applies) and handed to
 * volkInitializeCustom. volk keeps its function pointers in globals: fine,
 * this code only runs in the probe child, one device at a time. The
 * vector_add shader is SPIR-V compiled at build time (shaders/). Buffers,
 * submission and the pipeline: vulkan_util.c; the kernel op, the figures
 * and the context cycle: backend_vulkan_bench.c. */
#include <stdlib.h>
#include <string.h>

#include "vulkan_int.h"

/* Allocation and copies through a host-visible staging buffer (Vulkan has
 * no pageable copy: host memory must be mapped device-visible memory). */
static void vk_memory_ops(struct gd_pc *pc, struct vk_dev *d, int dev)
{
	VkDeviceSize sz = 64u << 20;
	const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
					   VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
	struct vk_buf m = {0}, up = {0}, down = {0};
	VkResult r;

	if (gd_pc_begin(pc, dev, GD_OP_ALLOC_DEVICE)) {
		gd_pc_phase(pc, "vkAllocateMemory 64 MiB device-local");
		r = gd_vk_buffer(d, sz, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
				 &m);
		if (r)
			gd_pc_end(pc, GD_PS_ERROR, 0,
				  "device-local 64 MiB: %s (%d)", gd_vk_err(r),
				  r);
		else
			gd_pc_end(pc, GD_PS_OK, 0, "64 MiB device-local");
	}
	if (!m.m &&
	    gd_vk_buffer(d, sz, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &m))
		goto out;
	gd_pc_phase(pc, "vkAllocateMemory host-visible");
	r = gd_vk_buffer(d, sz, host, &up);
	if (!r)
		r = gd_vk_buffer(d, sz, host, &down);
	if (gd_pc_begin(pc, dev, GD_OP_ALLOC_PINNED)) {
		if (r)
			gd_pc_end(pc, GD_PS_ERROR, 0,
				  "host-visible 64 MiB: %s (%d)", gd_vk_err(r),
				  r);
		else
			gd_pc_end(pc, GD_PS_OK, 0,
				  "2 x 64 MiB host-visible, coherent, mapped");
	}
	if (r)
		goto out;
	for (size_t i = 0; i < sz; i++)
		((unsigned char *)up.map)[i] = (unsigned char)(i * 7 + 1);
	if (gd_pc_begin(pc, dev, GD_OP_COPY_H2D)) {
		gd_pc_phase(pc, "vkCmdCopyBuffer staging -> device 64 MiB");
		r = gd_vk_copy(d, &up, &m, sz);
		if (r)
			gd_pc_end(pc, GD_PS_ERROR, 0, "%s (%d)", gd_vk_err(r),
				  r);
		else
			gd_pc_end(pc, GD_PS_OK, 0,
				  "64 MiB from mapped host memory");
	}
	if (gd_pc_begin(pc, dev, GD_OP_COPY_D2H)) {
		gd_pc_phase(pc, "vkCmdCopyBuffer device -> staging 64 MiB");
		memset(down.map, 0, sz);
		r = gd_vk_copy(d, &m, &down, sz);
		if (r)
			gd_pc_end(pc, GD_PS_ERROR, 0, "%s (%d)", gd_vk_err(r),
				  r);
		else if (memcmp(down.map, up.map, sz))
			gd_pc_end(pc, GD_PS_WRONG, 1,
				  "read back differs from what was written");
		else
			gd_pc_end(pc, GD_PS_OK, 0, "64 MiB, checked");
	}
out:
	gd_vk_free(d, &m);
	gd_vk_free(d, &up);
	gd_vk_free(d, &down);
}

static VkResult vk_open(struct vk_dev *d)
{
	VkQueueFamilyProperties qf[16];
	VkCommandPoolCreateInfo pi = {
	    .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
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
	d->ts_period =
	    qf[d->family].timestampValidBits ? props.limits.timestampPeriod : 0;
	r = gd_vk_make_device(vkCreateDevice, d->phys, d->family, &d->dev);
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
		gd_pc_setup_failed(pc, dev,
				   "vkCreateDevice (compute queue): "
				   "%s (%d)",
				   gd_vk_err(r), r);
		goto out;
	}
	vk_memory_ops(pc, &d, dev);
	if (gd_pc_begin(pc, dev, GD_OP_KERNEL_VECTOR_ADD))
		gd_vk_vector_add(pc, &d);
	if (!pc->args->quick) /* --quick: no row for what is not probed */
		gd_pc_skip(pc, dev, GD_OP_GEMM_FP32, GD_PS_SKIPPED,
			   "no Vulkan BLAS library is probed");
	if (gd_pc_begin(pc, dev, GD_OP_CONTEXT_CYCLE))
		gd_vk_context_cycle(pc, inst, &d);
	if (gd_pc_bench_begin(pc, dev)) {
		gd_vk_bench(pc, &d, dev);
		gd_pc_bench_end(pc);
	}
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
	const char *const *names = gd_lib_names(GD_LIB_VULKAN);
	VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO};
	VkInstanceCreateInfo ci = {.sType =
				       VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
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
	if (r) { /* the loader's "no driver": the Vulkan "no device" */
		gd_pc_end(pc,
			  r == VK_ERROR_INCOMPATIBLE_DRIVER ? GD_PS_NODEVICE
							    : GD_PS_ERROR,
			  0, "vkCreateInstance: %s (%d)%s", gd_vk_err(r), r,
			  r == VK_ERROR_INCOMPATIBLE_DRIVER
			      ? ": no Vulkan driver (ICD) loads"
			      : "");
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

	gd_pc_begin_always(pc, -1, GD_OP_INIT);
	inst = vk_instance(pc, lib, sizeof lib);
	if (!inst)
		return 0;
	gd_pc_phase(pc, "vkEnumeratePhysicalDevices");
	r = vkEnumeratePhysicalDevices(inst, &n, ph);
	if ((r && r != VK_INCOMPLETE) || !n) {
		gd_pc_end(
		    pc, r && r != VK_INCOMPLETE ? GD_PS_ERROR : GD_PS_NODEVICE,
		    0,
		    "vkEnumeratePhysicalDevices: %s (%d), %u devices: no "
		    "device",
		    gd_vk_err(r), r, n);
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
