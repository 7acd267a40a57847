/* libFuzzer: Vulkan ICD manifests and OpenCL .icd files, then the driver
 * classification of whatever library name came out. */
#include <stdint.h>
#include <string.h>

#include "inventory/inventory.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gd_icd icd;

	memset(&icd, 0, sizeof icd);
	gd_strlcpy(icd.manifest, "/usr/share/vulkan/icd.d/fuzz_icd.json",
		   sizeof icd.manifest);
	gd_vk_manifest_parse((const char *)data, size, &icd);
	gd_icd_classify(&icd, 1);
	if (strlen(icd.driver) >= sizeof icd.driver ||
	    strlen(icd.error) >= sizeof icd.error)
		__builtin_trap();

	memset(&icd, 0, sizeof icd);
	gd_ocl_icd_parse((const char *)data, size, &icd);
	gd_icd_classify(&icd, 0);
	if (gd_known(&icd.library) && strchr(icd.library.v, '\n'))
		__builtin_trap();
	return 0;
}
