/* libFuzzer: AMDGPU code object header (mach, xnack/sramecc per version). */
#include "binscan/binscan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char gfx[40], feat[40];
	unsigned v;

	gd_amdgpu_co_target(data, size, gfx, sizeof gfx, feat, sizeof feat, &v);
	return 0;
}
