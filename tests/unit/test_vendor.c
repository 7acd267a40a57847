/* The vendor table (discover/vendor.h): one row per vendor, PCI ids map
 * to it and back, and the code target is the one the vendor's compilers
 * name (AMD: its own gfx, or the override's when run; NVIDIA: the sm;
 * Intel: listed only, none). */
#include <string.h>

#include "discover/vendor.h"
#include "t.h"

static void test_rows(void)
{
	static const enum gd_vendor all[] = {GD_VENDOR_OTHER, GD_VENDOR_AMD,
					     GD_VENDOR_NVIDIA, GD_VENDOR_INTEL};

	for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
		const struct gd_vendor_ops *o = gd_vendor_ops(all[i]);

		CHECK_INT(o->id, all[i]);
		CHECK(o->name && o->title && o->code_target);
		for (size_t j = 0; j < i; j++)
			CHECK(strcmp(o->name, gd_vendor_ops(all[j])->name));
	}
	CHECK_STR(gd_vendor_name(GD_VENDOR_AMD), "amd");
	CHECK_STR(gd_vendor_name(GD_VENDOR_NVIDIA), "nvidia");
	CHECK_STR(gd_vendor_name(GD_VENDOR_INTEL), "intel");
	CHECK_INT(gd_vendor_ops(GD_VENDOR_INTEL)->rules, 1);
	CHECK_INT(gd_vendor_ops(GD_VENDOR_AMD)->rules, 1);
	CHECK_INT(gd_vendor_ops((enum gd_vendor)42)->id, GD_VENDOR_OTHER);
}

static void test_targets(void)
{
	struct gd_gpu g;

	memset(&g, 0, sizeof g);
	g.vendor = GD_VENDOR_AMD;
	strcpy(g.gfx, "gfx1010");
	strcpy(g.gfx_effective, "gfx1030");
	CHECK_STR(gd_gpu_code_target(&g), "gfx1010");
	CHECK_STR(gd_gpu_run_target(&g), "gfx1030");
	g.gfx_effective[0] = '\0'; /* an invalid override: its own */
	CHECK_STR(gd_gpu_run_target(&g), "gfx1010");
	memset(&g, 0, sizeof g);
	g.vendor = GD_VENDOR_NVIDIA;
	strcpy(g.nv.sm, "sm_90");
	CHECK_STR(gd_gpu_code_target(&g), "sm_90");
	CHECK_STR(gd_gpu_run_target(&g), "sm_90");
	g.vendor = GD_VENDOR_INTEL; /* no family matched */
	CHECK_STR(gd_gpu_code_target(&g), "");
	strcpy(g.intel.family, "xe-hpg"); /* kb intel.families id */
	CHECK_STR(gd_gpu_code_target(&g), "xe-hpg");
	CHECK_STR(gd_gpu_run_target(&g), "xe-hpg");
	g.vendor = GD_VENDOR_OTHER;
	CHECK_STR(gd_gpu_code_target(&g), "");
}

int main(void)
{
	test_rows();
	test_targets();
	return t_done("test_vendor");
}
