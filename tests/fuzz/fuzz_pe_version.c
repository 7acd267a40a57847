/* libFuzzer: the PE version resource search (binscan/pe_version.c). */
#include "binscan/pe_version.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char f[48], p[48];

	gd_pe_version(data, size, f, p, sizeof f);
	return 0;
}
