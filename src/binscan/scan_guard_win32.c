/* The mapped walk of one file (scan_fd.c), Windows: no guard is needed.
 * Windows refuses to truncate a file while a section (mapping) of it
 * exists (SetEndOfFile fails with ERROR_USER_MAPPED_FILE), so the pages
 * of the map cannot vanish under the parsers as they can on POSIX. */
#include "binscan.h"

int gd_bs_scan_guarded(const char *path, const uint8_t *b, size_t n, int fd,
		       const struct gd_bs_opts *o, gd_bs_files *out)
{
	return gd_bs_scan_mapped(path, b, n, fd, o, out);
}
