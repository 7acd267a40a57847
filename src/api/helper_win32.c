/* No probes through the C API on Windows yet: the library is not built
 * there (CMakeLists.txt); the command line uses these files and runs its
 * probes itself. */
#include "api_int.h"
#include "core/util.h"

int gd_api_helper_usable(const char *path, char *err, size_t errlen)
{
	gd_fmt(err, errlen,
	       "probes through the C API need the helper '%s', which is not "
	       "supported on Windows yet",
	       path);
	return -1;
}

int gd_api_helper_run(const char *path, char *const argv[], double deadline_s,
		      char **out, size_t *len, char *err, size_t errlen)
{
	(void)argv;
	(void)deadline_s;
	*out = NULL;
	*len = 0;
	return gd_api_helper_usable(path, err, errlen);
}
