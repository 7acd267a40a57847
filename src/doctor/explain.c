/* explain: read a log (its start and its end when long), match it line by line against the kb's
 * error signatures (POSIX EREs). The machine checks are in
 * explain_check.c. */
#include "explain.h"

#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kb/kb.h"

static void reverse(char *b, size_t n)
{
	for (size_t i = 0; i + 1 < n - i; i++) {
		char c = b[i];

		b[i] = b[n - 1 - i];
		b[n - 1 - i] = c;
	}
}

/* Everything after the head into a ring of cap bytes; returns the bytes
 * seen (more than cap when the ring wrapped) and leaves the oldest kept
 * byte first. */
static long long read_ring(int fd, char *ring, size_t cap, int *cut)
{
	unsigned long long seen = 0;
	size_t pos = 0;

	for (;;) {
		if (seen >= GD_EXPLAIN_STREAM_MAX) { /* `yes | explain` ends */
			*cut = 1;
			break;
		}
		size_t want = cap - pos < 65536 ? cap - pos : 65536;
		ssize_t k = read(fd, ring + pos, want);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -errno;
		if (k == 0)
			break;
		seen += (size_t)k;
		pos = (pos + (size_t)k) % cap;
	}
	if (seen > cap && pos) { /* rotate: ring[pos..] is the oldest */
		reverse(ring, pos);
		reverse(ring + pos, cap - pos);
		reverse(ring, cap);
	}
	return (long long)seen;
}

/* A regular file much longer than what is left to read: seek to its last
 * cap bytes. Returns the bytes skipped (0 when not seekable or short). */
static unsigned long long seek_tail(int fd, size_t cap)
{
	struct stat st;
	off_t cur;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	cur = lseek(fd, 0, SEEK_CUR);
	if (cur < 0 || st.st_size - cur <= (off_t)cap)
		return 0;
	if (lseek(fd, st.st_size - (off_t)cap, SEEK_SET) < 0)
		return 0;
	return (unsigned long long)(st.st_size - (off_t)cap - cur);
}

static int read_raw(int fd, size_t head_cap, size_t tail_cap,
		    struct gd_explain_log *log)
{
	/* head, a NUL, the tail ring, a NUL */
	char *b = malloc(head_cap + tail_cap + 2), *ring;
	unsigned long long skip;
	ssize_t h;
	long long rest;

	memset(log, 0, sizeof *log);
	if (!b || !tail_cap) {
		free(b);
		return b ? -EINVAL : -ENOMEM;
	}
	h = gd_read_full(fd, b, head_cap);
	if (h < 0) {
		free(b);
		return (int)h;
	}
	log->head = b;
	log->head_len = (size_t)h;
	log->total = (unsigned long long)h;
	b[h] = '\0';
	if ((size_t)h < head_cap)
		return 0;
	ring = b + head_cap + 1;
	skip = seek_tail(fd, tail_cap);
	rest = read_ring(fd, ring, tail_cap, &log->stream_cut);
	if (rest < 0) {
		gd_explain_log_free(log);
		return (int)rest;
	}
	log->total += skip + (unsigned long long)rest;
	if (!skip && (unsigned long long)rest <= tail_cap) {
		/* all of it: one piece */
		memmove(b + head_cap, ring, (size_t)rest);
		log->head_len += (size_t)rest;
		b[log->head_len] = '\0';
		return 0;
	}
	log->skipped = skip + ((unsigned long long)rest > tail_cap
				       ? (unsigned long long)rest - tail_cap : 0);
	log->tail = ring;
	log->tail_len = (size_t)rest < tail_cap ? (size_t)rest : tail_cap;
	ring[log->tail_len] = '\0';
	return 0;
}

/* Both parts decoded into one new allocation (head, NUL, tail, NUL). The
 * tail is decoded as the head is; for UTF-16 it must start on a code unit,
 * i.e. at an even offset of the file. */
static int decode_parts(struct gd_explain_log *log)
{
	size_t bom, hl, tl = 0, odd;
	int enc = gd_explain_detect(log->head, log->head_len, &bom);
	char *h, *t = NULL, *b;

	h = gd_explain_decode(log->head, log->head_len, GD_ENC_DETECT, &hl);
	if (h && log->tail) {
		odd = enc != GD_ENC_UTF8 &&
		      (log->head_len + log->skipped) % 2 && log->tail_len;
		t = gd_explain_decode(log->tail + odd, log->tail_len - odd,
				      enc, &tl);
	}
	b = h && (t || !log->tail) ? malloc(hl + tl + 2) : NULL;
	if (b) {
		memcpy(b, h, hl + 1);
		if (t)
			memcpy(b + hl + 1, t, tl + 1);
		else
			b[hl + 1] = '\0';
	}
	free(h);
	free(t);
	if (!b)
		return -ENOMEM;
	free(log->head);
	log->head = b;
	log->head_len = hl;
	log->tail = log->tail ? b + hl + 1 : NULL;
	log->tail_len = tl;
	return 0;
}

int gd_explain_read_log(int fd, size_t head_cap, size_t tail_cap,
			struct gd_explain_log *log)
{
	int rc = read_raw(fd, head_cap, tail_cap, log);

	if (rc == 0 && (rc = decode_parts(log)) < 0)
		gd_explain_log_free(log);
	return rc;
}

void gd_explain_log_free(struct gd_explain_log *log)
{
	free(log->head);
	memset(log, 0, sizeof *log);
}

struct sig {
	struct gd_kb_signature kb;
	regex_t re;
	int found;
};

