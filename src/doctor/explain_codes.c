/* explain: the runtimes' error codes a log names (errcodes.h), in one pass
 * that tokenises identifiers and numbers and looks each identifier up in a
 * hash index, so the whole table costs about as much as one signature.
 *
 *  - by name: "cudaErrorNoKernelImageForDevice", "VK_ERROR_DEVICE_LOST",
 *    "rocblas_status_invalid_handle": always that code;
 *  - by number, after a word that names the type or the runtime: "CUDA
 *    error: 700", "cuda runtime error (2)", "hipError_t 98", "CUresult
 *    999", "VkResult -4";
 *  - by number after a generic word ("error code -5", "returned -1000"):
 *    the runtime is the one the same line names (a function such as
 *    clGetPlatformIDs, a word such as OpenCL), the nearest before the
 *    number, else the first after it; a negative number on a line that
 *    names none takes the runtime of the log when the log names only one.
 *    A positive number with no runtime on its line is not decoded: "exited
 *    with code 1" is not cudaErrorInvalidValue. */
#include <ctype.h>
#include <stdint.h>
#include <string.h>

#include "core/util.h"
#include "errcodes.h"
#include "explain.h"
#include "explain_words.h"

#define GD_PENDING_MAX 16 /* generic numbers waiting for their runtime */
#define GD_WORD_SLOTS 128
#define CTX_NONE (-1)
#define CTX_GENERIC (-2)

struct pending {
	long long v;
	unsigned long ln;
	const char *ls; /* its line */
};

struct cscan {
	const struct gd_errcode_index *x;
	struct gd_explain_result *r;
	const char *buf, *end, *ls; /* ls: the current line's start */
	unsigned long ln;
	int in_tail;
	int line_api; /* the last runtime the current line named */
	int ctx;      /* what the last word makes of a number after it */
	const char *ctx_end;
	const struct word *w1, *w2; /* the last two words, when known */
	const char *w1_end;
	int w1_api; /* the runtime of the last word when it is a function */
	int cl;	    /* OpenCL's api index */
	int oom;
	unsigned char slot[GD_WORD_SLOTS]; /* gd_code_words[] index + 1 */
	uint16_t pre[26 * 26]; /* first two letters -> lengths, a bit each */
	/* the first two bytes of every identifier on_ident may care about:
	 * codes' names, words in any case, API function prefixes */
	uint8_t start2[65536 / 8];
	size_t wlen[GD_N_WORDS];
	int wapi[GD_N_WORDS]; /* each word's runtime or -1 */
	unsigned seen;	      /* runtimes the log names, one bit each */
	struct pending p[GD_PENDING_MAX];
	size_t np;
	struct pending late[GD_PENDING_MAX]; /* for the log's runtime */
	size_t nlate;
};

/* Character classes without the locale's tables (the hot loop). */
static int is_alpha(unsigned char c)
{
	return (unsigned)((c | 32) - 'a') < 26;
}

static int is_digit(unsigned char c)
{
	return (unsigned)(c - '0') < 10;
}

static int is_ident(unsigned char c)
{
	return is_alpha(c) || is_digit(c) || c == '_';
}

static int api(const char *id)
{
	return gd_errcode_api_find(id);
}

int gd_explain_code_add(struct gd_explain_result *r, const struct gd_errcode *c,
			unsigned long ln, const char *ls, const char *end,
			int in_tail, int how)
{
	struct gd_explain_code *e;
	const char *nl;
	size_t n;

	if (gd_errcode_is_success(c))
		return 0;
	for (size_t i = 0; i < r->codes.n; i++)
		if (r->codes.v[i].c == c)
			return 0;
	if (r->codes.n >= GD_CODES_MAX)
		return 0;
	e = gd_vec_push(&r->codes);
	if (!e)
		return -1;
	e->c = c;
	e->line = ln;
	e->in_tail = in_tail;
	e->by_number = how;
	while (ls < end && (*ls == ' ' || *ls == '\t'))
		ls++;
	nl = memchr(ls, '\n', (size_t)(end - ls));
	n = (size_t)((nl ? nl : end) - ls);
	if (n >= sizeof e->text)
		n = sizeof e->text - 1;
	memcpy(e->text, ls, n);
	e->text[n] = '\0';
	gd_sanitize(e->text);
	return 0;
}

