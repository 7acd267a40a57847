/* libFuzzer: the small text parsers of inventory/: the NVIDIA module
 * version line, CUDA version.json, header #defines, ld.so.conf, soname
 * versions and rocBLAS directory listings (one file name per line). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "inventory/inventory.h"
#include "inventory/ldpath.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void listing(char *buf)
{
	char *names[256];
	size_t n = 0;
	struct gd_rocblas_dir d;

	for (char *p = strtok(buf, "\n"); p && n < 256; p = strtok(NULL, "\n"))
		names[n++] = p;
	memset(&d, 0, sizeof d);
	gd_rocblas_scan_names(names, n, &d);
	for (size_t i = 0; i < d.n_targets; i++)
		if (strncmp(d.targets[i].gfx, "gfx", 3))
			__builtin_trap();
	free(d.targets);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), ver[64];
	struct gd_cuda_version_json vj;
	gd_strvec dirs = {0}, incs = {0};
	unsigned long v;
	unsigned maj;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	gd_cuda_parse_nvrm(buf, ver, sizeof ver);
	gd_cuda_parse_version_json((const char *)data, size, &vj);
	gd_parse_c_define(buf, "CUDNN_MAJOR", &v);
	gd_ldconf_parse(buf, &dirs, &incs);
	gd_strvec_free(&dirs);
	gd_strvec_free(&incs);
	gd_soname_version(buf, "libamdhip64", ver, sizeof ver, &maj);
	listing(buf);
	free(buf);
	return 0;
}
