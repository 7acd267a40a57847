/* probe/backend: the one table of backends (docs/style.md habit 1) and the
 * status names shared by the child, the parent and the renderers. */
#include <string.h>

#include "backend.h"

static const struct gd_backend *const backends[] = {
    &gd_backend_cuda,	&gd_backend_hip,       &gd_backend_vulkan,
    &gd_backend_opencl, &gd_backend_levelzero,
};

const struct gd_backend *const *gd_backends(size_t *n)
{
	*n = sizeof backends / sizeof backends[0];
	return backends;
}

const struct gd_backend *gd_backend_find(const char *name)
{
	size_t n;
	const struct gd_backend *const *t = gd_backends(&n);

	if (name && !strcmp(name, gd_backend_selftest.name))
		return &gd_backend_selftest;
	for (size_t i = 0; name && i < n; i++)
		if (!strcmp(t[i]->name, name))
			return t[i];
	return NULL;
}

static const char *const status_names[] = {
    [GD_PS_OK] = "ok",		 [GD_PS_WRONG] = "wrong",
    [GD_PS_ERROR] = "error",	 [GD_PS_MISSING] = "missing",
    [GD_PS_CRASH] = "crash",	 [GD_PS_HANG] = "hang",
    [GD_PS_SKIPPED] = "skipped", [GD_PS_NODEVICE] = "no_device",
};

const char *gd_probe_status_name(enum gd_probe_status s)
{
	if ((unsigned)s < sizeof status_names / sizeof status_names[0])
		return status_names[s];
	return "error";
}

int gd_probe_status_parse(const char *name, enum gd_probe_status *out)
{
	for (size_t i = 0; i < sizeof status_names / sizeof status_names[0];
	     i++)
		if (name && !strcmp(name, status_names[i])) {
			*out = (enum gd_probe_status)i;
			return 0;
		}
	return -1;
}
