/* Tear-down the tests that discover a captured machine share: the machine,
 * the kb loaded into the context, the context; and a temporary tree. */
#ifndef GD_T_MACHINE_H
#define GD_T_MACHINE_H

#include <stdio.h>
#include <stdlib.h>

#include "core/ctx.h"
#include "discover/discover.h"
#include "kb/kb.h"
#include "t.h"

static inline void t_machine_free(gd_ctx *ctx, struct gd_machine *m)
{
	gd_machine_free(m);
	gd_kb_free(ctx->kb);
	ctx->kb = NULL;
	gd_ctx_free(ctx);
}

static inline void t_rm_tree(const char *dir)
{
	char cmd[300];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}

#endif
