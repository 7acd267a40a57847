/* A bound on what regcomp builds from a POSIX ERE, checked before a
 * pattern from outside (the kb, a command line) is compiled: compile such
 * patterns with gd_regcomp_bounded, never with regcomp directly. */
#ifndef GD_RE_COST_H
#define GD_RE_COST_H

#include <regex.h>
#include <stdint.h>

/* Patterns estimated above this are refused. The kb's largest signature
 * is far below it (tests/unit/test_kb.c checks the margin); glibc
 * needs about a kilobyte per node, so this caps a pattern near 16 MB. */
#define GD_RE_MAX_COST 16384

/* The number of nodes regcomp makes from re, counting every copy a
 * bounded repeat ("{m,n}", "+") makes of what it repeats; UINT64_MAX for
 * groups nested deeper than regcomp should be asked to recurse. */
uint64_t gd_re_cost(const char *re);

/* regcomp(rx, re, cflags) for a pattern that passes gd_re_cost: 0, the
 * error regcomp returns, or GD_RE_TOO_LARGE (rx untouched: no regfree). */
#define GD_RE_TOO_LARGE (-1)
int gd_regcomp_bounded(regex_t *rx, const char *re, int cflags);

#endif
