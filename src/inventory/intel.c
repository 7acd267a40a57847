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

	for (size_t d = 0; d < ld->d.n; d++) {
		gd_strvec names;

		if (gd_fs_list(&ctx->fs, ld->d.v[d].path, &names) < 0)
			continue;
		for (int b = 0; want[b]; b++) {
			const char *one[2] = {want[b], NULL},
				   *lab[2] = {label[b], NULL};
			int have = 0;

			for (size_t i = 0; i < inv->n_intel_libs; i++)
				have |=
				    !strcmp(inv->intel_libs[i].name, label[b]);
			if (!have)
				gd_inv_match_libs(
				    names.v, names.n, ld->d.v[d].path, one, lab,
				    &inv->intel_libs, &inv->n_intel_libs);
		}
		gd_strvec_free(&names);
	}
}

const struct gd_lib *gd_inventory_intel_lib(const struct gd_inventory *inv,
					    const char *label)
{
	for (size_t i = 0; inv && i < inv->n_intel_libs; i++)
		if (!strcmp(inv->intel_libs[i].name, label))
			return &inv->intel_libs[i];
	return NULL;
}
