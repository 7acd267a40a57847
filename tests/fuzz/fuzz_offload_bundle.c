/* libFuzzer: clang offload bundles, plain and compressed (CCOB v1-v3). */
#include <string.h>

#include "binscan/binscan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gd_bs_file f;
	uint64_t used;
	char err[200];

	memset(&f, 0, sizeof f);
	gd_offload_bundle_scan(data, size, &f, &used, err, sizeof err);
	gd_offload_bundles_scan(data, size, &f, err, sizeof err);
	gd_bs_file_free(&f);
	return 0;
}
