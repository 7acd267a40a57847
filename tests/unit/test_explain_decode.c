/* explain's input decoding (D6, D13 of the reliability findings): every
 * real log in tests/fixtures/logs/ is rewritten as Windows and terminals
 * write logs (UTF-16LE with and without BOM as PowerShell's `>` and
 * Out-File do, UTF-16BE with BOM, CRLF, ANSI colour, tqdm-style '\r'
 * redraws, a NUL run before it as left by logrotate copytruncate) and
 * read back through gd_explain_read_log: its own signature must still
 * match, on the same text. Plus the decoder on hand-made edge cases. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "doctor/explain.h"
#include "kb/kb.h"
#include "t.h"

struct mbuf {
	char *b;
	size_t n, cap;
};

static void put(struct mbuf *m, const void *p, size_t n)
{
	if (m->n + n > m->cap) {
		m->cap = (m->n + n) * 2 + 64;
		m->b = realloc(m->b, m->cap);
	}
	memcpy(m->b + m->n, p, n);
	m->n += n;
}

enum form { F_LE_BOM, F_LE, F_BE_BOM, F_CRLF, F_ANSI, F_CR, F_NUL, F_N };
static const char *const form_name[F_N] = {
    "UTF-16LE+BOM", "UTF-16LE",	  "UTF-16BE+BOM", "CRLF",
    "ANSI colour",  "CR redraws", "NUL run"};

/* The ASCII/UTF-8 text in the given form. UTF-16 forms take UTF-8 input
 * code point by code point (the fixtures are ASCII but for a few quotes). */
static void encode(struct mbuf *m, const char *t, size_t n, enum form f)
{
	if (f == F_NUL) {
		static const char z[4096];

		put(m, "loading model\n", 14);
		put(m, z, sizeof z);
	}
	if (f == F_LE_BOM)
		put(m, "\xff\xfe", 2);
	if (f == F_BE_BOM)
		put(m, "\xfe\xff", 2);
	if (f == F_CR)
		put(m, "  5%|#   |\r 50%|####|\r100%|####|\r", 33);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)t[i];
		unsigned u = c;
		int extra = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;

		if (f > F_BE_BOM) {
			if (f == F_CRLF && c == '\n')
				put(m, "\r", 1);
			if (f == F_ANSI && (i == 0 || t[i - 1] == '\n'))
				put(m, "\033[1;31m", 7);
			if (f == F_ANSI && c == '\n')
				put(m, "\033[0m\033]0;title\007", 15);
			put(m, t + i, 1);
			continue;
		}
		if (extra) { /* decode one UTF-8 sequence */
			u = c & (0x3f >> extra);
			for (int k = 0; k < extra && i + 1 < n; k++)
				u = u << 6 | ((unsigned char)t[++i] & 0x3f);
		}
		if (u >= 0x10000) {
			unsigned hi = 0xd800 + ((u - 0x10000) >> 10);
			unsigned lo = 0xdc00 + ((u - 0x10000) & 0x3ff);
			unsigned char s[4] = {
			    (unsigned char)hi, (unsigned char)(hi >> 8),
			    (unsigned char)lo, (unsigned char)(lo >> 8)};
			if (f == F_BE_BOM) {
				unsigned char be[4] = {s[1], s[0], s[3], s[2]};
				put(m, be, 4);
			} else {
				put(m, s, 4);
			}
			continue;
		}
		unsigned char s[2] = {(unsigned char)u,
				      (unsigned char)(u >> 8)};
		unsigned char be[2] = {s[1], s[0]};
		put(m, f == F_BE_BOM ? be : s, 2);
	}
}

static char *read_all(const char *path, size_t *n)
{
	struct mbuf m = {0};
	char buf[65536];
	ssize_t k;
	int fd = open(path, O_RDONLY);

	while (fd >= 0 && (k = read(fd, buf, sizeof buf)) > 0)
		put(&m, buf, (size_t)k);
	if (fd >= 0)
		close(fd);
	*n = m.n;
	return m.b;
}

