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
	unsigned long line; /* 1-based line of the first match */
	char text[320];	    /* the matched text, sanitised */
	int in_tail;	    /* line counts from the start of the tail part */
	size_t seq;	    /* found order: on one line, the earlier literal */
	char urls[1024];    /* the signature's public sources, space-separated,
			       resolved from the kb so renderers need not */
	char detail[320];   /* what the line's own numbers say, or "" */
	const char *detail_cause; /* the kb cause code they name, or NULL */
	const char *ruled_out;	  /* a cause code they rule out, or NULL */
	char alternative[600];	  /* another cause the log's other lines point
				     to, and what tells them apart, or "" */
	const char *alt_id; /* that cause's name (docs/json.md), or NULL; every
			       alternative is the likelier cause */
};

/* The causes mt names (kb cause codes, docs/kb.md), likeliest first: the
 * one the line's own numbers name (an Xid, an OOM's sizes), the
 * evidence's alternative, then the signature's own; at most cap, into
 * codes (strings of the kb). Returns how many. */
#define GD_EXPLAIN_MAX_CAUSES 8
size_t gd_explain_causes(const gd_kb *kb, const struct gd_explain_match *mt,
			 const char **codes, size_t cap);

/* A runtime error code the log names (explain_codes.c), by its name or by
 * its number after a word that says which runtime it is. */
struct gd_errcode;
struct gd_explain_code {
	const struct gd_errcode *c; /* into gd_errcodes[] (errcodes.h) */
	unsigned long line;
	int in_tail;
	int by_number;	/* GD_CODE_BY_NAME, _NUMBER or _TEXT: what the log
			 * gave (historic name: 0 is the name) */
	char text[320]; /* the line, sanitised */
};

struct gd_explain_result {
	GD_VEC(struct gd_explain_match) m;
	GD_VEC(struct gd_explain_code) codes; /* in the order found */
	unsigned long lines;	    /* lines looked at (head and tail) */
	size_t bytes;		    /* bytes looked at */
	int truncated;		    /* part of the log was skipped */
	size_t n_signatures;	    /* usable signatures in the kb */
	unsigned long long skipped; /* bytes not read between head and tail */
	unsigned long long total;   /* the log's size (bytes seen on a pipe) */
};

/* A log as read: all of it in head, or its start in head and its end in
 * tail with skipped bytes between. One allocation, both NUL-terminated. */
struct gd_explain_log {
	char *head;
	size_t head_len;
	char *tail; /* NULL when nothing was skipped */
	size_t tail_len;
	unsigned long long skipped, total;
	int stream_cut; /* a stream passed GD_EXPLAIN_STREAM_MAX: not read on */
};

/* Read fd: its first head_cap bytes, then its last tail_cap bytes (a
 * regular file: by seeking; a pipe: through a ring buffer, read up to
 * GD_EXPLAIN_STREAM_MAX bytes in all). tail_cap > 0. Both parts are then
 * decoded (gd_explain_decode, the encoding taken from the head), so their
 * lengths are those of the UTF-8 text. Returns 0 or -errno. */
#define GD_EXPLAIN_STREAM_MAX (1ull << 30)
int gd_explain_read_log(int fd, size_t head_cap, size_t tail_cap,
			struct gd_explain_log *log);
/* The same for a text in memory (n bytes, the C API's): its first head_cap
 * and last tail_cap bytes, decoded. Returns 0 or -errno. */
int gd_explain_mem_log(const char *buf, size_t n, size_t head_cap,
		       size_t tail_cap, struct gd_explain_log *log);
void gd_explain_log_free(struct gd_explain_log *log);

/* Input decoding (explain_decode.c): a log's bytes -> UTF-8 text with '\n'
 * line ends: UTF-16LE/BE (by BOM, or LE by its look) converted, a UTF-8
 * BOM dropped, ANSI escape sequences dropped, CR and CRLF made '\n', a run
 * of NUL bytes ends the line it interrupts. */
enum { GD_ENC_DETECT = -1, GD_ENC_UTF8 = 0, GD_ENC_UTF16LE, GD_ENC_UTF16BE };
/* The encoding of a log that starts with buf; *bom: bytes of BOM. */
int gd_explain_detect(const char *buf, size_t n, size_t *bom);
/* A malloc'd, NUL-terminated decoded copy (NULL when out of memory). */
char *gd_explain_decode(const char *buf, size_t n, int enc, size_t *out_len);
/* The same for a UTF-8 (or ASCII) buffer of n bytes that has room for a
 * NUL after them, in place: no copy of a large log. Returns the new length,
 * or (size_t)-1 when buf is UTF-16 (use gd_explain_decode). */
size_t gd_explain_decode_inplace(char *buf, size_t n);

/* Match buf (modified in place: newlines become NULs) against every
 * signature of ctx->kb. Each signature is reported once, at its first
 * matching line, in log order. Bad regexes are skipped with a diagnostic.
 * Returns 0 or -ENOMEM. */