static int add(struct cscan *s, const struct gd_errcode *c, unsigned long ln,
	       const char *ls, int by_number)
{
	return gd_explain_code_add(s->r, c, ln, ls, s->end, s->in_tail,
				   by_number ? GD_CODE_BY_NUMBER
					     : GD_CODE_BY_NAME);
}

static unsigned word_hash(const char *s)
{
	unsigned h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h & (GD_WORD_SLOTS - 1);
}

static void words_index(struct cscan *s)
{
	for (size_t i = 0; i < gd_n_code_words; i++) {
		unsigned h = word_hash(gd_code_words[i].w);

		while (s->slot[h])
			h = (h + 1) & (GD_WORD_SLOTS - 1);
		s->slot[h] = (unsigned char)(i + 1);
		s->wlen[i] = strlen(gd_code_words[i].w);
		s->wapi[i] =
		    gd_code_words[i].id ? api(gd_code_words[i].id) : -1;
		s->pre[(gd_code_words[i].w[0] - 'a') * 26 +
		       gd_code_words[i].w[1] - 'a'] |=
		    (uint16_t)(1u << s->wlen[i]);
	}
}

static const struct word *word_find(const struct cscan *s, const char *lw,
				    size_t n)
{
	for (unsigned h = word_hash(lw); s->slot[h];
	     h = (h + 1) & (GD_WORD_SLOTS - 1))
		if (s->wlen[s->slot[h] - 1] == n &&
		    !memcmp(gd_code_words[s->slot[h] - 1].w, lw, n))
			return &gd_code_words[s->slot[h] - 1];
	return NULL;
}

/* What a number right after this word is: a code of one runtime
 * ("hipError_t 98", "CUDA error: 700", "cuda runtime error (2)", "CUDA
 * driver error 999", "clFinish returned -5"), generic ("error code -5"),
 * or nothing. */
static int context_of(const struct cscan *s, const struct word *wd)
{
	const struct word *w1 = s->w1, *w2 = s->w2;

	if (!wd)
		return CTX_NONE;
	if (wd->kind == W_TYPE)
		return s->wapi[wd - gd_code_words];
	if (wd->kind != W_GENERIC)
		return CTX_NONE;
	if (w1 && w1->kind == W_PRODUCT)
		return s->wapi[w1 - gd_code_words];
	if (w1 && w1->kind == W_ZERO && w2 && w2->kind == W_LEVEL)
		return api("ze"); /* "Level Zero error 0x78000001" */
	if (s->w1_api >= 0)
		return s->w1_api; /* "clFinish returned -5" */
	if (w1 && w1->kind == W_QUALIFIER && w2 && w2->kind == W_PRODUCT)
		return !strcmp(w1->w, "driver") && !strcmp(w2->id, "cudart")
			   ? api("cu")
			   : s->wapi[w2 - gd_code_words];
	return CTX_GENERIC;
}

static void resolve_pending(struct cscan *s, int a)
{
	for (size_t i = 0; i < s->np; i++) {
		const struct gd_errcode *c =
		    gd_errcode_by_value((unsigned)a, s->p[i].v);

		if (c && add(s, c, s->p[i].ln, s->p[i].ls, 1) < 0)
			s->oom = 1;
	}
	s->np = 0;
}

/* Cheap tests first: most words of a log are none of these. */
static const struct word *word_of(const struct cscan *s, const char *w,
				  size_t n)
{
	char lw[16];
	unsigned f = (unsigned)((w[0] | 32) - 'a');
	unsigned g = (unsigned)((w[1] | 32) - 'a');

	if (n < 2 || n >= sizeof lw || f >= 26 || g >= 26 ||
	    !(s->pre[f * 26 + g] & (1u << n)))
		return NULL;
	for (size_t i = 0; i < n; i++)
		lw[i] = (char)(w[i] | (is_alpha((unsigned char)w[i]) ? 32 : 0));
	lw[n] = '\0';
	return word_find(s, lw, n);
}

