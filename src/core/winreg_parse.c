/* regedit export files into the gd_reg tree (winreg.h). The format, as
 * Microsoft documents it ("How to add, modify, or delete registry subkeys
 * and values by using a .reg file", KB 310516) and as `reg export` /
 * regedit write it:
 *   Windows Registry Editor Version 5.00      (REGEDIT4: ANSI strings)
 *   [HKEY_LOCAL_MACHINE\path\key]             [-...]: delete the key
 *   "name"="string"  @="default"  "name"=-    (delete the value)
 *   "n"=dword:0000001f  "n"=hex:de,ad  "n"=hex(2):..  hex(7) hex(b) hex(N)
 *   long hex lists continue with a trailing "\" and an indented line;
 *   ";" starts a comment line; \\ and \" escape inside quotes.
 * reg export writes UTF-16LE with a BOM and CRLF; hex(2)/hex(7) bytes are
 * UTF-16LE there too. Everything is stored as UTF-8. */
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "winreg.h"

/* ---- text decoding ---- */

static void put_utf8(char **o, unsigned c)
{
	unsigned char *p = (unsigned char *)*o;

	if (c < 0x80) {
		*p++ = (unsigned char)c;
	} else if (c < 0x800) {
		*p++ = (unsigned char)(0xC0 | c >> 6);
		*p++ = (unsigned char)(0x80 | (c & 0x3F));
	} else if (c < 0x10000) {
		*p++ = (unsigned char)(0xE0 | c >> 12);
		*p++ = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
		*p++ = (unsigned char)(0x80 | (c & 0x3F));
	} else {
		*p++ = (unsigned char)(0xF0 | c >> 18);
		*p++ = (unsigned char)(0x80 | ((c >> 12) & 0x3F));
		*p++ = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
		*p++ = (unsigned char)(0x80 | (c & 0x3F));
	}
	*o = (char *)p;
}

/* UTF-16 (be: big endian) to UTF-8, malloc'ed, NUL-terminated; unpaired
 * surrogates become U+FFFD; *olen gets the length. */
static char *utf16_to_utf8(const uint8_t *p, size_t n, int be, size_t *olen)
{
	char *out = malloc(n / 2 * 3 + 1), *o = out;

	if (!out)
		return NULL;
	for (size_t i = 0; i + 1 < n; i += 2) {
		unsigned c = be ? (unsigned)p[i] << 8 | p[i + 1]
				: (unsigned)p[i + 1] << 8 | p[i];

		if (c >= 0xD800 && c < 0xDC00 && i + 3 < n) {
			unsigned d = be ? (unsigned)p[i + 2] << 8 | p[i + 3]
					: (unsigned)p[i + 3] << 8 | p[i + 2];

			if (d >= 0xDC00 && d < 0xE000) {
				c = 0x10000 + ((c - 0xD800) << 10) +
				    (d - 0xDC00);
				i += 2;
			} else {
				c = 0xFFFD;
			}
		} else if (c >= 0xD800 && c < 0xE000) {
			c = 0xFFFD;
		}
		put_utf8(&o, c);
	}
	*o = '\0';
	if (olen)
		*olen = (size_t)(o - out);
	return out;
}

static char *decode(const uint8_t *b, size_t n)
{
	char *t;

	if (n >= 2 && b[0] == 0xFF && b[1] == 0xFE)
		return utf16_to_utf8(b + 2, n - 2, 0, NULL);
	if (n >= 2 && b[0] == 0xFE && b[1] == 0xFF)
		return utf16_to_utf8(b + 2, n - 2, 1, NULL);
	if (n >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF) {
		b += 3;
		n -= 3;
	}
	if (!(t = malloc(n + 1)))
		return NULL;
	memcpy(t, b, n);
	t[n] = '\0';
	/* an embedded NUL ends the text, as it would end regedit's import */
	return t;
}

/* ---- lines ---- */

struct pst {
	gd_reg *r;
	gd_reg_key *key; /* the key the value lines go to; NULL: skip them */
	int regedit4;	 /* ANSI strings, hex(2)/hex(7) in single bytes */
	int set, skipped;
};

/* Unescapes a quoted string in place: p points after the opening quote.
 * Returns the character after the closing quote, or NULL if unclosed. */
static char *unquote(char *p)
{
	char *o = p;

	for (; *p && *p != '"'; p++) {
		if (*p == '\\' && (p[1] == '\\' || p[1] == '"'))
			p++;
		*o++ = *p;
	}
	if (*p != '"')
		return NULL;
	*o = '\0';
	return p + 1;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* "de,ad,be,ef" (spaces allowed) into bytes, in place; -1 on junk. */
static long hex_bytes(char *p, uint8_t *out)
{
	long n = 0;

	for (;;) {
		int hi, lo;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			return n;
		hi = hexval(p[0]);
		lo = hi < 0 ? -1 : hexval(p[1]);
		if (lo < 0) {
			if (hi >= 0 && (p[1] == ',' || !p[1] || p[1] == ' ')) {
				lo = hi; /* a one-digit byte, as "0" */
				hi = 0;
				p--;
			} else {
				return -1;
			}
		}
		out[n++] = (uint8_t)(hi << 4 | lo);
		p += 2;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == ',')
			p++;
		else if (*p)
			return -1;
	}
}

