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

/* A signature's "literals": strings one of which every match contains.
 * The scan looks for them with memmem over the whole text and runs the
 * regex only on lines that hold one, so the cost grows with the log's
 * size, not with lines times signatures. No literals: every line. */
#define GD_SIG_MAX_LIT 6

struct sig {
	const json_t *obj;
	const char *id;
	regex_t re;
	int found;
	size_t nlit;
	const char *lit[GD_SIG_MAX_LIT];
	size_t litlen[GD_SIG_MAX_LIT];
};

static void literals_of(const json_t *o, struct sig *s)
{
	const json_t *arr = json_object_get(o, "literals"), *l;
	size_t i;

	s->nlit = 0;
	json_array_foreach(arr, i, l) {
		const char *v = json_string_value(l);

		if (!v || !*v || s->nlit == GD_SIG_MAX_LIT ||
		    json_is_true(json_object_get(o, "icase"))) {
			s->nlit = 0; /* unusable: fall back to every line */
			return;
		}
		s->lit[s->nlit] = v;
		s->litlen[s->nlit++] = strlen(v);
	}
}

static size_t compile_all(gd_ctx *ctx, const json_t *kbroot, struct sig *s,
			  size_t max)
{
	const json_t *arr = json_object_get(kbroot, "signatures");
	const json_t *o;
	size_t i, n = 0;

	json_array_foreach(arr, i, o) {
		const char *id = gd_kb_str(o, "id");
		const char *rx = gd_kb_str(o, "regex");
		int flags = REG_EXTENDED | REG_NEWLINE, rc;
		char msg[160];

		if (n == max || !id || !rx)
			continue;
		if (json_is_true(json_object_get(o, "icase")))
			flags |= REG_ICASE;
		rc = regcomp(&s[n].re, rx, flags);
		if (rc) {
			regerror(rc, &s[n].re, msg, sizeof msg);
			gd_diag_add(ctx, GD_DIAG_WARN, "kb signatures",
				    "%s: bad regex: %s; skipped", id, msg);
			continue;
		}
		s[n].obj = o;
		s[n].id = id;
		s[n].found = 0;
		literals_of(o, &s[n]);
		n++;
	}
	return n;
}

/* The whole matched line is what the user needs to see (it names the
 * target, the library, the device); a line too long for text keeps its
 * part from the match on. Leading blanks are dropped. */
static int record(struct gd_explain_result *r, struct sig *s,
		  unsigned long ln, const char *line, const regmatch_t *pm)
{
	struct gd_explain_match *mt = gd_vec_push(&r->m);
	size_t n = strlen(line), from = 0;

	if (!mt)
		return -ENOMEM;
	mt->sig = s->obj;
	gd_strlcpy(mt->id, s->id, sizeof mt->id);
	mt->line = ln;
	while (from < (size_t)pm->rm_so && (line[from] == ' ' ||
					      line[from] == '\t'))
		from++;
	if (n - from >= sizeof mt->text)
		from = (size_t)pm->rm_so;
	gd_strlcpy(mt->text, line + from, sizeof mt->text);
	gd_sanitize(mt->text);
	s->found = 1;
	return 0;
}

/* The first line at or after from that holds one of s's literals:
 * its start, or NULL. */
static const char *next_candidate(const struct sig *s, const char *buf,
				  size_t len, size_t from)
{
	const char *best = NULL, *ls;

	for (size_t k = 0; k < s->nlit; k++) {
		size_t lim = best ? (size_t)(best - buf) + s->litlen[k] : len;
		const char *p;

		if (lim > len)
			lim = len;
		if (from >= lim)
			continue;
		p = memmem(buf + from, lim - from, s->lit[k], s->litlen[k]);
		if (p && (!best || p < best))
			best = p;
	}
	if (!best)
		return NULL;
	ls = best;
	while (ls > buf + from && ls[-1] != '\n')
		ls--;
	return ls;
}

/* Match one line [ls, end) (CR stripped) against s; the line is made a
 * C string for regexec and restored. */
static int try_line(struct sig *s, char *ls, char *end, regmatch_t *pm,
		    char *copy, size_t cap)
{
	size_t n = (size_t)(end - ls);

	if (n && ls[n - 1] == '\r')
		n--;
	if (n >= cap)
		n = cap - 1;
	memcpy(copy, ls, n);
	copy[n] = '\0';
	return regexec(&s->re, copy, 1, pm, 0) == 0;
}

