/* kb/: how the schema check's messages find their line (split out of
 * kb_validate.c, which it served alone, when the hardware and library
 * checks moved to files of their own). jansson tells the line of a syntax
 * error but not where a value sits, so errors about content find their
 * line by searching the text for the entry's "gfx"/"id" member and then
 * for the offending key or value after it. The search only runs when
 * there is an error: loading stays cheap. Also the small predicates every
 * part of the check uses. */
#include <stdarg.h>
#include <string.h>

#include "core/util.h"
#include "kb_validate.h"

#define NOWHERE ((size_t)-1)

const char *gd_kbv_str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static size_t line_at(const struct gd_kb_vctx *v, size_t off)
{
	size_t line = 1;

	for (size_t i = 0; i < off && i < v->len; i++)
		line += v->buf[i] == '\n';
	return line;
}

/* Offset of the JSON string "s" at or after from, or NOWHERE. */
static size_t find_quoted(const struct gd_kb_vctx *v, size_t from,
			  const char *s)
{
	size_t n = strlen(s);

	for (size_t i = from; i + n + 2 <= v->len; i++)
		if (v->buf[i] == '"' && v->buf[i + n + 1] == '"' &&
		    !memcmp(v->buf + i + 1, s, n))
			return i;
	return NOWHERE;
}

static size_t skip_ws(const struct gd_kb_vctx *v, size_t p)
{
	while (p < v->len && strchr(" \t\r\n", v->buf[p]))
		p++;
	return p;
}

/* Offset of member "key" (followed by ':'), with value "val" when val is
 * given, at or after from; NOWHERE when absent. */
static size_t find_member(const struct gd_kb_vctx *v, size_t from,
			  const char *key, const char *val)
{
	size_t off = from;

	while ((off = find_quoted(v, off, key)) != NOWHERE) {
		size_t p = skip_ws(v, off + strlen(key) + 2);

		if (p < v->len && v->buf[p] == ':') {
			p = skip_ws(v, p + 1);
			if (!val || find_quoted(v, p, val) == p)
				return off;
		}
		off++;
	}
	return NOWHERE;
}

/* Where the current entry starts (0 when unknown). */
static size_t entry_off(const struct gd_kb_vctx *v)
{
	size_t off;

	if (!v->ekey)
		return 0;
	off = find_member(v, 0, v->ekey, v->eval);
	return off == NOWHERE ? 0 : off;
}

int gd_kbv_fail(struct gd_kb_vctx *v, const char *what, int is_key,
		const char *fmt, ...)
{
	char msg[384];
	size_t off = entry_off(v), at = NOWHERE;
	va_list ap;

	va_start(ap, fmt);
	gd_vfmt(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (what)
		at = is_key ? find_member(v, off, what, NULL)
			    : find_quoted(v, off, what);
	if (v->err && v->errlen)
		gd_fmt(v->err, v->errlen, "%s:%zu: %s", v->name,
		       line_at(v, at == NOWHERE ? off : at), msg);
	return -1;
}

int gd_kbv_fail_dup(struct gd_kb_vctx *v, const char *what, const char *name)
{
	size_t off = find_member(v, entry_off(v) + 1, v->ekey, v->eval);

	if (v->err && v->errlen)
		gd_fmt(v->err, v->errlen, "%s:%zu: duplicate %s \"%s\"",
		       v->name, line_at(v, off == NOWHERE ? 0 : off), what,
		       name);
	return -1;
}

void gd_kbv_enter(struct gd_kb_vctx *v, const char *key, const char *val)
{
	v->ekey = key;
	v->eval = val;
}

int gd_kbv_str_or_null(const json_t *o, const char *key)
{
	const json_t *m = json_object_get(o, key);

	return !m || json_is_null(m) || json_is_string(m);
}

int gd_kbv_one_of(const char *s, const char *const *set)
{
	for (; s && *set; set++)
		if (!strcmp(s, *set))
			return 1;
	return 0;
}

int gd_kbv_is_gfx(const char *s)
{
	if (!s || strncmp(s, "gfx", 3) || !s[3] || strlen(s) > 12)
		return 0;
	return strspn(s + 3, "0123456789abcdef") == strlen(s + 3);
}

int gd_kbv_is_pci(const char *s)
{
	return s && strlen(s) == 6 && !strncmp(s, "0x", 2) &&
	       strspn(s + 2, "0123456789abcdef") == 4;
}
