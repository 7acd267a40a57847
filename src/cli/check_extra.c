/* Framework and probe evidence for `check`. Placeholder until the frameworks
 * (inventory/frameworks) and probe (probe/) layers land. */
#include "check_data.h"

void gd_check_extra_collect(struct gd_cli *cli, const struct gd_check_opts *o,
			    struct gd_check_data *d)
{
	(void)cli;
	(void)o;
	(void)d;
}

void gd_check_extra_json(struct gd_cli *cli, const struct gd_check_data *d,
			 json_t *doc)
{
	(void)cli;
	(void)d;
	(void)doc;
}

void gd_check_extra_text(struct gd_cli *cli, FILE *f,
			 const struct gd_check_data *d)
{
	(void)cli;
	(void)f;
	(void)d;
}

const char *const *gd_check_extra_probe_lines(const struct gd_check_data *d)
{
	(void)d;
	return NULL;
}

const char *const *gd_check_extra_framework_lines(const struct gd_check_data *d)
{
	(void)d;
	return NULL;
}

void gd_check_extra_free(struct gd_check_data *d)
{
	(void)d;
}
