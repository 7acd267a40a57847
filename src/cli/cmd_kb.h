/* What cmd_kb.c (options, lookup, --json, --stale), cmd_kb_text.c (the
 * text rendering) and cmd_kb_causes.c (causes and signatures) share. Internal
 * to `gpudoctor kb`. */
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

/* cmd_kb_causes.c: q as a cause code or a signature id. 0: neither; 1:
 * printed (text) or, with --json, *json and *kind ("cause", "signature")
 * set for the caller to emit. */
int gd_cmd_kb_show_cause(struct gd_cli *cli, const gd_kb *kb, const char *q,
			 json_t **json, const char **kind);

#endif
