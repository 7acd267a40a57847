/* A one-screen test harness (sqlite/redis style): CHECK macros count and
 * print failures with file:line; main returns t_done(). */
#ifndef GD_T_H
#define GD_T_H

#include <stdio.h>
#include <string.h>

static int t_fail, t_pass;

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (cond) {                                                    \
			t_pass++;                                              \
		} else {                                                       \
			t_fail++;                                              \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, \
				__LINE__, #cond);                              \
		}                                                              \
	} while (0)

#define CHECK_STR(got, want)                                                   \
	do {                                                                   \
		const char *g_ = (got), *w_ = (want);                          \
		if (g_ && w_ && strcmp(g_, w_) == 0) {                         \
			t_pass++;                                              \
		} else {                                                       \
			t_fail++;                                              \
			fprintf(stderr,                                        \
				"%s:%d: %s: got \"%s\", want \"%s\"\n",        \
				__FILE__, __LINE__, #got, g_ ? g_ : "(null)",  \
				w_ ? w_ : "(null)");                           \
		}                                                              \
	} while (0)

#define CHECK_INT(got, want)                                                   \
	do {                                                                   \
		long long g_ = (long long)(got), w_ = (long long)(want);       \
		if (g_ == w_) {                                                \
			t_pass++;                                              \
		} else {                                                       \
			t_fail++;                                              \
			fprintf(stderr, "%s:%d: %s: got %lld, want %lld\n",    \
				__FILE__, __LINE__, #got, g_, w_);             \
		}                                                              \
	} while (0)

/* A line decoder of explain (gd_explain_xid, gd_explain_oom): its text
 * starts with start, and it names cause (a kb cause code; NULL: none). */
typedef int (*t_line_decoder)(const char *line, char *out, size_t cap,
			      const char **cause);

static inline void t_decoded(t_line_decoder f, const char *line,
			     const char *start, const char *cause)
{
	char out[320];
	const char *got = "unset";
	int text_ok, cause_ok;

	f(line, out, sizeof out, &got);
	text_ok = !strncmp(out, start, strlen(start));
	cause_ok = cause ? got && !strcmp(got, cause) : got == NULL;
	if (!text_ok || !cause_ok)
		fprintf(stderr, "%.60s...: got '%s' (%s), want '%s...' (%s)\n",
			line, out, got ? got : "none", start,
			cause ? cause : "none");
	CHECK(text_ok && cause_ok);
}

static inline int t_done(const char *name)
{
	printf("%s: %d checks passed, %d failed\n", name, t_pass, t_fail);
	return t_fail ? 1 : 0;
}

#endif
