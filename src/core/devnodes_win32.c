/* Windows has no /dev: gather writes no devnodes file (devnodes.h). */
#include <errno.h>

#include "devnodes.h"

int gd_devnodes_collect(const gd_fs *fs, char **out, size_t *len)
{
	(void)fs;
	*out = NULL;
	*len = 0;
	return -ENOSYS;
}
