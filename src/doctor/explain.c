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
static long long read_ring(int fd, char *ring, size_t cap)
{
	unsigned long long seen = 0;
	size_t pos = 0;

	for (;;) {
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

int gd_explain_read_log(int fd, size_t head_cap, size_t tail_cap,
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
	rest = read_ring(fd, ring, tail_cap);
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

static int scan_parts(gd_ctx *ctx, char *buf, size_t len, char *tail,
		      size_t tail_len, struct gd_explain_result *r)
{
	size_t max = ctx->kb ? gd_kb_signature_count(ctx->kb) : 0, ns;
	struct sig *sigs;
	int rc;

	r->bytes = len + tail_len;
	if (!max)
		return 0;
	sigs = calloc(max, sizeof *sigs);
	if (!sigs)
		return -ENOMEM;
	ns = compile_all(ctx, sigs, max);
	r->n_signatures = ns;
	rc = scan_lines(ctx->kb, sigs, ns, buf, len, r, 0);
	if (!rc && tail) {
		/* The tail starts inside a line: drop that piece. */
		char *nl = memchr(tail, '\n', tail_len);
		size_t cut = nl ? (size_t)(nl - tail) + 1 : tail_len;

		rc = scan_lines(ctx->kb, sigs, ns, tail + cut, tail_len - cut, r, 1);
	}
	for (size_t i = 0; i < ns; i++)
		regfree(&sigs[i].re);
	free(sigs);
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
