/* libFuzzer: Kubernetes label values from arbitrary strings (gpudoctor nfd
 * turns names and targets into labels); the result must always be valid. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/k8s_label.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char in[512], out[GD_K8S_VALUE_MAX + 1];
	size_t n = size < sizeof in - 1 ? size : sizeof in - 1;

	memcpy(in, data, n);
	in[n] = '\0';
	gd_k8s_label_value(in, out, sizeof out);
	if (!gd_k8s_label_value_valid(out))
		abort();
	return 0;
}
