/* api/: the C API of include/gpudoctor.h over report/ (the check built in
 * memory and rendered into strings). What the command line needs beyond
 * the public functions is here: a handle on its own context, so that
 * `gpudoctor check` goes through the same functions as an app. */
#ifndef GD_API_INT_H
#define GD_API_INT_H

#include <stddef.h>

#include "gpudoctor.h"
#include "report/view.h"

struct gd_probe_progress;
typedef void (*gd_api_progress_fn)(void *arg, const struct gd_probe_progress *p,
				   size_t n);

/* A handle that uses the command line's context (root, environment, kb,
 * colour) without owning it, and runs probes in this process's supervisor
 * (this process is gpudoctor). Close with gpudoctor_close. NULL when out
 * of memory. */
gpudoctor *gd_api_adopt(struct gd_cli *cli, gd_api_progress_fn on_progress);

/* The results of a check for the library that started this process as
 * its helper (`gpudoctor __api-check`): a header, the verdict, then every
 * result NUL-terminated (helper_posix.c reads it back). */
int gd_api_helper_write(gpudoctor *h, int verdict, FILE *f);

/* The helper's run, per platform (helper_posix.c, helper_win32.c):
 * whether path can be run; then run it with argv and read its output
 * (*out, malloc'd, *len bytes) until it exits or deadline_s pass.
 * 0, or -1 with err. */
int gd_api_helper_usable(const char *path, char *err, size_t errlen);
int gd_api_helper_run(const char *path, char *const argv[], double deadline_s,
		      char **out, size_t *len, char *err, size_t errlen);

#define GD_API_HELPER_MAGIC "gpudoctor-api-helper 1"

#endif
