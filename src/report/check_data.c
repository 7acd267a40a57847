#include "check_data.h"

#include <string.h>

#include "check_win.h"
#include "doctor/cuda_driver.h"

int gd_check_inventory(gd_ctx *ctx, struct gd_inventory *inv)
{
	if (gd_inventory_collect(ctx, inv) < 0)
		return -1;
	gd_doctor_cuda(ctx, inv);
	gd_doctor_deps(ctx, inv);
	return 0;
}

static int collect_linux(struct gd_cli *cli, const struct gd_check_opts *o,
			 struct gd_check_data *d)
{
	struct gd_evidence ev;

	if (gd_discover(&cli->ctx, &d->m) < 0 ||
	    gd_check_inventory(&cli->ctx, &d->inv) < 0)
		return -1;
	gd_check_extra_collect(cli, o, d);
	gd_check_extra_evidence(d, &ev);
	return gd_doctor_judge(&cli->ctx, &d->m, &d->inv, &ev, &d->diag);
}

static int collect_windows(struct gd_cli *cli, const struct gd_check_opts *o,
			   struct gd_check_data *d)
{
	(void)o; /* no probes of a Windows machine from here yet */
	return gd_check_collect_win(cli, d);
}

/* The judged-OS table: how each OS's facts are collected and judged into
 * the one gd_check_data (ctx->platform, a capture's or this machine's).
 * Everything above reads d->diag; only the renderers of the OS's own
 * sections look at d->win. */
static const struct {
	int windows;
	int (*collect)(struct gd_cli *, const struct gd_check_opts *,
		       struct gd_check_data *);
} oses[] = {
    {0, collect_linux},
    {1, collect_windows},
};

int gd_check_collect(struct gd_cli *cli, const struct gd_check_opts *o,
		     struct gd_check_data *d)
{
	int win = gd_ctx_is_windows(&cli->ctx);

	memset(d, 0, sizeof *d);
	for (size_t i = 0; i < sizeof oses / sizeof oses[0]; i++)
		if (oses[i].windows == win)
			return oses[i].collect(cli, o, d);
	return -1;
}

void gd_check_free(struct gd_check_data *d)
{
	gd_diagnosis_free(&d->diag);
	gd_check_win_free(d);
	gd_check_extra_free(d);
	gd_inventory_free(&d->inv);
	gd_machine_free(&d->m);
}

int gd_check_exit_code(const struct gd_check_data *d)
{
	if (!d->diag.any_gpu)
		return GD_EXIT_NO_GPU;
	return d->diag.any_works ? GD_EXIT_OK : GD_EXIT_UNUSABLE;
}
