#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void *gd_vec_push_(void **v, size_t *n, size_t *cap, size_t elsize)
{
	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 8;
		void *nv;

		if (ncap > SIZE_MAX / elsize)
			return NULL;
		nv = realloc(*v, ncap * elsize);
		if (!nv)
			return NULL;
		*v = nv;
		*cap = ncap;
	}
	{
		char *slot = (char *)*v + (*n) * elsize;

		memset(slot, 0, elsize);
		(*n)++;
		return slot;
	}
}

size_t gd_strlcpy(char *dst, const char *src, size_t cap)
{
	size_t len = src ? strlen(src) : 0;

	if (cap) {
		size_t k = len < cap - 1 ? len : cap - 1;

		if (k)
			memcpy(dst, src, k);
		dst[k] = '\0';
	}
	return len;
}

int gd_vfmt(char *dst, size_t cap, const char *fmt, va_list ap)
{
	int n;

	if (!cap)
		return -ENAMETOOLONG;
	n = vsnprintf(dst, cap, fmt, ap);
	if (n < 0) {
		dst[0] = '\0';
		return -EINVAL;
	}
	return (size_t)n >= cap ? -ENAMETOOLONG : 0;
}

int gd_fmt(char *dst, size_t cap, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = gd_vfmt(dst, cap, fmt, ap);
	va_end(ap);
	return rc;
}

void gd_mark_cut(char *dst, size_t cap)
{
	size_t n = strnlen(dst, cap);

	if (cap < 4)
		return;
	if (n > cap - 4)
		n = cap - 4;
	/* not inside a UTF-8 sequence: back over continuation bytes */
	while (n && ((unsigned char)dst[n] & 0xC0) == 0x80)
		n--;
	memcpy(dst + n, "...", 4);
}

char *gd_trim(char *s)
{
	char *e;

	while (*s && isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

void gd_sanitize(char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			*s = '?';
	}
}

int gd_parse_u64(const char *s, int base, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-' || *s == '+' || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno || end == s || *end)
		return -1;
	*out = v;
	return 0;
}

int gd_parse_u32(const char *s, int base, uint32_t *out)
{
	uint64_t v;

	if (gd_parse_u64(s, base, &v) || v > UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int gd_streq(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

int gd_startswith(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

int gd_endswith(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && memcmp(s + a - b, suffix, b) == 0;
}

long gd_read_full(int fd, void *buf, size_t cap)
{
	size_t got = 0;

	while (got < cap) {
		ssize_t k = read(fd, (char *)buf + got, cap - got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -errno;
		if (k == 0)
			break;
		got += (size_t)k;
	}
	return (long)got;
}

double gd_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int gd_version_cmp(const char *a, const char *b)
{
	while (*a || *b) {
		unsigned long x = 0, y = 0;

		while (*a >= '0' && *a <= '9')
			x = x * 10 + (unsigned long)(*a++ - '0');
		while (*b >= '0' && *b <= '9')
			y = y * 10 + (unsigned long)(*b++ - '0');
		if (x != y)
			return x < y ? -1 : 1;
		while (*a && (*a < '0' || *a > '9'))
			a++;
		while (*b && (*b < '0' || *b > '9'))
			b++;
	}
	return 0;
}
