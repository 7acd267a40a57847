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

static inline int t_done(const char *name)
{
	printf("%s: %d checks passed, %d failed\n", name, t_pass, t_fail);
	return t_fail ? 1 : 0;
}

#endif
