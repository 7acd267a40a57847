/* How large a POSIX ERE grows once compiled. glibc's regcomp copies the
 * subtree under every bounded repeat: "(a{200}){200}" becomes 40 000 nodes
 * and nesting one more level runs a machine out of memory. A kb file or a
 * --expect pattern is text from outside, so its size is checked before
 * regcomp sees it. */
#include "core/re_cost.h"

#include <stdint.h>

/* Deeper nesting than this is refused outright: regcomp parses groups by
 * recursion, and no real pattern comes near it. */
#define GD_RE_MAX_DEPTH 32

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* One character, bracket expression or escape: a node of its own, and what
 * a repeat after it copies. */
static void piece(uint64_t *branch, uint64_t *last)
{
	*last = 1;
	*branch = sat_add(*branch, 1);
}

/* The end of a bracket expression that starts at s[0] == '['; "[]a]" and
 * "[^]a]" hold a literal ']', "[:alpha:]" inside is one piece. */
static const char *bracket_end(const char *s)
{
	const char *p = s + 1;

	if (*p == '^')
		p++;
	if (*p == ']')
		p++;
	for (; *p && *p != ']'; p++) {
		if (*p == '[' && (p[1] == ':' || p[1] == '=' || p[1] == '.')) {
			char c = p[1];
			const char *q = p + 2;

			while (*q && !(q[0] == c && q[1] == ']'))
				q++;
			if (!*q)
				return q;
			p = q + 1;
		}
	}
	return p;
}

/* Reads "{m}", "{m,}" or "{m,n}" at s; returns the copies regcomp makes
 * (n, or m + 1 for an open bound) and sets *end, or 0 when s is not an
 * interval (then '{' is an ordinary character). */
static uint64_t interval(const char *s, const char **end)
{
	uint64_t m = 0, n;
	const char *p = s + 1;

	/* glibc reads "{,n}" as "{0,n}". */
	if ((*p < '0' || *p > '9') && *p != ',')
		return 0;
	while (*p >= '0' && *p <= '9')
		m = sat_add(sat_mul(m, 10), (uint64_t)(*p++ - '0'));
	n = m;
	if (*p == ',') {
		p++;
		if (*p >= '0' && *p <= '9') {
			n = 0;
			while (*p >= '0' && *p <= '9')
				n = sat_add(sat_mul(n, 10),
					    (uint64_t)(*p++ - '0'));
		} else {
			n = sat_add(m, 1);
		}
	}
	if (*p != '}')
		return 0;
	*end = p + 1;
	return n > m ? n : m;
}

uint64_t gd_re_cost(const char *re)
{
	/* Per open group: the finished alternatives, the branch being read,
	 * and the last piece of that branch (what a repeat applies to). */
	uint64_t done[GD_RE_MAX_DEPTH + 1], branch[GD_RE_MAX_DEPTH + 1],
	    last[GD_RE_MAX_DEPTH + 1];
	int d = 0;
	const char *p = re;

	done[0] = branch[0] = last[0] = 0;
	while (p && *p) {
		const char *end = p + 1;
		uint64_t k;

		switch (*p) {
		case '(':
			if (++d > GD_RE_MAX_DEPTH)
				return UINT64_MAX;
			done[d] = branch[d] = last[d] = 0;
			break;
		case ')':
			if (d == 0) { /* unmatched: an ordinary character */
				piece(&branch[0], &last[0]);
				break;
			}
			k = sat_add(sat_add(done[d], branch[d]), 1);
			d--;
			last[d] = k;
			branch[d] = sat_add(branch[d], k);
			break;
		case '|':
			done[d] = sat_add(sat_add(done[d], branch[d]), 1);
			branch[d] = last[d] = 0;
			break;
		case '+':
			/* "a+" is compiled as "aa*". */
			branch[d] = sat_add(branch[d], sat_add(last[d], 1));
			last[d] = sat_mul(last[d], 2);
			break;
		case '*':
		case '?':
			branch[d] = sat_add(branch[d], 1);
			break;
		case '{':
			k = interval(p, &end);
			if (k) {
				branch[d] =
				    sat_add(branch[d], sat_mul(last[d], k - 1));
				last[d] = sat_mul(last[d], k);
				break;
			}
			end = p + 1; /* not an interval: a literal '{' */
			piece(&branch[d], &last[d]);
			break;
		case '[':
			end = bracket_end(p);
			if (*end)
				end++;
			piece(&branch[d], &last[d]);
			break;
		case '\\':
			if (p[1])
				end = p + 2;
			piece(&branch[d], &last[d]);
			break;
		default:
			piece(&branch[d], &last[d]);
			break;
		}
		p = end;
	}
	/* Groups left open: regcomp refuses the pattern; count them anyway. */
	while (d > 0) {
		uint64_t k = sat_add(done[d], branch[d]);

		d--;
		branch[d] = sat_add(branch[d], k);
	}
	return sat_add(done[0], branch[0]);
}

int gd_regcomp_bounded(regex_t *rx, const char *re, int cflags)
{
	if (gd_re_cost(re) > GD_RE_MAX_COST)
		return GD_RE_TOO_LARGE;
	return regcomp(rx, re, cflags);
}