static void on_ident(struct cscan *s, const char *w, size_t n)
{
	const struct gd_errcode *c = NULL;
	const struct word *wd;
	int fam = -1;

	if (n >= 5 && n <= 80 && gd_errcode_maybe(s->x, w) &&
	    (c = gd_errcode_lookup(s->x, w, n))) {
		if (add(s, c, s->ln, s->ls, 0) < 0)
			s->oom = 1;
		fam = (int)c->api;
	}
	wd = word_of(s, w, n);
	if (fam < 0 && wd && wd->kind == W_PRODUCT)
		fam = s->wapi[wd - gd_code_words];
	if (fam < 0 && wd && wd->kind == W_ZERO && s->w1 &&
	    s->w1->kind == W_LEVEL && w - s->w1_end <= 2)
		fam = api("ze");
	if (fam < 0 && !wd) {
		const char *id = gd_code_function_api(w, n);

		fam = id ? api(id) : -1;
	}
	if (fam >= 0) {
		s->line_api = fam;
		s->seen |= 1u << fam;
		resolve_pending(s, fam);
	}
	s->ctx = wd ? context_of(s, wd) : CTX_NONE;
	s->ctx_end = w + n;
	/* "cuda runtime error": words only separated by blanks */
	s->w2 = s->w1_end && w - s->w1_end <= 2 ? s->w1 : NULL;
	s->w1 = wd;
	s->w1_api = wd ? -1 : fam;
	s->w1_end = w + n;
}

/* A number whose runtime the line names, before it or later on it. */
static void by_line(struct cscan *s, long long v)
{
	const struct gd_errcode *c;

	if (s->line_api >= 0) {
		c = gd_errcode_by_value((unsigned)s->line_api, v);
		if (c && add(s, c, s->ln, s->ls, 1) < 0)
			s->oom = 1;
	} else if (s->np < GD_PENDING_MAX) {
		s->p[s->np++] = (struct pending){v, s->ln, s->ls};
	}
}

static void on_number(struct cscan *s, const char *at, long long v)
{
	const struct gd_errcode *c;

	if (s->ctx == CTX_NONE || at - s->ctx_end > 4)
		return;
	for (const char *p = s->ctx_end; p < at; p++)
		if (*p != ' ' && *p != '\t' && *p != ':' && *p != '=' &&
		    *p != '(' && *p != '#' && *p != '[')
			return;
	if (s->ctx >= 0) {
		c = gd_errcode_by_value((unsigned)s->ctx, v);
		if (c && add(s, c, s->ln, s->ls, 1) < 0)
			s->oom = 1;
	} else {
		by_line(s, v);
	}
	s->ctx = CTX_NONE;
}

/* A negative code printed as an unsigned 32-bit number ("%u" of -9 is
 * "Failed to create Vulkan instance 4294967287"): number() reads it as the
 * negative number, and since no one numbers anything else up there, no word
 * before it is needed. */
static int wrapped_at(const char *p, const char *end)
{
	return end - p >= 10 && !memcmp(p, "42949", 5);
}

/* Level Zero's results are 0x7XXXXXXX and printed in hex ("zeInit: 0x78000001",
 * "zeInit failed with 0x78000001"): a word before one is not needed, the
 * runtime the line (or the log) names decides. Nothing else is numbered up
 * there in hex with 8 digits. */
static int ze_hex_at(const char *p, const char *end)
{
	if (end - p < 10 || p[0] != '0' || (p[1] | 32) != 'x' || p[2] != '7')
		return 0;
	for (int i = 3; i < 10; i++)
		if (!isxdigit((unsigned char)p[i]))
			return 0;
	return 1;
}

static int late_ok(long long v)
{
	return v < 0 || (v >= 0x70000000LL && v <= 0x7fffffffLL);
}

