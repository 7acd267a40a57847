/* inventory/intel: Intel's GPU compute runtime as ld.so would find it. The
 * pieces and the package names that ship them are in docs/intel.md:
 * the oneAPI Level Zero loader (libze_loader), Intel's Level Zero GPU
 * driver (libze_intel_gpu, compute-runtime), its OpenCL driver
 * (libigdrcl, intel-opencl-icd), the graphics compiler IGC (libigc) and
 * the memory manager gmmlib (libigdgmm), whose versions must match what
 * the compute-runtime release was built with. Versions come from the file
 * names (libze_intel_gpu.so.1.3.26918 -> 1.3.26918). */
#include <string.h>

#include "inv_int.h"

void gd_inv_intel_collect(gd_ctx *ctx, const struct gd_ld_dirs *ld,
			  struct gd_inventory *inv)
{
	static const char *const want[] = {"libze_loader", "libze_intel_gpu",
					   "libigdrcl",	   "libigc",
					   "libigdgmm",	   NULL};
	static const char *const label[] = {
	    "ze_loader", "ze_intel_gpu", "igdrcl", "igc", "igdgmm", NULL};

	gd_inv_ld_libs(ctx, ld, want, label, &inv->intel_libs,
		       &inv->n_intel_libs);
}

const struct gd_lib *gd_inventory_intel_lib(const struct gd_inventory *inv,
					    const char *label)
{
	for (size_t i = 0; inv && i < inv->n_intel_libs; i++)
		if (!strcmp(inv->intel_libs[i].name, label))
			return &inv->intel_libs[i];
	return NULL;
}
