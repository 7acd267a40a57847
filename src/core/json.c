/* JSON strings from untrusted bytes: see json.h. UTF-8 validity as RFC 3629
 * section 4 defines it (no overlongs, no surrogates, nothing above U+10FFFF),
 * which is what jansson's utf8_check_string accepts. */
#include "core/json.h"

#include <stdlib.h>
#include <string.h>

int gd_utf8_seq(const unsigned char *s, size_t avail)
{
	unsigned char c = s[0];
	int n;

	if (c < 0x80)
		return c ? 1 : 0;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if ((size_t)n > avail)
		return 0;
	for (int i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if (c == 0xe0 && s[1] < 0xa0)
		return 0; /* overlong */
	if (c == 0xed && s[1] >= 0xa0)
		return 0; /* UTF-16 surrogate */
	if (c == 0xf0 && s[1] < 0x90)
		return 0; /* overlong */
	if (c == 0xf4 && s[1] >= 0x90)
		return 0; /* above U+10FFFF */
	return n;
}

size_t gd_utf8_mend(char *dst, size_t cap, const char *s)
{
	static const char repl[] = "\xef\xbf\xbd";
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t len = strlen((const char *)p), o = 0;

	if (!cap)
		return 0;
	for (size_t i = 0; i < len;) {
		int n = gd_utf8_seq(p + i, len - i);
		const char *src = n ? (const char *)p + i : repl;
		size_t k = n ? (size_t)n : 3;

		if (o + k >= cap)
			break;
		memcpy(dst + o, src, k);
		o += k;
		i += n ? (size_t)n : 1;
	}
	dst[o] = 0;
	return o;
}

size_t gd_utf8_mend_len(const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t len = strlen((const char *)p), o = 0;

	for (size_t i = 0; i < len;) {
		int n = gd_utf8_seq(p + i, len - i);

		o += n ? (size_t)n : 3;
		i += n ? (size_t)n : 1;
	}
	return o;
}

json_t *gd_json_str(const char *s)
{
	json_t *j;
	char *buf;
	size_t cap;

	if (!s)
		s = "";
	j = json_string(s);
	if (j)
		return j;
	/* Each bad byte grows to at most three. */
	cap = strlen(s) * 3 + 1;
	buf = malloc(cap);
	if (!buf)
		return NULL;
	gd_utf8_mend(buf, cap, s);
	j = json_string(buf);
	free(buf);
	return j;
}

json_t *gd_json_str_or_null(const char *s)
{
	return s && s[0] ? gd_json_str(s) : json_null();
}
