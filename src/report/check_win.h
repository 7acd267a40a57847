/* The Windows row of the judged-OS table (check_win.c). */
#ifndef GD_CHECK_WIN_H
#define GD_CHECK_WIN_H

#include "check_brief.h"
#include "check_data.h"
#include "doctor/verdict_windows.h"
#include "inventory/win_inventory.h"
#include "inventory/win_python.h"

struct gd_check_win {
	struct gd_win_inventory wi;
	struct gd_win_python py;
	struct gd_win_verdict *vs; /* one per GPU */
	struct gd_brief *bs;	   /* their brief fields, one per GPU */
};

int gd_check_collect_win(struct gd_cli *cli, struct gd_check_data *d);
void gd_check_win_free(struct gd_check_data *d);
json_t *gd_check_win_json(struct gd_cli *cli, const struct gd_check_data *d);
void gd_check_win_text(struct gd_cli *cli, FILE *f,
		       const struct gd_check_data *d, int verbose);
/* The Windows software and Python sections (report's compute stack). */
void gd_check_win_stack_text(struct gd_cli *cli, FILE *f,
			     const struct gd_check_data *d);

#endif
