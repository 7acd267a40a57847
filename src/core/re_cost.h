/* A bound on what regcomp builds from a POSIX ERE, checked before a
 * pattern from outside (the kb, a command line) is compiled. */
#ifndef GD_RE_COST_H
#define GD_RE_COST_H

#include <stdint.h>

/* Patterns estimated above this are refused. The kb's largest signature
 * is far below it (tests/unit/test_re_cost.c checks the margin); glibc
 * needs about a kilobyte per node, so this caps a pattern near 16 MB. */
#define GD_RE_MAX_COST 16384

/* The number of nodes regcomp makes from re, counting every copy a
 * bounded repeat ("{m,n}", "+") makes of what it repeats; UINT64_MAX for
 * groups nested deeper than regcomp should be asked to recurse. */
uint64_t gd_re_cost(const char *re);

#endif
