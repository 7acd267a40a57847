/* gd_reg_load_live off Windows: there is no live registry to read. */
#include <errno.h>

#include "wincap.h"

int gd_reg_load_live(gd_reg *r)
{
	(void)r;
	return -ENOSYS;
}
