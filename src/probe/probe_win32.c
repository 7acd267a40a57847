/* The probe layer's piece that Windows does not have: no kernel log a
 * user can read. The supervisor is supervisor_win32.c, the self-test's
 * system part selftest_win32.c; the backends are the same files as on
 * Linux, loading DLLs through core/plat.h (libnames_win32.c). */
#include <errno.h>
#include <string.h>

#include "kmsg.h"
#include "probe_int.h"

/* Windows has no kernel log a user can read: nothing is collected. */
int gd_kmsg_open(gd_ctx *ctx, struct gd_kmsg *k)
{
	(void)ctx;
	k->fd = -1;
	return -ENOTSUP;
}

size_t gd_kmsg_collect(struct gd_kmsg *k, char *out, size_t cap)
{
	(void)k;
	if (cap)
		out[0] = '\0';
	return 0;
}

void gd_kmsg_close(struct gd_kmsg *k)
{
	k->fd = -1;
}