static void end_line(struct cscan *s)
{
	for (size_t i = 0; i < s->np; i++)
		if (late_ok(s->p[i].v) && s->nlate < GD_PENDING_MAX)
			s->late[s->nlate++] = s->p[i];
	s->np = 0;
	s->line_api = -1;
	s->ctx = CTX_NONE;
	s->w1 = s->w2 = NULL;
	s->w1_end = NULL;
	s->w1_api = -1;
}

/* A decimal or 0x number at p, not part of a word or a version. */
static const char *number(const char *p, const char *end, long long *v)
{
	int neg = *p == '-', base = 10;
	unsigned long long x = 0;
	const char *q = p + neg;

	if (end - q > 2 && q[0] == '0' && (q[1] == 'x' || q[1] == 'X') &&
	    isxdigit((unsigned char)q[2])) {
		base = 16;
		q += 2;
	}
	for (; q < end && (base == 16 ? isxdigit((unsigned char)*q)
				      : isdigit((unsigned char)*q));
	     q++)
		if (x < (1ull << 40))
			x = x * (unsigned)base +
			    (unsigned)(isdigit((unsigned char)*q)
					   ? *q - '0'
					   : tolower((unsigned char)*q) - 'a' +
						 10);
	/* not a word, a version, a date or a time: "12.4", "04-01", "23:46" */
	if (q < end && (is_ident((unsigned char)*q) ||
			((*q == '.' || *q == '-' || *q == ':' || *q == '/') &&
			 q + 1 < end && is_digit((unsigned char)q[1]))))
		return NULL;
	if (base == 10 && q - (p + neg) > 1 && p[neg] == '0')
		return NULL; /* "04": codes are not printed with leading zeros
			      */
	*v = neg ? -(long long)x : (long long)x;
	if (!neg && x >= 0xFFFF0000ull && x <= 0xFFFFFFFFull)
		*v = (long long)x - 0x100000000LL; /* "%u" of a negative code */
	return q;
}

static unsigned key2(unsigned char a, unsigned char b)
{
	return (unsigned)a << 8 | b;
}

static void start2_set(struct cscan *s, unsigned k)
{
	s->start2[k >> 3] |= (uint8_t)(1u << (k & 7));
}

static int start2_has(const struct cscan *s, const char *w)
{
	unsigned k = key2((unsigned char)w[0], (unsigned char)w[1]);

	return s->start2[k >> 3] >> (k & 7) & 1;
}

static void start2_index(struct cscan *s)
{
	static const char *const fns[] = {"cu", "cl", "vk", "ze", "ur", "hi",
					  "hs", "ro", "mi", "nc", "nv"};

	for (unsigned i = 0; i < gd_errcode_n; i++)
		start2_set(s, key2((unsigned char)gd_errcodes[i].name[0],
				   (unsigned char)gd_errcodes[i].name[1]));
	for (size_t i = 0; i < gd_n_code_words; i++)
		for (unsigned c = 0; c < 4; c++)
			start2_set(s,
				   key2((unsigned char)(gd_code_words[i].w[0] ^
							(c & 1 ? 32 : 0)),
					(unsigned char)(gd_code_words[i].w[1] ^
							(c & 2 ? 32 : 0))));
	for (size_t i = 0; i < sizeof fns / sizeof *fns; i++)
		start2_set(s, key2((unsigned char)fns[i][0],
				   (unsigned char)fns[i][1]));
}

/* A cl_int name without its "CL_" on a line that names OpenCL, as
 * pyopencl prints them ("clGetPlatformIDs failed: PLATFORM_NOT_FOUND_KHR",
 * "clCreateContextFromType failed: DEVICE_NOT_FOUND"). */
static int cl_bare(struct cscan *s, const char *w, size_t n)
{
	char name[64];
	const struct gd_errcode *c;

	if (s->line_api != s->cl || n < 4 || n + 3 >= sizeof name)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isupper((unsigned char)w[i]) &&
		    !is_digit((unsigned char)w[i]) && w[i] != '_')
			return 0;
	memcpy(name, "CL_", 3);
	memcpy(name + 3, w, n);
	name[n + 3] = '\0';
	c = gd_errcode_lookup(s->x, name, n + 3);
	if (!c || (int)c->api != s->cl)
		return 0;
	if (add(s, c, s->ln, s->ls, 0) < 0)
		s->oom = 1;
	return 1;
}

