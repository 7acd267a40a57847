/* What cmd_kb.c (options, lookup, --json, --stale) and cmd_kb_text.c (the
 * text rendering) share. Internal to `gpudoctor kb`. */
#ifndef GD_CMD_KB_H
#define GD_CMD_KB_H

#include <jansson.h>

#include "cli.h"
#include "kb/kb.h"

/* o's string member key, or def when it is absent or empty. */
const char *gd_cmd_kb_str_or(const json_t *o, const char *key, const char *def);

/* The table of every target (kb without TARGET). */
void gd_cmd_kb_print_list(struct gd_cli *cli, const gd_kb *kb);
/* One entry as found by the lookup, with its sources as footnotes. */
void gd_cmd_kb_print_target(struct gd_cli *cli, const gd_kb *kb,
			    const json_t *t);
void gd_cmd_kb_print_nvidia(struct gd_cli *cli, const gd_kb *kb,
			    const json_t *gpu, const json_t *cc);
void gd_cmd_kb_print_issue(struct gd_cli *cli, const gd_kb *kb,
			   const json_t *is);

#endif
