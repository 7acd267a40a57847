/* explain: match a log (read by explain_read.c) line by line against the
 * kb's error signatures (POSIX EREs). The machine checks are in
 * explain_check.c. */
#include "explain.h"

#include <errno.h>
#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "errcodes.h"
#include "kb/kb.h"

/* A signature's "literals": strings one of which every match contains.
 * The scan looks for them with memmem over the whole text and runs the
 * regex only on lines that hold one, so the cost grows with the log's
 * size, not with lines times signatures. No literals: every line. */
#define GD_SIG_MAX_LIT 6

struct sig {
	struct gd_kb_signature kb;
	const gd_kb *from; /* the kb, for the sources' URLs */
	regex_t re;
	regex_t unless; /* valid when kb.unless */
	/* 0 not compiled yet, 1 ready, -1 does not compile */
	signed char state;
	int found;
	size_t nlit;
	const char *lit[GD_SIG_MAX_LIT];
	size_t litlen[GD_SIG_MAX_LIT];
};

static void literals_of(struct sig *s)
{
	const struct gd_kb_signature *k = &s->kb;

	s->nlit = 0;
	for (size_t i = 0; i < gd_kb_list_n(k->literals); i++) {
		const char *v = gd_kb_list_at(k->literals, i);

		if (!v || strlen(v) < 4 || s->nlit == GD_SIG_MAX_LIT ||
		    k->icase) {
			s->nlit = 0; /* unusable: fall back to every line */
			return;
		}
		s->lit[s->nlit] = v;
		s->litlen[s->nlit++] = strlen(v);
	}
}

/* A signature's regexes are compiled the first time one of its literals
 * turns up in a log: a log meets a handful of the kb's hundreds of
 * signatures, and regcomp of them all would cost more than the scan
 * itself. The kb loader has compiled every regex once already (it refuses
 * a file whose regex does not), so a failure here is only a regcomp
 * resource failure; that signature is then skipped. */
static int compile_one(struct sig *s, char *msg, size_t cap)
{
	int flags = REG_EXTENDED | REG_NEWLINE | (s->kb.icase ? REG_ICASE : 0);
	int rc = regcomp(&s->re, s->kb.regex, flags);

	if (rc) {
		regerror(rc, &s->re, msg, cap);
		s->state = -1;
		return -1;
	}
	if (s->kb.unless &&
	    (rc = regcomp(&s->unless, s->kb.unless, flags | REG_NOSUB))) {
		regerror(rc, &s->unless, msg, cap);
		regfree(&s->re);
		s->state = -1;
		return -1;
	}
	s->state = 1;
	return 0;
}

static int ready(struct sig *s)
{
	if (s->state == 0) {
		char msg[160];

		compile_one(s, msg, sizeof msg);
	}
	return s->state == 1;
}

/* The kb's signatures with their literals; those without literals (tried
 * on every line) are compiled now, so that a bad one is reported. */
static size_t compile_all(gd_ctx *ctx, struct sig *s, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < max; i++) {
		struct gd_kb_signature *k = &s[n].kb;
		char msg[160];

		if (gd_kb_signature_at(ctx->kb, i, k) < 0 || !k->id ||
		    !k->regex)
			continue;
		s[n].state = 0;
		s[n].found = 0;
		s[n].from = ctx->kb;
		literals_of(&s[n]);
		if (!s[n].nlit && compile_one(&s[n], msg, sizeof msg) < 0) {
			gd_diag_add(ctx, GD_DIAG_WARN, "kb signatures",
				    "%s: bad regex: %s; skipped", k->id, msg);
			continue;
		}
		n++;
	}
	return n;
}

/* The whole matched line is what the user needs to see (it names the
 * target, the library, the device); a line too long for text keeps its
 * part from the match on. Leading blanks are dropped. */
static int record(struct gd_explain_result *r, struct sig *s, unsigned long ln,
		  const char *line, const regmatch_t *pm)
{
	struct gd_explain_match *mt = gd_vec_push(&r->m);
	size_t n = strlen(line), from = 0;

	if (!mt)
		return -ENOMEM;
	mt->sig = s->kb;
	mt->seq = r->m.n - 1;
	gd_strlcpy(mt->id, s->kb.id, sizeof mt->id);
	gd_kb_source_urls(s->from, s->kb.sources, mt->urls, sizeof mt->urls);
	mt->line = ln;
	while (from < (size_t)pm->rm_so &&
	       (line[from] == ' ' || line[from] == '\t'))
		from++;
	if (n - from >= sizeof mt->text)
		from = (size_t)pm->rm_so;
	if (gd_strlcpy(mt->text, line + from, sizeof mt->text) >=
	    sizeof mt->text) /* the quoted line goes on: say so */
		gd_mark_cut(mt->text, sizeof mt->text);
	gd_sanitize(mt->text);
	mt->detail[0] = '\0';
	mt->detail_cause = NULL;
	mt->ruled_out = NULL;
	/* The kb says which lines carry numbers worth reading (decode). */
	if (s->kb.decode == GD_KB_DECODE_OOM) {
		gd_explain_oom(line, mt->detail, sizeof mt->detail,
			       &mt->detail_cause);
		mt->ruled_out = gd_explain_oom_ruled_out(line);
	} else if (s->kb.decode == GD_KB_DECODE_XID)
		gd_explain_xid(line, mt->detail, sizeof mt->detail,
			       &mt->detail_cause);
	s->found = 1;
	return 0;
}

