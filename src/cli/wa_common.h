/* Shared by the workaround commands (run, env, try): choosing the profile
 * and rendering profiles as JSON and as one line of text. */
#ifndef GD_WA_COMMON_H
#define GD_WA_COMMON_H

#include <jansson.h>

#include "cli.h"
#include "discover/discover.h"
#include "doctor/strategy.h"

/* Discover the machine (unless name is given) and pick the profile.
 * Prints the error as "gpudoctor CMD: ..." and returns -1 on failure. */
int gd_wa_pick(struct gd_cli *cli, const char *cmd, const char *name,
	       struct gd_machine *m, struct gd_pick *pk);

const char *gd_wa_origin_name(enum gd_pick_origin o); /* "saved", ... */

/* "profile gpu-1002-731f-gfx1010: HSA_OVERRIDE_GFX_VERSION=10.3.0 (saved
 * 2026-11-22)", or why nothing applies. */
void gd_wa_describe(const struct gd_pick *pk, char *buf, size_t cap);

/* {"name","path","strategy","saved","set":{},"unset":[],
 *  "prepend_path":[{"name","dir"}],"notes":[]} */
json_t *gd_wa_profile_json(const struct gd_profile *p);
/* json_string that never fails on bytes that are not UTF-8. */
json_t *gd_wa_jstr(const char *s);
/* ... or json null when s is NULL or "". */
json_t *gd_wa_jstr_or_null(const char *s);
/* ["a", "b"] from "a b" (space-separated words, e.g. source URLs). */
json_t *gd_wa_words_json(const char *s);

/* {"origin", "gpu", "profile": ... or null} */
json_t *gd_wa_pick_json(const struct gd_pick *pk);
/* The check's own workaround as data (the first GPU whose verdict has one,
 * its index as "gpu"), for a machine without a saved profile: what `env`
 * would apply before any `try --save`; JSON null when none. */
json_t *gd_wa_verdict_workaround_json(struct gd_cli *cli);

#endif
