/* libFuzzer: NVIDIA fatbin containers and entry headers. */
#include <string.h>

#include "binscan/binscan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gd_bs_file f;
	char err[200];

	memset(&f, 0, sizeof f);
	gd_nvfatbin_scan(data, size, &f, err, sizeof err);
	gd_bs_file_free(&f);
	return 0;
}
