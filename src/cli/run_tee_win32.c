/* `gpudoctor run` on Windows: CMD runs through gd_plat_exec (a job we wait
 * on), its output not kept: nothing to explain yet. */
#include <errno.h>
#include <string.h>

#include "run_tee.h"

int gd_run_tee(char *const *cmd, char *const *env, struct gd_run_out *o)
{
	(void)cmd;
	(void)env;
	memset(o, 0, sizeof *o);
	return -ENOSYS;
}

void gd_run_out_free(struct gd_run_out *o)
{
	(void)o;
}