int gd_explain_scan(gd_ctx *ctx, char *buf, size_t len,
		    struct gd_explain_result *r);
/* The same on a log as read: head, then tail (its first, partial line
 * dropped; its lines numbered from there, matches marked in_tail), then
 * the evidence (gd_explain_evidence) with here, the machine the log is
 * read on (NULL: the log's own lines only). */
int gd_explain_scan_log(gd_ctx *ctx, struct gd_explain_log *log,
			const struct gd_machine *here,
			struct gd_explain_result *r);
void gd_explain_result_free(struct gd_explain_result *r);

/* The kb's signatures compiled once, for many scans (the fuzz target, the
 * decoding test): gd_explain_scan and _scan_log compile them on every
 * call. */
struct gd_explain_sigs;
struct gd_explain_sigs *gd_explain_sigs_new(gd_ctx *ctx);
int gd_explain_sigs_scan(struct gd_explain_sigs *s, char *buf, size_t len,
			 struct gd_explain_result *r);
int gd_explain_sigs_scan_log(struct gd_explain_sigs *s,
			     struct gd_explain_log *log,
			     const struct gd_machine *here,
			     struct gd_explain_result *r);
void gd_explain_sigs_free(struct gd_explain_sigs *s);

/* Evidence over symptom (explain_evidence.c): each match whose common
 * cause a set-up cause could also explain (a container without the NVIDIA
 * runtime, ROCm in WSL2, a driver older than the program's CUDA) gets that
 * cause in its alternative when the log's other lines point to it, or this
 * machine (here, may be NULL: a WSL2 kernel, a container) does. */
void gd_explain_evidence(const gd_kb *kb, const char *head, size_t head_len,
			 const char *tail, size_t tail_len,
			 const struct gd_machine *here,
			 struct gd_explain_result *r);

/* The error codes named in buf (in_tail: the tail part), appended to
 * r->codes; each code once per result. Returns 0 or -1 (out of memory). */
struct gd_errcode_index;
int gd_explain_codes_scan(const struct gd_errcode_index *x, const char *buf,
			  size_t len, int in_tail, struct gd_explain_result *r);
/* The runtimes' error texts quoted in buf after a word naming the runtime
 * ("CUDA error: an illegal memory access was encountered"), appended the
 * same way (explain_texts.c). */
int gd_explain_texts_scan(const char *buf, size_t len, int in_tail,
			  struct gd_explain_result *r);

#define GD_CODES_MAX 32 /* decoded codes per log */
enum { GD_CODE_BY_NAME, GD_CODE_BY_NUMBER, GD_CODE_BY_TEXT };
/* Append code c found on the line starting at ls (buffer end: end) once
 * per result; how: GD_CODE_BY_*. 0, or -1 when out of memory. */
int gd_explain_code_add(struct gd_explain_result *r, const struct gd_errcode *c,
			unsigned long ln, const char *ls, const char *end,
			int in_tail, int how);

/* Which out-of-memory case a PyTorch "CUDA out of memory. Tried to
 * allocate" line is (larger than the GPU, fragmentation, full), from its
 * numbers; writes "" and returns 0 when the line does not say. */
int gd_explain_oom(const char *line, char *out, size_t cap, const char **cause);

/* The cause a PyTorch OOM line's numbers rule out (other processes, when
 * the line shows this process holds all but a quarter of the GPU), or
 * NULL. */
const char *gd_explain_oom_ruled_out(const char *line);

/* What an "NVRM: Xid (PCI:…): N" line's Xid number is (NVIDIA's Xid
 * catalog: the application, GPU memory, NVLink, PCIe, GSP) and what to do
 * first; writes "" and returns 0 when the line holds no Xid number. */
int gd_explain_xid(const char *line, char *out, size_t cap, const char **cause);

/* For the "no code for this GPU" family (sig_id: a signature id such as
 * cuda-no-kernel-image, or a runtime error code's name such as
 * CUDA_ERROR_NO_BINARY_FOR_GPU or hipErrorSharedObjectInitFailed) in a log
 * that names no framework the kb's fix is written for: a fix for the
 * program itself (program: its name, or NULL for "the program"; neither a
 * framework's nor an interpreter's name), with this machine's target when
 * it has such a GPU. Returns 1 when out holds one, else 0. */
int gd_explain_program_fix(const char *sig_id, const char *log, size_t len,
			   const char *program, const struct gd_machine *m,
			   char *out, size_t cap);

enum gd_check_verdict {
	GD_CHECK_NA,	       /* "not checkable here: ..." */
	GD_CHECK_CONFIRMED,    /* "confirmed by: ..." */
	GD_CHECK_CONTRADICTED, /* "contradicted by: ..." */
};

/* gd_explain_causes on the machine gd_explain_check looked at: when
 * its fact contradicts the signature's own first cause (the driver here is
 * new enough), that cause goes last. */
size_t gd_explain_causes_here(const gd_kb *kb,
			      const struct gd_explain_match *mt,
			      enum gd_check_verdict v, const char **codes,
			      size_t cap);

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