/* An identifier none of the tables starts like: what on_ident would do
 * with a word it does not know. */
static void other_ident(struct cscan *s, const char *w, size_t n)
{
	s->ctx = CTX_NONE;
	s->ctx_end = w + n;
	s->w2 = s->w1_end && w - s->w1_end <= 2 ? s->w1 : NULL;
	s->w1 = NULL;
	s->w1_api = -1;
	s->w1_end = w + n;
}

/* Byte classes for the hot loop: one table load a byte instead of three
 * comparisons (bench/explain.sh: the scan is most of explain's time on a
 * log that names no code). Built from the same predicates. */
enum { C_ALPHA = 1, C_DIGIT = 2, C_NL = 4, C_MINUS = 8 };

static void classes(uint8_t cls[256])
{
	for (unsigned c = 0; c < 256; c++)
		cls[c] =
		    (uint8_t)((is_alpha((unsigned char)c) || c == '_' ? C_ALPHA
								      : 0) |
			      (is_digit((unsigned char)c) ? C_DIGIT : 0) |
			      (c == '\n' ? C_NL : 0) |
			      (c == '-' ? C_MINUS : 0));
}

static void scan_text(struct cscan *s)
{
	const char *p = s->buf, *end = s->end;
	uint8_t cls[256];

	classes(cls);
	while (p < end) {
		unsigned k = cls[(unsigned char)*p];

		if (!k) { /* blanks and punctuation: most of a log */
			p++;
			continue;
		}
		if (k & C_NL) {
			end_line(s);
			s->ln++;
			s->ls = ++p;
		} else if (k & C_ALPHA) {
			const char *w = p;

			while (p < end &&
			       cls[(unsigned char)*p] & (C_ALPHA | C_DIGIT))
				p++;
			size_t n = (size_t)(p - w);

			if (!cl_bare(s, w, n) && n >= 2 && start2_has(s, w))
				on_ident(s, w, n);
			else
				other_ident(s, w, n);
		} else if ((k & C_DIGIT) ||
			   (p + 1 < end &&
			    cls[(unsigned char)p[1]] & C_DIGIT)) {
			long long v;
			const char *q =
			    (s->ctx == CTX_NONE && !wrapped_at(p, end) &&
			     !ze_hex_at(p, end)) ||
				    (p > s->buf && p[-1] == '.')
				? NULL
				: number(p, end, &v);

			if (q && s->ctx != CTX_NONE)
				on_number(s, p, v);
			else if (q && late_ok(v)) /* wrapped_at, ze_hex_at */
				by_line(s, v);
			p = q ? q : p + 1;
			while (p < end &&
			       cls[(unsigned char)*p] & (C_ALPHA | C_DIGIT))
				p++;
		} else {
			p++; /* a '-' before no digit */
		}
	}
	end_line(s);
}

int gd_explain_codes_scan(const struct gd_errcode_index *x, const char *buf,
			  size_t len, int in_tail, struct gd_explain_result *r)
{
	struct cscan s;

	memset(&s, 0, sizeof s);
	s.x = x;
	s.r = r;
	s.buf = s.ls = buf;
	s.end = buf + len;
	s.ln = 1;
	s.in_tail = in_tail;
	s.line_api = -1;
	s.ctx = CTX_NONE;
	s.w1_api = -1;
	s.cl = api("cl");
	words_index(&s);
	start2_index(&s);
	scan_text(&s);
	/* negative numbers on lines naming no runtime: the log's one runtime */
	if (s.nlate && s.seen && !(s.seen & (s.seen - 1))) {
		int a = 0;

		while (!(s.seen & (1u << a)))
			a++;
		for (size_t i = 0; i < s.nlate; i++) {
			const struct gd_errcode *c =
			    gd_errcode_by_value((unsigned)a, s.late[i].v);

			if (c && add(&s, c, s.late[i].ln, s.late[i].ls, 1) < 0)
				return -1;
		}
	}
	return s.oom ? -1 : 0;
}