/* Match one line [ls, end) (CR stripped) against s, on a NUL-terminated
 * copy so that the log itself is never written to. */
/* The line [ls, end) through s's regex, from a copy of at most cap - 1
 * bytes: a longer line (a JSON log on one line) is looked at in a window
 * that holds at, where its literal starts, rather than cut at its head,
 * which would miss a match past the first cap bytes without a word. */
static int try_line(struct sig *s, const char *ls, const char *at,
		    const char *end, regmatch_t *pm, char *copy, size_t cap)
{
	size_t n;

	if ((size_t)(end - ls) >= cap && (size_t)(at - ls) > cap / 4)
		ls = at - cap / 4;
	n = (size_t)(end - ls);
	if (n && ls[n - 1] == '\r')
		n--;
	if (n >= cap)
		n = cap - 1;
	memcpy(copy, ls, n);
	copy[n] = '\0';
	if (!ready(s) || regexec(&s->re, copy, 1, pm, 0) != 0)
		return 0;
	return !s->kb.unless || regexec(&s->unless, copy, 0, NULL, 0) != 0;
}

/* The literal index: every literal's first 4 bytes hashed into a bitmap,
 * so one pass over the log finds each place a literal may start. */
#define GD_LIT_BITS 16
struct lit_ent {
	unsigned hash;
	size_t sig, len;
	const char *s;
};
struct scan {
	struct sig *sigs;
	size_t ns;
	const char *buf;
	size_t len;
	struct gd_explain_result *r;
	int in_tail;
	char *copy;
	size_t cap;
	unsigned long ln;  /* line number of nl_at */
	const char *nl_at; /* newlines before here are counted */
};

static unsigned hash4(const char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return (uint32_t)(v * 2654435761u) >> (32 - GD_LIT_BITS);
}

static unsigned long line_at(struct scan *sc, const char *at)
{
	const char *p = sc->nl_at;

	while ((p = memchr(p, '\n', (size_t)(at - p)))) {
		sc->ln++;
		p++;
	}
	sc->nl_at = at;
	return sc->ln;
}

static int try_sig(struct scan *sc, size_t i, const char *at)
{
	const char *ls = at, *end;
	regmatch_t pm;

	while (ls > sc->buf && ls[-1] != '\n')
		ls--;
	end = memchr(at, '\n', (size_t)(sc->buf + sc->len - at));
	if (!end)
		end = sc->buf + sc->len;
	if (!try_line(&sc->sigs[i], ls, at, end, &pm, sc->copy, sc->cap))
		return 0;
	if (record(sc->r, &sc->sigs[i], line_at(sc, ls), sc->copy, &pm) < 0)
		return -ENOMEM;
	sc->r->m.v[sc->r->m.n - 1].in_tail = sc->in_tail;
	return 1;
}

/* By hash, then signature: the entries one bitmap hit can match are
 * adjacent, in signature order (as they were built). */
static int cmp_lit(const void *a, const void *b)
{
	const struct lit_ent *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return x->sig < y->sig ? -1 : x->sig > y->sig;
}

/* One pass: at each place a literal starts, run its signature's regex on
 * that line (once per signature: the first matching line counts). */
static int scan_literals(struct scan *sc, struct lit_ent *e, size_t ne)
{
	unsigned char *bits = calloc(1, (1u << GD_LIT_BITS) / 8);
	size_t left = 0;

	if (!bits)
		return -ENOMEM;
	for (size_t k = 0; k < ne; k++) {
		bits[e[k].hash >> 3] |= (unsigned char)(1u << (e[k].hash & 7));
		left += k == 0 || e[k].sig != e[k - 1].sig;
	}
	if (ne)
		qsort(e, ne, sizeof *e, cmp_lit);
	for (size_t i = 0; left && i + 4 <= sc->len; i++) {
		unsigned h = hash4(sc->buf + i);
		size_t lo = 0, hi = ne;

		if (!(bits[h >> 3] & (1u << (h & 7))))
			continue;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (e[mid].hash < h)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (size_t k = lo; k < ne && e[k].hash == h; k++) {
			int rc;

			if (sc->sigs[e[k].sig].found ||
			    e[k].len > sc->len - i ||
			    memcmp(sc->buf + i, e[k].s, e[k].len))
				continue;
			rc = try_sig(sc, e[k].sig, sc->buf + i);
			if (rc < 0) {
				free(bits);
				return rc;
			}
			left -= (size_t)rc;
		}
	}
	free(bits);
	return 0;
}

