/* Small helpers shared by every layer: growable arrays, bounded strings,
 * number parsing. No I/O, no global state. */
#ifndef GD_UTIL_H
#define GD_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* A growable array of T: declare with GD_VEC(T) name; push with gd_vec_push. */
#define GD_VEC(T)                                                              \
	struct {                                                               \
		T *v;                                                          \
		size_t n, cap;                                                 \
	}

/* Returns a zeroed new slot at the end, or NULL when out of memory. */
void *gd_vec_push_(void **v, size_t *n, size_t *cap, size_t elsize);
#define gd_vec_push(vec)                                                       \
	gd_vec_push_((void **)&(vec)->v, &(vec)->n, &(vec)->cap,               \
		     sizeof *(vec)->v)
#define gd_vec_free(vec)                                                       \
	do {                                                                   \
		free((vec)->v);                                                \
		(vec)->v = NULL;                                               \
		(vec)->n = (vec)->cap = 0;                                     \
	} while (0)

/* strlcpy semantics: always terminates, returns strlen(src). */
size_t gd_strlcpy(char *dst, const char *src, size_t cap);
/* snprintf into dst, always terminated. Returns 0 when the whole text
 * fit, -ENAMETOOLONG when it was cut to cap - 1 bytes (-EINVAL: a format
 * error, dst ""). Where the text comes from outside (paths, names, file
 * contents), a cut must not pass silently: check the result, hold the
 * text on the heap, or mark the cut (gd_mark_cut). */
int gd_fmt(char *dst, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int gd_vfmt(char *dst, size_t cap, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
/* Ends dst (a text cut to fit cap) with "...", on a UTF-8 character
 * boundary, so a reader sees that something is missing. */
void gd_mark_cut(char *dst, size_t cap);
/* Strip leading and trailing ASCII whitespace in place; returns s. */
char *gd_trim(char *s);
/* Replace bytes that are not printable ASCII or UTF-8 continuation-safe with
 * '?', so hostile file content never reaches a terminal raw. */
void gd_sanitize(char *s);

/* Strict decimal / hex / auto-base parsers over a NUL-terminated token.
 * Return 0 on success, -1 on junk or overflow. */
int gd_parse_u64(const char *s, int base, uint64_t *out);
int gd_parse_u32(const char *s, int base, uint32_t *out);

int gd_streq(const char *a, const char *b);
int gd_startswith(const char *s, const char *prefix);
int gd_endswith(const char *s, const char *suffix);

/* read(2) until cap bytes or end of file, retrying on EINTR. Returns the
 * bytes read, or -errno. */
long gd_read_full(int fd, void *buf, size_t cap);

/* Monotonic seconds, for durations. */
double gd_now(void);

/* Compare dotted version strings numerically ("6.10" > "6.2"); non-digits
 * end a component. Returns <0, 0, >0. */
int gd_version_cmp(const char *a, const char *b);
#endif
