#include "check_data.h"

#include <string.h>

#include "doctor/cuda_driver.h"

int gd_check_collect(struct gd_cli *cli, const struct gd_check_opts *o,
		     struct gd_check_data *d)
{
	struct gd_evidence ev;

	memset(d, 0, sizeof *d);
	if (gd_discover(&cli->ctx, &d->m) < 0 ||
	    gd_inventory_collect(&cli->ctx, &d->inv) < 0)
		return -1;
	gd_doctor_cuda(&cli->ctx, &d->inv);
	gd_doctor_deps(&cli->ctx, &d->inv);
	gd_check_extra_collect(cli, o, d);
	gd_check_extra_evidence(d, &ev);
	return gd_doctor_judge(&cli->ctx, &d->m, &d->inv, &ev, &d->diag);
}

void gd_check_free(struct gd_check_data *d)
{
	gd_diagnosis_free(&d->diag);
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