static size_t compile_all(gd_ctx *ctx, struct sig *s, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < max; i++) {
		struct gd_kb_signature *k = &s[n].kb;
		int flags = REG_EXTENDED | REG_NEWLINE, rc;
		char msg[160];

		if (gd_kb_signature_at(ctx->kb, i, k) < 0 || !k->id || !k->regex)
			continue;
		if (k->icase)
			flags |= REG_ICASE;
		rc = regcomp(&s[n].re, k->regex, flags);
		if (rc) {
			regerror(rc, &s[n].re, msg, sizeof msg);
			gd_diag_add(ctx, GD_DIAG_WARN, "kb signatures",
				    "%s: bad regex: %s; skipped", k->id, msg);
			continue;
		}
		s[n].found = 0;
		n++;
	}
	return n;
}

static int record(const gd_kb *kb, struct gd_explain_result *r, struct sig *s,
		  unsigned long ln, const char *line, const regmatch_t *pm)
{
	struct gd_explain_match *mt = gd_vec_push(&r->m);
	size_t k;

	if (!mt)
		return -ENOMEM;
	mt->sig = s->kb;
	gd_strlcpy(mt->id, s->kb.id, sizeof mt->id);
	gd_kb_source_urls(kb, s->kb.sources, mt->urls, sizeof mt->urls);
	mt->line = ln;
	k = (size_t)(pm->rm_eo - pm->rm_so);
	if (k == 0) { /* an empty match: show the line instead */
		gd_strlcpy(mt->text, line, sizeof mt->text);
	} else {
		if (k >= sizeof mt->text)
			k = sizeof mt->text - 1;
		memcpy(mt->text, line + pm->rm_so, k);
		mt->text[k] = '\0';
	}
	gd_sanitize(mt->text);
	s->found = 1;
	return 0;
}

static int scan_lines(const gd_kb *kb, struct sig *sigs, size_t ns, char *buf,
		      size_t len, struct gd_explain_result *r, int in_tail)
{
	size_t pos = 0, left = 0;
	unsigned long ln = 0;

	for (size_t i = 0; i < ns; i++)
		left += !sigs[i].found;
	while (pos < len && left) {
		char *line = buf + pos;
		char *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;

		if (nl)
			*nl = '\0';
		if (n && line[n - 1] == '\r')
			line[n - 1] = '\0';
		r->lines++;
		ln++;
		for (size_t i = 0; i < ns; i++) {
			regmatch_t pm;

			if (sigs[i].found ||
			    regexec(&sigs[i].re, line, 1, &pm, 0))
				continue;
			if (record(kb, r, &sigs[i], ln, line, &pm) < 0)
				return -ENOMEM;
			r->m.v[r->m.n - 1].in_tail = in_tail;
			left--;
		}
		pos += n + 1;
	}
	return 0;
}

struct gd_explain_sigs {
	const gd_kb *kb; /* the signatures' strings, their sources' URLs */
	struct sig *v;
	size_t n;
};

struct gd_explain_sigs *gd_explain_sigs_new(gd_ctx *ctx)
{
	size_t max = ctx->kb ? gd_kb_signature_count(ctx->kb) : 0;
	struct gd_explain_sigs *s = calloc(1, sizeof *s);

	if (!s)
		return NULL;
	s->kb = ctx->kb;
	s->v = calloc(max ? max : 1, sizeof *s->v);
	if (!s->v) {
		free(s);
		return NULL;
	}
	s->n = max ? compile_all(ctx, s->v, max) : 0;
	return s;
}

void gd_explain_sigs_free(struct gd_explain_sigs *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		regfree(&s->v[i].re);
	free(s->v);
	free(s);
}

/* Head, then tail (its first, partial line dropped). */
static int sigs_scan_parts(struct gd_explain_sigs *s, char *buf, size_t len,
			   char *tail, size_t tail_len,
			   struct gd_explain_result *r)
{
	int rc;

	r->bytes = len + tail_len;
	r->n_signatures = s->n;
	for (size_t i = 0; i < s->n; i++)
		s->v[i].found = 0;
	rc = scan_lines(s->kb, s->v, s->n, buf, len, r, 0);
	if (!rc && tail) {
		char *nl = memchr(tail, '\n', tail_len);
		size_t cut = nl ? (size_t)(nl - tail) + 1 : tail_len;

		rc = scan_lines(s->kb, s->v, s->n, tail + cut, tail_len - cut,
				r, 1);
	}
	return rc;
}

int gd_explain_sigs_scan(struct gd_explain_sigs *s, char *buf, size_t len,
			 struct gd_explain_result *r)
{
	r->total = len;
	return sigs_scan_parts(s, buf, len, NULL, 0, r);
}

static int scan_parts(gd_ctx *ctx, char *buf, size_t len, char *tail,
		      size_t tail_len, struct gd_explain_result *r)
{
	struct gd_explain_sigs *s;
	int rc;

	if (!ctx->kb || !gd_kb_signature_count(ctx->kb)) {
		r->bytes = len + tail_len;
		return 0;
	}
	s = gd_explain_sigs_new(ctx);
	if (!s)
		return -ENOMEM;
	rc = sigs_scan_parts(s, buf, len, tail, tail_len, r);
	gd_explain_sigs_free(s);
	return rc;
}

int gd_explain_scan(gd_ctx *ctx, char *buf, size_t len,
		    struct gd_explain_result *r)
{
	r->total = len;
	return scan_parts(ctx, buf, len, NULL, 0, r);
}

int gd_explain_scan_log(gd_ctx *ctx, struct gd_explain_log *log,
			struct gd_explain_result *r)
{
	r->skipped = log->skipped;
	r->total = log->total;
	r->truncated = log->skipped > 0;
	return scan_parts(ctx, log->head, log->head_len, log->tail,
			  log->tail_len, r);
}

void gd_explain_result_free(struct gd_explain_result *r)
{
	gd_vec_free(&r->m);
	memset(r, 0, sizeof *r);
}
