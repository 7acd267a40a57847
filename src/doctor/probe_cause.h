/* doctor/probe_cause: why a probe backend's init failed. The runtime's own
 * diagnostics (probe/diag.c re-runs the init with them on) give the
 * decisive lines, picked by the kb's error signatures; the machine's facts
 * (discover/, inventory/) give the cause; one table of rules joins them,
 * first match wins, every failed init ends in a code (cause.*, codes.h).
 * `explain` asks the same rules about a log (gd_cause_of_machine). */
#ifndef GD_PROBE_CAUSE_H
#define GD_PROBE_CAUSE_H

#include <stddef.h>

#include "codes.h"
#include "discover/discover.h"
#include "inventory/inventory.h"
#include "probe/probe.h"

/* What the rules look at; any pointer may be NULL (explain has no probe,
 * a captured machine has no probe either). */
struct gd_cause_in {
	gd_ctx *ctx;
	const char *backend;		    /* "hip", "vulkan", ... */
	const struct gd_probe_result *init; /* the failed init */
	const struct gd_probe_diag *diag;   /* its diagnostics */
	const struct gd_machine *m;
	const struct gd_inventory *inv;
};

struct gd_cause {
	enum gd_code code;
	char text[400];
	char fix[320];
};

/* The cause of a failed init: always one (cause.unknown at worst). */
void gd_cause_find(const struct gd_cause_in *in, struct gd_cause *out);
/* Machine facts alone (no probe, no runtime lines): 1 with out filled
 * when they explain a backend finding no device, else 0. */
int gd_cause_of_machine(gd_ctx *ctx, const char *backend,
			const struct gd_machine *m,
			const struct gd_inventory *inv, struct gd_cause *out);

/* After gd_probe_run: for every backend whose init failed, the decisive
 * lines of its diagnostics (kb signatures, and the loader's "cannot open
 * shared object file" lines) and the cause, into r->diags. m and inv may
 * be NULL (then only the runtime's words count). */
void gd_probe_judge(gd_ctx *ctx, const struct gd_machine *m,
		    const struct gd_inventory *inv, struct gd_probe_report *r);

/* The loader's dlerror text in one line: "libX.so.1: cannot open shared
 * object file" -> "libX.so.1" (parser, fuzzed). 1 when found. */
int gd_cause_dlerror_lib(const char *line, char *lib, size_t cap);

#endif
