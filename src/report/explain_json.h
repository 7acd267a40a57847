/* explain's JSON document and fixes (explain_json.c). */
#ifndef GD_REPORT_EXPLAIN_JSON_H
#define GD_REPORT_EXPLAIN_JSON_H

#include <jansson.h>

#include "discover/discover.h"
#include "doctor/explain.h"
#include "inventory/inventory.h"

/* What explain found and where: the machine and inventory its checks look
 * at, the log read (for a fix for the program itself; NULL: none). */
struct gd_explain_view {
	gd_ctx *ctx;
	const char *input; /* "stdin", the file's path, or "app" (C API) */
	const struct gd_machine *m;
	const struct gd_inventory *inv;
	const struct gd_explain_result *r;
	const struct gd_explain_log *log;
	const char *program; /* the program that wrote the log, or NULL */
};

/* explain on this machine: the machine (m) and its inventory as `check`
 * judges it (inv, for the signatures' checks), then log's signatures and
 * error codes with the evidence of the log and of m. 0, or -1 when out of
 * memory. */
int gd_explain_here(gd_ctx *ctx, struct gd_explain_log *log,
		    struct gd_machine *m, struct gd_inventory *inv,
		    struct gd_explain_result *r);

/* The kb's fix for mt, or one for the program itself when the log is not
 * from a framework the kb's fix is written for (gd_explain_program_fix);
 * buf holds the latter. */
const char *gd_explain_fix(const struct gd_explain_view *x,
			   const struct gd_explain_match *mt, char *buf,
			   size_t cap);
/* A code of the "no code for this GPU" family: the program's own fix in
 * buf, else NULL. */
const char *gd_explain_code_fix(const struct gd_explain_view *x,
				const struct gd_explain_code *e, char *buf,
				size_t cap);
/* The document, without the envelope's last key ("platform":
 * gd_cli_json_finish); NULL when out of memory. */
json_t *gd_explain_doc(const struct gd_explain_view *x);

#endif