static int matches(struct gd_explain_sigs *s, const char *id,
		   const struct mbuf *m)
{
	char path[] = "/tmp/gd-test-decode-XXXXXX";
	struct gd_explain_log log;
	struct gd_explain_result r;
	int fd = mkstemp(path), hit = 0;

	if (fd < 0)
		return 0;
	unlink(path);
	if (write(fd, m->b, m->n) != (ssize_t)m->n)
		return close(fd), 0;
	lseek(fd, 0, SEEK_SET);
	memset(&r, 0, sizeof r);
	if (gd_explain_read_log(fd, GD_EXPLAIN_HEAD_BYTES,
				GD_EXPLAIN_TAIL_BYTES, &log) == 0) {
		if (gd_explain_sigs_scan_log(s, &log, NULL, &r) == 0)
			for (size_t i = 0; i < r.m.n; i++)
				hit |= !strcmp(r.m.v[i].id, id);
		gd_explain_log_free(&log);
	}
	gd_explain_result_free(&r);
	close(fd);
	return hit;
}

static void test_every_log_every_form(gd_ctx *ctx)
{
	const char *src = getenv("GD_SRCDIR");
	/* compiled once: 7 forms of ~500 logs each */
	struct gd_explain_sigs *s = gd_explain_sigs_new(ctx);
	struct gd_kb_signature sg;

	if (!s) {
		t_fail++;
		fprintf(stderr, "the kb's signatures do not compile\n");
		return;
	}

	for (size_t i = 0; i < gd_kb_signature_count(ctx->kb); i++) {
		const char *id;
		char path[1024];
		size_t n;
		char *t;

		if (gd_kb_signature_at(ctx->kb, i, &sg) < 0 || !sg.id)
			continue;
		id = sg.id;
		gd_fmt(path, sizeof path, "%s/tests/fixtures/logs/%s.txt",
		       src ? src : "..", id);
		t = read_all(path, &n);
		if (!t)
			continue; /* test_explain reports missing fixtures */
		for (int f = 0; f < F_N; f++) {
			struct mbuf m = {0};

			encode(&m, t, n, (enum form)f);
			if (!matches(s, id, &m)) {
				t_fail++;
				fprintf(stderr,
					"%s: not found in its log as %s\n", id,
					form_name[f]);
			} else {
				t_pass++;
			}
			free(m.b);
		}
		free(t);
	}
	gd_explain_sigs_free(s);
}

static void dec(const char *in, size_t n, const char *want)
{
	size_t len;
	char *out = gd_explain_decode(in, n, GD_ENC_DETECT, &len);

	CHECK(out != NULL);
	if (out) {
		CHECK_STR(out, want);
		CHECK_INT(len, strlen(want));
	}
	free(out);
}

static void test_edges(void)
{
	size_t bom;

	dec("a\r\nb\rc\n", 7, "a\nb\nc\n");
	dec("a\r\r\nb", 5, "a\nb");
	dec("x\0\0\0y\n\0\0z", 9, "x\ny\nz");
	dec("\0\0\0abc", 6, "\nabc"); /* a break: the line after starts whole */
	dec("\033[31mred\033[0m \033[?25lok\033(B\n", 25, "red ok\n");
	dec("\033]0;title\033\\t\n", 14, "t\n");
	dec("\xef\xbb\xbfutf8", 7, "utf8");
	dec("\xff\xfe"
	    "a\0\n\0",
	    6, "a\n");
	/* U+00E9, U+4E2D (3 UTF-8 bytes from 2), U+1F600 by a surrogate pair,
	 * a lone surrogate -> U+FFFD, an odd last byte dropped */
	dec("\xff\xfe\xe9\0\x2d\x4e\x3d\xd8\x00\xde\x00\xd8"
	    "a\0"
	    "b",
	    15,
	    "\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80\xef\xbf\xbd"
	    "a");
	dec("\xfe\xff\0h\0i", 6, "hi");
	CHECK_INT(gd_explain_detect("h\0i\0!\0\n\0", 8, &bom), GD_ENC_UTF16LE);
	CHECK_INT(bom, 0);
	/* NUL runs in a UTF-8 log do not make it UTF-16 */
	CHECK_INT(gd_explain_detect("ab\0\0\0\0\0\0\0\0cd", 12, &bom),
		  GD_ENC_UTF8);
	CHECK_INT(gd_explain_detect("", 0, &bom), GD_ENC_UTF8);
	dec("", 0, "");
}

int main(void)
{
	char *env[] = {NULL};
	gd_ctx ctx;

	gd_ctx_init(&ctx, "/", env);
	ctx.kb = gd_kb_load_embedded();
	CHECK(ctx.kb != NULL && gd_kb_signature_count(ctx.kb) > 0);
	test_edges();
	if (ctx.kb)
		test_every_log_every_form(&ctx);
	gd_kb_free(ctx.kb);
	gd_ctx_free(&ctx);
	return t_done("test_explain_decode");
}
