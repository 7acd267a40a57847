/* libFuzzer: zip central directory walk and member inflation (small cap,
 * so a bomb in the corpus costs nothing). */
#include <string.h>

#include "binscan/binscan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int all(const char *name)
{
	(void)name;
	return 1;
}

static int each(void *arg, const struct gd_zip_member *m,
		const struct gd_zip_names *names, const char *why)
{
	struct gd_bs_file f;
	size_t first;

	(void)arg;
	gd_zip_names_has(names, m->name);
	gd_zip_names_base(names, "a.so", &first);
	if (why)
		return 0;
	memset(&f, 0, sizeof f);
	gd_bs_scan_bytes(m->data, m->len, &f);
	gd_bs_file_free(&f);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[200];

	gd_zip_walk(data, size, 1u << 20, all, each, NULL, err, sizeof err);
	return 0;
}
