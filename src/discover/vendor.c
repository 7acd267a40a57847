/* discover/vendor: the vendor table (vendor.h). One row per vendor, in one
 * static const array: no registration, no link-order effects. */
#include <stddef.h>

#include "disc_int.h"
#include "vendor.h"

#include <string.h>

static const char *amd_target(const struct gd_gpu *g, int as_run)
{
	return as_run && g->gfx_effective[0] ? g->gfx_effective : g->gfx;
}

static const char *nvidia_target(const struct gd_gpu *g, int as_run)
{
	(void)as_run;
	return g->nv.sm;
}

static const char *intel_target(const struct gd_gpu *g, int as_run)
{
	(void)as_run;
	return g->intel.family;
}

static const char *no_target(const struct gd_gpu *g, int as_run)
{
	(void)g, (void)as_run;
	return "";
}

static const struct gd_vendor_ops vendors[] = {
    {GD_VENDOR_OTHER, 0, "other", "Unknown", 0, NULL, NULL, NULL, no_target,
     NULL, NULL, NULL},
    {GD_VENDOR_AMD, 0x1002, "amd", "AMD", 1, NULL, gd_amd_fill,
     gd_drm_apu_memory, amd_target, "hip", "amdgpu", NULL},
    {GD_VENDOR_NVIDIA, 0x10de, "nvidia", "NVIDIA", 1, gd_nvidia_fill,
     gd_nvidia_arch, NULL, nvidia_target, "cuda", "nvidia", NULL},
    /* Intel's compute runtime runs on i915 or xe (Lunar Lake, Battlemage
     * and later; opt-in before): docs/intel.md */
    {GD_VENDOR_INTEL, 0x8086, "intel", "Intel", 1, NULL, gd_intel_family, NULL,
     intel_target, "levelzero", "i915", "xe"},
};

const struct gd_vendor_ops *gd_vendor_ops(enum gd_vendor v)
{
	for (size_t i = 0; i < sizeof vendors / sizeof *vendors; i++)
		if (vendors[i].id == v)
			return &vendors[i];
	return &vendors[0];
}

const char *gd_vendor_name(enum gd_vendor v)
{
	return gd_vendor_ops(v)->name;
}

enum gd_vendor gd_vendor_from_id(uint32_t vendor_id)
{
	for (size_t i = 0; i < sizeof vendors / sizeof *vendors; i++)
		if (vendors[i].pci_vendor && vendors[i].pci_vendor == vendor_id)
			return vendors[i].id;
	return GD_VENDOR_OTHER;
}

enum gd_vendor gd_vendor_of_backend(const char *b)
{
	for (size_t i = 0; b && i < sizeof vendors / sizeof *vendors; i++)
		if (vendors[i].backend && !strcmp(vendors[i].backend, b))
			return vendors[i].id;
	return GD_VENDOR_OTHER;
}

const char *gd_gpu_code_target(const struct gd_gpu *g)
{
	return gd_vendor_ops(g->vendor)->code_target(g, 0);
}

const char *gd_gpu_run_target(const struct gd_gpu *g)
{
	return gd_vendor_ops(g->vendor)->code_target(g, 1);
}
