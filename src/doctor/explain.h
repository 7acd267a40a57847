/* doctor/explain: match a log against the knowledge base's error
 * signatures (`signatures[]`, docs/kb.md) and check each hit against this
 * machine's facts: does what we see here confirm or contradict it. */
#ifndef GD_EXPLAIN_H
#define GD_EXPLAIN_H

#include <jansson.h>
#include <stddef.h>

#include "../core/ctx.h"
#include "../discover/discover.h"
#include "../inventory/inventory.h"

/* Logs are read up to this many bytes; the rest is not looked at. */
#define GD_EXPLAIN_MAX_BYTES (16u * 1024 * 1024)

struct gd_explain_match {
	const json_t *sig;   /* the kb signature object (borrowed) */
	char id[96];
	unsigned long line;  /* 1-based line of the first match */
	char text[320];      /* the matched text, sanitised */
};

struct gd_explain_result {
	GD_VEC(struct gd_explain_match) m;
	unsigned long lines; /* lines looked at */
	size_t bytes;        /* bytes looked at */
	int truncated;       /* the log was longer than the cap */
	size_t n_signatures; /* usable signatures in the kb */
};

/* Read at most cap bytes of fd into a malloc'ed buffer (NUL-terminated);
 * *truncated is set when more was there. Returns 0 or -errno. */
int gd_explain_read(int fd, size_t cap, char **buf, size_t *len,
		    int *truncated);

/* Match buf (modified in place: newlines become NULs) against every
 * signature of the kb root. Each signature is reported once, at its first
 * matching line, in log order. Bad regexes are skipped with a diagnostic.
 * Returns 0 or -ENOMEM. */
int gd_explain_scan(gd_ctx *ctx, const json_t *kbroot, char *buf, size_t len,
		    struct gd_explain_result *r);
void gd_explain_result_free(struct gd_explain_result *r);

enum gd_check_verdict {
	GD_CHECK_NA,           /* "not checkable here: ..." */
	GD_CHECK_CONFIRMED,    /* "confirmed by: ..." */
	GD_CHECK_CONTRADICTED, /* "contradicted by: ..." */
};

/* The machine fact behind a signature's "check" field ("rocblas-coverage",
 * "gfx-supported", "kfd-access", "cuda-driver", "hip-major-mismatch",
 * "override-valid", "code-for-gpu", "apu", "none"). inv may be NULL.
 * Writes the fact (without the verdict prefix) into text. */
enum gd_check_verdict gd_explain_check(const json_t *kbroot, const char *check,
				       const struct gd_machine *m,
				       const struct gd_inventory *inv,
				       char *text, size_t cap);
const char *gd_check_verdict_name(enum gd_check_verdict v);   /* JSON */
const char *gd_check_verdict_prefix(enum gd_check_verdict v); /* text */

#endif
