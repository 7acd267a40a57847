#include "k8s_label.h"

#include <string.h>

static int alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

static int allowed(char c)
{
	return alnum(c) || c == '.' || c == '_' || c == '-';
}

int gd_k8s_label_value_valid(const char *v)
{
	size_t n = strlen(v);

	if (n == 0)
		return 1;
	if (n > GD_K8S_VALUE_MAX || !alnum(v[0]) || !alnum(v[n - 1]))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!allowed(v[i]))
			return 0;
	return 1;
}

/* Appends a C string to a growing buffer of 2*63+ bytes, cut at cap-1. */
static void put(char *buf, size_t *n, size_t cap, const char *s)
{
	for (; *s && *n + 1 < cap; s++)
		buf[(*n)++] = *s;
}

size_t gd_k8s_label_value(const char *s, char *out, size_t cap)
{
	char tmp[256];
	size_t n = 0, a = 0, b;

	if (!cap)
		return 0;
	for (; s && *s && n + 1 < sizeof tmp; s++) {
		int end = !s[1] || s[1] == ':';

		if ((*s == '+' || *s == '-') && end && n && alnum(tmp[n - 1]))
			put(tmp, &n, sizeof tmp, *s == '+' ? "-on" : "-off");
		else if (*s == ':')
			put(tmp, &n, sizeof tmp, ".");
		else
			tmp[n++] = allowed(*s) ? *s : '_';
	}
	tmp[n] = '\0';
	while (a < n && !alnum(tmp[a]))
		a++;
	b = n - a;
	if (b > GD_K8S_VALUE_MAX)
		b = GD_K8S_VALUE_MAX;
	if (b + 1 > cap)
		b = cap - 1;
	while (b && !alnum(tmp[a + b - 1]))
		b--;
	memcpy(out, tmp + a, b);
	out[b] = '\0';
	return b;
}