static int set_hex(struct pst *st, const char *name, unsigned type, char *p)
{
	uint8_t *b = malloc(strlen(p) / 2 + 2);
	long n = b ? hex_bytes(p, b) : -1;
	int rc = -1;

	if (n >= 0 && !st->regedit4 &&
	    (type == GD_REG_EXPAND_SZ || type == GD_REG_MULTI_SZ)) {
		size_t len;
		char *u = utf16_to_utf8(b, (size_t)n, 0, &len);

		if (u && type == GD_REG_EXPAND_SZ)
			len = strlen(u);
		if (u)
			rc = gd_reg_set(st->r, st->key, name, type, u, len);
		free(u);
	} else if (n >= 0) {
		if (type == GD_REG_EXPAND_SZ)
			n = (long)strnlen((char *)b, (size_t)n);
		rc = gd_reg_set(st->r, st->key, name, type, b, (size_t)n);
	}
	free(b);
	return rc;
}

static int set_data(struct pst *st, const char *name, char *p)
{
	uint32_t dw;
	unsigned long type;
	char *end;

	if (*p == '-' && !p[1 + strspn(p + 1, " \t")]) {
		gd_reg_delete_value(st->key, name);
		return 0;
	}
	if (*p == '"') {
		if (!unquote(p + 1))
			return -1;
		return gd_reg_set(st->r, st->key, name, GD_REG_SZ, p + 1,
				  strlen(p + 1));
	}
	if (gd_startswith(p, "dword:")) {
		p = gd_trim(p + 6);
		if (strlen(p) > 8 || gd_parse_u32(p, 16, &dw))
			return -1;
		return gd_reg_set(st->r, st->key, name, GD_REG_DWORD,
				  (uint8_t[4]){(uint8_t)dw, (uint8_t)(dw >> 8),
					       (uint8_t)(dw >> 16),
					       (uint8_t)(dw >> 24)},
				  4);
	}
	if (gd_startswith(p, "hex:"))
		return set_hex(st, name, GD_REG_BINARY, p + 4);
	if (gd_startswith(p, "hex(")) {
		type = strtoul(p + 4, &end, 16);
		if (end == p + 4 || end[0] != ')' || end[1] != ':')
			return -1;
		return set_hex(st, name, (unsigned)type, end + 2);
	}
	return -1;
}

static int value_line(struct pst *st, char *line)
{
	char *p = line, *name;

	if (!st->key)
		return -1;
	if (*p == '@') {
		name = "";
		p++;
	} else {
		name = p + 1;
		if (!(p = unquote(name)))
			return -1;
	}
	p += strspn(p, " \t");
	if (*p++ != '=')
		return -1;
	p += strspn(p, " \t");
	return set_data(st, name, p);
}

static void key_line(struct pst *st, char *line)
{
	char *end = strrchr(line, ']');

	if (!end) {
		st->key = NULL;
		st->skipped++;
		return;
	}
	*end = '\0';
	if (line[1] == '-') {
		gd_reg_delete_key(st->r, line + 2);
		st->key = NULL;
		return;
	}
	st->key = gd_reg_mkkey(st->r, line + 1);
	if (!st->key || st->key == &st->r->root)
		st->key = NULL, st->skipped++;
	else
		st->set++;
}

static void one_line(struct pst *st, char *line)
{
	line = gd_trim(line);
	if (!*line || *line == ';')
		return;
	if (*line == '[')
		key_line(st, line);
	else if (value_line(st, line) == 0)
		st->set++;
	else
		st->skipped++;
}

/* The next physical line, '\r' dropped; NULL at the end. */
static char *physical(char **cur)
{
	char *l = *cur, *nl;

	if (!l || !*l)
		return NULL;
	nl = strchr(l, '\n');
	*cur = nl ? nl + 1 : NULL;
	if (nl)
		*nl = '\0';
	if (nl && nl > l && nl[-1] == '\r')
		nl[-1] = '\0';
	return l;
}

static int header(char **cur, struct pst *st, char *err, size_t errcap)
{
	char *l;

	while ((l = physical(cur))) {
		l = gd_trim(l);
		if (!*l)
			continue;
		if (!strcmp(l, "Windows Registry Editor Version 5.00"))
			return 0;
		if (!strcmp(l, "REGEDIT4")) {
			st->regedit4 = 1;
			return 0;
		}
		break;
	}
	gd_fmt(err, errcap,
	       "line 1: not a registry export (no \"Windows "
	       "Registry Editor Version 5.00\" or \"REGEDIT4\" header)");
	return -1;
}

typedef GD_VEC(char) charvec;

static int push_c(charvec *j, char c)
{
	char *p = gd_vec_push(j);

	if (!p)
		return -1;
	*p = c;
	return 0;
}

int gd_reg_parse(gd_reg *r, const void *buf, size_t len, int *skipped,
		 char *err, size_t errcap)
{
	struct pst st = {r, NULL, 0, 0, 0};
	charvec j = {0};
	char *text = decode(buf, len), *cur = text, *l;

	if (err && errcap)
		err[0] = '\0';
	if (!text || header(&cur, &st, err, errcap) < 0) {
		free(text);
		return -1;
	}
	while ((l = physical(&cur))) {
		size_t n = strlen(l);

		while (n && (l[n - 1] == ' ' || l[n - 1] == '\t'))
			n--;
		/* a trailing '\' continues a hex list on the next line */
		int oom = 0;

		for (size_t i = 0; i < (n && l[n - 1] == '\\' ? n - 1 : n); i++)
			oom |= push_c(&j, l[i]);
		if (n && l[n - 1] == '\\' && cur && !oom)
			continue;
		oom |= push_c(&j, '\0');
		if (oom)
			break; /* out of memory: what was read so far stands */
		one_line(&st, j.v);
		j.n = 0;
	}
	free(j.v);
	free(text);
	if (skipped)
		*skipped = st.skipped;
	return st.set;
}
