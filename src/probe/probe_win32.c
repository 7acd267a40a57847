/* The probe layer's pieces that Windows does not have: no kernel log a
 * user can read, and no fault self-test (it forks and raises signals).
 * The supervisor is supervisor_win32.c; the backends are the same files
 * as on Linux, loading DLLs through core/plat.h (libnames_win32.c). */
#include <errno.h>
#include <string.h>

#include "backend.h"
#include "kmsg.h"
#include "probe_int.h"

static int no_selftest(struct gd_pc *pc)
{
	(void)pc;
	return 3;
}

const struct gd_backend gd_backend_selftest = {"selftest", "selftest",
					       no_selftest};

const char *gd_selftest_case(int i, const char **expected)
{
	(void)i;
	*expected = NULL;
	return NULL;
}

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