/* Signatures without literals: every line through the regex. */
static int scan_plain(struct scan *sc)
{
	for (size_t i = 0; i < sc->ns; i++) {
		const char *p = sc->buf, *end = sc->buf + sc->len;

		if (sc->sigs[i].nlit || sc->sigs[i].found)
			continue;
		sc->ln = 1; /* line_at counts forward from the start */
		sc->nl_at = sc->buf;
		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			int rc = try_sig(sc, i, p);

			if (rc)
				return rc < 0 ? rc : 0;
			p = nl ? nl + 1 : end;
		}
	}
	return 0;
}

static int cmp_pos(const void *a, const void *b)
{
	const struct gd_explain_match *x = a, *y = b;

	if (x->sig.minor != y->sig.minor) /* a recoverable warning says less */
		return x->sig.minor - y->sig.minor;
	if (x->in_tail != y->in_tail)
		return x->in_tail - y->in_tail;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq; /* qsort is not stable */
}

/* Each signature's first matching line (sigs_scan_parts orders them). */
static int scan_lines(struct sig *sigs, size_t ns, char *buf, size_t len,
		      struct gd_explain_result *r, int in_tail)
{
	struct scan sc = {sigs,	   ns,	 buf,	    len, r,
			  in_tail, NULL, 64 * 1024, 1,	 buf};
	size_t ne = 0;
	struct lit_ent *e = calloc(ns * GD_SIG_MAX_LIT + 1, sizeof *e);
	int rc;

	sc.copy = malloc(sc.cap);
	if (!e || !sc.copy) {
		free(e);
		free(sc.copy);
		return -ENOMEM;
	}
	for (const char *p = buf; p < buf + len; r->lines++) {
		p = memchr(p, '\n', (size_t)(buf + len - p));
		p = p ? p + 1 : buf + len;
	}
	for (size_t i = 0; i < ns; i++)
		for (size_t k = 0; !sigs[i].found && k < sigs[i].nlit; k++)
			e[ne++] =
			    (struct lit_ent){hash4(sigs[i].lit[k]), i,
					     sigs[i].litlen[k], sigs[i].lit[k]};
	rc = scan_literals(&sc, e, ne);
	if (!rc)
		rc = scan_plain(&sc);
	free(e);
	free(sc.copy);
	return rc;
}

struct gd_explain_sigs {
	const gd_kb *kb; /* the signatures' strings, their sources' URLs */
	struct gd_errcode_index *codes; /* the runtimes' error codes by name */
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
	s->codes = gd_errcode_index_new();
	if (!s->v || !s->codes) {
		free(s->v);
		free(s->codes);
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
	for (size_t i = 0; i < s->n; i++) {
		if (s->v[i].state != 1)
			continue;
		regfree(&s->v[i].re);
		if (s->v[i].kb.unless)
			regfree(&s->v[i].unless);
	}
	free(s->codes);
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
	rc = scan_lines(s->v, s->n, buf, len, r, 0);
	if (!rc && (gd_explain_codes_scan(s->codes, buf, len, 0, r) < 0 ||
		    gd_explain_texts_scan(buf, len, 0, r) < 0))
		rc = -ENOMEM;
	if (!rc && tail) {
		char *nl = memchr(tail, '\n', tail_len);
		size_t cut = nl ? (size_t)(nl - tail) + 1 : tail_len;

		rc = scan_lines(s->v, s->n, tail + cut, tail_len - cut, r, 1);
		if (!rc && (gd_explain_codes_scan(s->codes, tail + cut,
						  tail_len - cut, 1, r) < 0 ||
			    gd_explain_texts_scan(tail + cut, tail_len - cut, 1,
						  r) < 0))
			rc = -ENOMEM;
	}
	/* log order (a failure that came first usually caused those after
	 * it), head before tail, "minor" signatures (often a warning the
	 * program gets past) last. No matches: r->m.v may be NULL. */
	if (!rc && r->m.n > 1)
		qsort(r->m.v, r->m.n, sizeof *r->m.v, cmp_pos);
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

	s = gd_explain_sigs_new(ctx); /* no kb: the error codes alone */
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

int gd_explain_sigs_scan_log(struct gd_explain_sigs *s,
			     struct gd_explain_log *log,
			     const struct gd_machine *here,
			     struct gd_explain_result *r)
{
	r->skipped = log->skipped;
	r->total = log->total;
	r->truncated = log->skipped > 0;
	int rc = sigs_scan_parts(s, log->head, log->head_len, log->tail,
				 log->tail_len, r);

	if (!rc)
		gd_explain_evidence(s->kb, log->head, log->head_len, log->tail,
				    log->tail_len, here, r);
	return rc;
}

int gd_explain_scan_log(gd_ctx *ctx, struct gd_explain_log *log,
			const struct gd_machine *here,
			struct gd_explain_result *r)
{
	struct gd_explain_sigs *s = gd_explain_sigs_new(ctx);
	int rc;

	if (!s)
		return -ENOMEM;
	rc = gd_explain_sigs_scan_log(s, log, here, r);
	gd_explain_sigs_free(s);
	return rc;
}

void gd_explain_result_free(struct gd_explain_result *r)
{
	gd_vec_free(&r->m);
	gd_vec_free(&r->codes);
	memset(r, 0, sizeof *r);
}
