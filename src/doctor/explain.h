/* doctor/explain: match a log against the knowledge base's error
 * signatures (`signatures[]`, docs/kb.md) and check each hit against this
 * machine's facts: does what we see here confirm or contradict it. */
#ifndef GD_EXPLAIN_H
#define GD_EXPLAIN_H

#include <stddef.h>

#include "../core/ctx.h"
#include "../discover/discover.h"
#include "../inventory/inventory.h"
#include "../kb/kb.h"

/* Crash messages are at a log's end, so a long log is read as its first
 * HEAD bytes and its last TAIL bytes; what lies between is skipped (and
 * reported as skipped). */
#define GD_EXPLAIN_HEAD_BYTES (4u * 1024 * 1024)
#define GD_EXPLAIN_TAIL_BYTES (12u * 1024 * 1024)
#define GD_EXPLAIN_MAX_BYTES (GD_EXPLAIN_HEAD_BYTES + GD_EXPLAIN_TAIL_BYTES)

struct gd_explain_match {
	struct gd_kb_signature sig; /* strings borrowed from ctx->kb */
	char id[96];
	unsigned long line;  /* 1-based line of the first match */
	char text[320];      /* the matched text, sanitised */
	int in_tail;         /* line counts from the start of the tail part */
	char urls[1024];     /* the signature's public sources, space-separated,
				resolved from the kb so renderers need not */
};

struct gd_explain_result {
	GD_VEC(struct gd_explain_match) m;
	unsigned long lines; /* lines looked at (head and tail) */
	size_t bytes;        /* bytes looked at */
	int truncated;       /* part of the log was skipped */
	size_t n_signatures; /* usable signatures in the kb */
	unsigned long long skipped; /* bytes not read between head and tail */
	unsigned long long total;   /* the log's size (bytes seen on a pipe) */
};

/* A log as read: all of it in head, or its start in head and its end in
 * tail with skipped bytes between. One allocation, both NUL-terminated. */
struct gd_explain_log {
	char *head;
	size_t head_len;
	char *tail;      /* NULL when nothing was skipped */
	size_t tail_len;
	unsigned long long skipped, total;
};

/* Read fd: its first head_cap bytes, then its last tail_cap bytes (a
 * regular file: by seeking; a pipe: through a ring buffer). tail_cap > 0.
 * Returns 0 or -errno. */
int gd_explain_read_log(int fd, size_t head_cap, size_t tail_cap,
			struct gd_explain_log *log);
void gd_explain_log_free(struct gd_explain_log *log);

/* Match buf (modified in place: newlines become NULs) against every
 * signature of ctx->kb. Each signature is reported once, at its first
 * matching line, in log order. Bad regexes are skipped with a diagnostic.
 * Returns 0 or -ENOMEM. */
int gd_explain_scan(gd_ctx *ctx, char *buf, size_t len,
		    struct gd_explain_result *r);
/* The same on a log as read: head, then tail (its first, partial line
 * dropped; its lines numbered from there, matches marked in_tail). */
int gd_explain_scan_log(gd_ctx *ctx, struct gd_explain_log *log,
			struct gd_explain_result *r);
void gd_explain_result_free(struct gd_explain_result *r);

enum gd_check_verdict {
	GD_CHECK_NA,           /* "not checkable here: ..." */
	GD_CHECK_CONFIRMED,    /* "confirmed by: ..." */
	GD_CHECK_CONTRADICTED, /* "contradicted by: ..." */
};

/* The machine fact behind a signature's "check" field (enum gd_kb_check,
 * docs/kb.md). inv may be NULL. Writes the fact (without the verdict
 * prefix) into text. */
enum gd_check_verdict gd_explain_check(gd_ctx *ctx, enum gd_kb_check check,
				       const struct gd_machine *m,
				       const struct gd_inventory *inv,
				       char *text, size_t cap);
const char *gd_check_verdict_name(enum gd_check_verdict v);   /* JSON */
const char *gd_check_verdict_prefix(enum gd_check_verdict v); /* text */

#endif
