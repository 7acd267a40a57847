/* explain: the runtimes' own error texts. Programs print what
 * cudaGetErrorString, hipGetErrorString, ncclGetErrorString ... return
 * rather than the code's name ("CUDA error: an illegal memory access was
 * encountered", "HIP error: invalid device function"); the texts are the
 * runtimes' own, dumped from them (tools/gen_errtexts.py, errtexts_gen.c).
 * A text counts only right after ": ", ", " or "with error " on a line that
 * names its runtime before it, so "error: invalid argument" from any
 * program is not taken for CUDA's. */
#include <stdint.h>
#include <string.h>

#include "errcodes.h"
#include "explain.h"

#define NB 512 /* buckets, by the text's first four bytes */

struct tindex {
	uint16_t head[NB]; /* entry + 1, 0: empty */
	uint16_t next[1024];
	uint8_t len[1024];
	uint8_t
	    done[1024]; /* this text was decoded once: later ones add nothing */
};

struct tscan {
	struct tindex x;
	const char *buf, *end, *counted;
	unsigned long ln;
	int in_tail;
	struct gd_explain_result *r;
};

static unsigned bucket(const char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return (v * 2654435761u) >> 23; /* 9 bits */
}

static void index_build(struct tindex *x)
{
	unsigned n = gd_errtext_n < 1024 ? gd_errtext_n : 1024;

	memset(x->head, 0, sizeof x->head);
	for (unsigned i = n; i-- > 0;) {
		const char *t = gd_errtexts[i].text;
		size_t l = strlen(t);
		unsigned b;

		if (l < 4 || l > 255)
			continue;
		b = bucket(t);
		x->len[i] = (uint8_t)l;
		x->next[i] = x->head[b];
		x->head[b] = (uint16_t)(i + 1);
	}
}

/* p starts a word: no letter before it ("hip" is not in "chip"). */
static int word_at(const char *ls, const char *p)
{
	unsigned char b = p > ls ? (unsigned char)p[-1] : ' ';

	return !((b | 32) >= 'a' && (b | 32) <= 'z');
}

/* The first of words[] that [ls, q) holds at a word start, or NULL. */
static const char *named(const char *ls, const char *q,
			 const char *const *words)
{
	for (; *words; words++) {
		size_t n = strlen(*words);

		for (const char *p = ls; p + n <= q; p++) {
			p = memmem(p, (size_t)(q - p), *words, n);
			if (!p)
				break;
			if (word_at(ls, p))
				return *words;
		}
	}
	return NULL;
}

/* The runtimes the line names before the text, most specific first:
 * api ids of sources.txt, NULL-ended. */
static void apis_of(const char *ls, const char *q, const char **out)
{
	static const char *const blas[] = {"cuBLAS", "CUBLAS", "cublas", NULL};
	static const char *const nccl[] = {"NCCL", "nccl", NULL};
	static const char *const nvrtc[] = {"NVRTC", "nvrtc", NULL};
	static const char *const hip[] = {"HIP", "hip", "ROCm", "rocm", NULL};
	static const char *const cuda[] = {"CUDA", "cuda", "Cuda", NULL};
	int n = 0;

	if (named(ls, q, blas))
		out[n++] = "cublas";
	if (named(ls, q, nccl))
		out[n++] = "nccl";
	if (named(ls, q, nvrtc))
		out[n++] = "nvrtc";
	if (named(ls, q, hip))
		out[n++] = "hip";
	if (named(ls, q, cuda)) {
		out[n++] = "cudart";
		out[n++] = "cu";
	}
	out[n] = NULL;
}

static int boundary(const char *p, const char *end)
{
	unsigned char c = p < end ? (unsigned char)*p : '\n';

	return !((c | 32) >= 'a' && (c | 32) <= 'z') && !(c >= '0' && c <= '9');
}

/* The entry of api (any api: NULL) whose text is the longest found at q,
 * or -1. */
static int find(const struct tscan *s, const char *q, const char *api)
{
	int best = -1;
	size_t bl = 0;

	for (unsigned i = s->x.head[bucket(q)]; i; i = s->x.next[i - 1]) {
		const struct gd_errtext *t = &gd_errtexts[i - 1];
		size_t l = s->x.len[i - 1];

		if (l > bl && (size_t)(s->end - q) >= l &&
		    (!api || !strcmp(t->api, api)) && !memcmp(q, t->text, l) &&
		    boundary(q + l, s->end)) {
			best = (int)i - 1;
			bl = l;
		}
	}
	return best;
}

static int at(struct tscan *s, const char *q)
{
	const char *ls = q, *apis[8];
	const struct gd_errcode *c;
	int e = -1, any;

	/* most ": " are followed by no runtime's text: that first; a text
	 * decoded once is not decoded again (a log repeats its error) */
	if (s->end - q < 4 || !s->x.head[bucket(q)] ||
	    (any = find(s, q, NULL)) < 0 || s->x.done[any])
		return 0;
	while (ls > s->buf && ls[-1] != '\n')
		ls--;
	apis_of(ls, q, apis);
	for (int i = 0; apis[i] && e < 0; i++)
		e = find(s, q, apis[i]);
	if (e < 0)
		return 0;
	c = gd_errcode_by_value(
	    (unsigned)gd_errcode_api_find(gd_errtexts[e].api),
	    gd_errtexts[e].value);
	if (!c)
		return 0;
	s->x.done[any] = s->x.done[e] = 1;
	for (const char *p = s->counted;
	     (p = memchr(p, '\n', (size_t)(ls - p))) != NULL; p++)
		s->ln++;
	s->counted = ls;
	return gd_explain_code_add(s->r, c, s->ln, ls, s->end, s->in_tail,
				   GD_CODE_BY_TEXT);
}

int gd_explain_texts_scan(const char *buf, size_t len, int in_tail,
			  struct gd_explain_result *r)
{
	static const char with[] = "with error ";
	struct tscan s;
	const char *end = buf + len;

	memset(&s, 0, sizeof s);
	index_build(&s.x);
	s.buf = s.counted = buf;
	s.end = end;
	s.ln = 1;
	s.in_tail = in_tail;
	s.r = r;
	/* ": TEXT", and ", TEXT" (PyTorch's "NCCL error in: FILE:LINE,
	 * unhandled system error ...") */
	for (int k = 0; k < 2; k++) {
		for (const char *p = buf;
		     (p = memchr(p, k ? ',' : ':', (size_t)(end - p)));) {
			if (++p < end && *p == ' ' && at(&s, p + 1) < 0)
				return -1;
		}
		s.counted = buf;
		s.ln = 1;
	}
	for (const char *p = buf;
	     (p = memmem(p, (size_t)(end - p), with, sizeof with - 1));) {
		p += sizeof with - 1;
		if (at(&s, p) < 0)
			return -1;
	}
	return 0;
}
