/* libFuzzer: a capture's .gpudoctor/links.tsv (core/fs_links.c), then
 * paths resolved through it, and the PE cutter (binscan/pe_slim.c) on the
 * same bytes: its output must open as a PE file again. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "binscan/binscan.h"
#include "binscan/pe_slim.h"
#include "core/fs_links.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const paths[] = {
	    "/sys/bus/pci/devices/0000:28:00.0/driver/module", "/a/b/c/../../d",
	    "/", "/x/y", "/../../etc"};
	struct gd_fs_links *l;
	uint8_t *slim;
	size_t n;
	char out[4096];

	if (gd_fs_links_parse((const char *)data, size, &l) == 0) {
		for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
			gd_fs_links_resolve(l, paths[i], 1, out, sizeof out);
			gd_fs_links_resolve(l, paths[i], 0, out, sizeof out);
			gd_fs_links_get(l, paths[i]);
		}
		gd_fs_links_free(l);
	}
	if (gd_pe_slim(data, size, &slim, &n) == 0) {
		struct gd_pe p;

		if (gd_pe_open(&p, slim, n, NULL, 0) != 0)
			abort(); /* the cut file must still be a PE file */
		free(slim);
	}
	return 0;
}