static unsigned long line_no(const char *buf, const char *at)
{
	unsigned long ln = 1;

	for (const char *p = buf; (p = memchr(p, '\n', (size_t)(at - p)));
	     p++)
		ln++;
	return ln;
}

/* s's first matching line in buf, or -1. Lines are found through the
 * literals when s has them, else one by one. */
static long long first_match(struct sig *s, const char *buf, size_t len,
			     regmatch_t *pm, char *copy, size_t cap)
{
	size_t from = 0;

	while (from < len) {
		const char *ls = s->nlit ? next_candidate(s, buf, len, from)
					 : buf + from;
		const char *nl;

		if (!ls)
			return -1;
		nl = memchr(ls, '\n', len - (size_t)(ls - buf));
		if (!nl)
			nl = buf + len;
		if (try_line(s, (char *)ls, (char *)nl, pm, copy, cap))
			return ls - buf;
		from = (size_t)(nl - buf) + 1;
	}
	return -1;
}

static int cmp_pos(const void *a, const void *b)
{
	const struct gd_explain_match *x = a, *y = b;

	if (x->in_tail != y->in_tail)
		return x->in_tail - y->in_tail;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* Each signature's first matching line; the matches are then put in log
 * order (a failure that came first usually caused those after it). */
static int scan_lines(struct sig *sigs, size_t ns, char *buf, size_t len,
		      struct gd_explain_result *r, int in_tail)
{
	/* One line copy, so that the log itself is never written to. */
	size_t cap = 64 * 1024, first = r->m.n;
	char *copy = malloc(cap);

	if (!copy)
		return -ENOMEM;
	for (const char *p = buf; p < buf + len;
	     p = memchr(p, '\n', (size_t)(buf + len - p)), p = p ? p + 1 : buf + len)
		r->lines++;
	for (size_t i = 0; i < ns; i++) {
		regmatch_t pm;
		long long at;

		if (sigs[i].found)
			continue;
		at = first_match(&sigs[i], buf, len, &pm, copy, cap);
		if (at < 0)
			continue;
		if (record(r, &sigs[i], line_no(buf, buf + at), copy, &pm) < 0) {
			free(copy);
			return -ENOMEM;
		}
		r->m.v[r->m.n - 1].in_tail = in_tail;
	}
	free(copy);
	qsort(r->m.v + first, r->m.n - first, sizeof *r->m.v, cmp_pos);
	return 0;
}

static int scan_parts(gd_ctx *ctx, const json_t *kbroot, char *buf,
		      size_t len, char *tail, size_t tail_len,
		      struct gd_explain_result *r)
{
	const json_t *arr = json_object_get(kbroot, "signatures");
	size_t max = json_array_size(arr), ns;
	struct sig *sigs;
	int rc;

	r->bytes = len + tail_len;
	if (!max)
		return 0;
	sigs = calloc(max, sizeof *sigs);
	if (!sigs)
		return -ENOMEM;
	ns = compile_all(ctx, kbroot, sigs, max);
	r->n_signatures = ns;
	rc = scan_lines(sigs, ns, buf, len, r, 0);
	if (!rc && tail) {
		/* The tail starts inside a line: drop that piece. */
		char *nl = memchr(tail, '\n', tail_len);
		size_t cut = nl ? (size_t)(nl - tail) + 1 : tail_len;

		rc = scan_lines(sigs, ns, tail + cut, tail_len - cut, r, 1);
	}
	for (size_t i = 0; i < ns; i++)
		regfree(&sigs[i].re);
	free(sigs);
	return rc;
}

int gd_explain_scan(gd_ctx *ctx, const json_t *kbroot, char *buf, size_t len,
		    struct gd_explain_result *r)
{
	r->total = len;
	return scan_parts(ctx, kbroot, buf, len, NULL, 0, r);
}

int gd_explain_scan_log(gd_ctx *ctx, const json_t *kbroot,
			struct gd_explain_log *log,
			struct gd_explain_result *r)
{
	r->skipped = log->skipped;
	r->total = log->total;
	r->truncated = log->skipped > 0;
	return scan_parts(ctx, kbroot, log->head, log->head_len, log->tail,
			  log->tail_len, r);
}

void gd_explain_result_free(struct gd_explain_result *r)
{
	gd_vec_free(&r->m);
	memset(r, 0, sizeof *r);
}
