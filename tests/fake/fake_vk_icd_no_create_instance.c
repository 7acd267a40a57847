/* A Vulkan ICD that loads but gives the loader no vkCreateInstance, as
 * NVIDIA's libGLX_nvidia.so.0 does when libglvnd's libEGL.so.1 is missing
 * (docs/probe.md, "Diagnostics"): it looks for a library at run time that
 * is not there, then answers NULL. The loader then says "Could not get
 * 'vkCreateInstance' via 'vk_icdGetInstanceProcAddr' for ICD ..." and
 * ld.so's LD_DEBUG=libs shows the search for the missing library. */
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

typedef void (*PFN_vkVoidFunction)(void);

/* The interface negotiation (loader-driver interface version 5). */
__attribute__((visibility("default"))) int32_t
vk_icdNegotiateLoaderICDInterfaceVersion(uint32_t *version)
{
	if (*version > 5)
		*version = 5;
	return 0;
}

__attribute__((visibility("default"))) PFN_vkVoidFunction
vk_icdGetInstanceProcAddr(void *instance, const char *name)
{
	void *h =
	    dlopen("libgpudoctor_fake_runtime_dep.so.1", RTLD_NOW | RTLD_LOCAL);

	(void)instance, (void)name;
	if (h)
		dlclose(h);
	return NULL;
}
