/* Facts carry their status (docs/style.md habit 4): a value is known, unknown
 * with the reason, or failed with the error and where it came from. The
 * renderers print the reason where the value would be. */
#ifndef GD_FACTS_H
#define GD_FACTS_H

#include <stdint.h>

enum gd_fact_state {
	GD_UNKNOWN = 0, /* not found / not applicable: why says which */
	GD_KNOWN = 1,
	GD_FAILED = 2, /* reading it failed: why holds the error */
};

typedef struct gd_num {
	enum gd_fact_state st;
	uint64_t v;
	char why[128];
	char src[96]; /* file or source it came from, may be empty */
} gd_num;

typedef struct gd_text {
	enum gd_fact_state st;
	char v[160];
	char why[128];
	char src[96];
} gd_text;

void gd_num_set(gd_num *f, uint64_t v, const char *src);
void gd_num_unknown(gd_num *f, enum gd_fact_state st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void gd_text_set(gd_text *f, const char *v, const char *src);
void gd_text_unknown(gd_text *f, enum gd_fact_state st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#define gd_known(f) ((f)->st == GD_KNOWN)

#endif
