/* gd_reg_export (winreg.h): keys of a gd_reg tree as `reg export` writes
 * them, so that a Windows capture made by gpudoctor reads like one made with
 * the built-in tool, and regedit can import it. The rules, as reg.exe and
 * regedit write them (and as winreg_parse.c reads them back):
 *   - UTF-16LE with a BOM, CRLF, "Windows Registry Editor Version 5.00",
 *     a blank line, then each key as "[path]", its values, a blank line;
 *     a key's subkeys follow it, depth first, in the tree's order;
 *   - REG_SZ "name"="text" with \ and " escaped; REG_DWORD dword:%08x;
 *     REG_BINARY hex:; every other type hex(N): with its bytes, REG_EXPAND_SZ
 *     and REG_MULTI_SZ as UTF-16LE with their NULs (hex(2), hex(7));
 *   - "@" names the default value;
 *   - a hex list is folded after the comma that brings the line to 77
 *     columns or more: the line ends in ",\" and goes on after two spaces
 *     (25 bytes a line), as the tools do. */
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "winreg.h"

#define FOLD_AT 77

typedef GD_VEC(char) textbuf;

struct ex {
	textbuf t;
	size_t keys, max_keys;
	int oom;
};

static void put(struct ex *x, const char *s, size_t n)
{
	for (size_t i = 0; i < n && !x->oom; i++) {
		char *c = gd_vec_push(&x->t);

		if (!c)
			x->oom = 1;
		else
			*c = s[i];
	}
}

static void puts_(struct ex *x, const char *s)
{
	put(x, s, strlen(s));
}

/* One UTF-8 sequence at s (n bytes left) to a code point; bad bytes are
 * taken one at a time as U+FFFD. Returns the bytes used. */
static size_t utf8_cp(const unsigned char *s, size_t n, unsigned *cp)
{
	unsigned c = s[0];
	size_t k = c < 0x80    ? 1
		   : c >= 0xF0 ? 4
		   : c >= 0xE0 ? 3
		   : c >= 0xC0 ? 2
			       : 0;

	if (!k || k > n) {
		*cp = 0xFFFD;
		return 1;
	}
	*cp = k == 1 ? c : c & (0x7Fu >> k);
	for (size_t i = 1; i < k; i++) {
		if ((s[i] & 0xC0) != 0x80) {
			*cp = 0xFFFD;
			return 1;
		}
		*cp = *cp << 6 | (s[i] & 0x3Fu);
	}
	return k;
}

/* UTF-8 (n bytes, NULs kept) to UTF-16LE, malloc'ed; *olen in bytes. */
static uint8_t *utf16le(const char *s, size_t n, size_t *olen)
{
	uint8_t *out = malloc(n * 2 + 2), *o = out;
	size_t i = 0;

	if (!out)
		return NULL;
	while (i < n) {
		unsigned c;

		i += utf8_cp((const unsigned char *)s + i, n - i, &c);
		if (c >= 0x10000) {
			unsigned hi = 0xD800 + ((c - 0x10000) >> 10);
			unsigned lo = 0xDC00 + ((c - 0x10000) & 0x3FF);

			*o++ = (uint8_t)hi, *o++ = (uint8_t)(hi >> 8);
			c = lo;
		}
		*o++ = (uint8_t)c, *o++ = (uint8_t)(c >> 8);
	}
	*olen = (size_t)(o - out);
	return out;
}

static void quoted(struct ex *x, const char *s)
{
	puts_(x, "\"");
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			puts_(x, "\\");
		put(x, s, 1);
	}
	puts_(x, "\"");
}

/* "hex(N):xx,xx,\" folded; col is the line's length so far. */
static void hex_list(struct ex *x, const uint8_t *b, size_t n, size_t col)
{
	static const char dig[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		char h[3] = {dig[b[i] >> 4], dig[b[i] & 15], ','};

		put(x, h, i + 1 < n ? 3 : 2);
		if (i + 1 == n)
			break;
		col += 3;
		if (col >= FOLD_AT) {
			puts_(x, "\\\r\n  ");
			col = 2;
		}
	}
}

static void value(struct ex *x, const gd_reg_value *v)
{
	size_t col = x->t.n, n;
	const uint8_t *b = v->data;
	uint8_t *w = NULL;
	char head[32];

	if (v->name[0])
		quoted(x, v->name);
	else
		puts_(x, "@");
	puts_(x, "=");
	if (v->type == GD_REG_SZ) {
		quoted(x, (const char *)v->data);
		puts_(x, "\r\n");
		return;
	}
	if (v->type == GD_REG_DWORD && v->len == 4) {
		gd_fmt(head, sizeof head, "dword:%08x",
		       (unsigned)(b[0] | b[1] << 8 | b[2] << 16 |
				  (unsigned)b[3] << 24));
		puts_(x, head);
		puts_(x, "\r\n");
		return;
	}
	n = v->len;
	if (v->type == GD_REG_EXPAND_SZ || v->type == GD_REG_MULTI_SZ) {
		/* stored as UTF-8; EXPAND_SZ without its NUL */
		if (!(w = utf16le((const char *)v->data,
				  v->len + (v->type == GD_REG_EXPAND_SZ),
				  &n))) {
			x->oom = 1;
			return;
		}
		b = w;
	}
	if (v->type == GD_REG_BINARY)
		gd_fmt(head, sizeof head, "hex:");
	else
		gd_fmt(head, sizeof head, "hex(%x):", v->type);
	puts_(x, head);
	hex_list(x, b, n, x->t.n - col);
	puts_(x, "\r\n");
	free(w);
}

static void key(struct ex *x, const gd_reg_key *k, char *path, size_t cap)
{
	size_t len = strlen(path);

	if (x->keys++ >= x->max_keys)
		return;
	puts_(x, "[");
	puts_(x, path);
	puts_(x, "]\r\n");
	for (size_t i = 0; i < k->nval; i++)
		value(x, &k->val[i]);
	puts_(x, "\r\n");
	for (size_t i = 0; i < k->nsub && x->keys < x->max_keys; i++) {
		if (len + strlen(k->sub[i]->name) + 2 > cap)
			continue; /* deeper than a registry path can be */
		path[len] = '\\';
		strcpy(path + len + 1, k->sub[i]->name);
		key(x, k->sub[i], path, cap);
		path[len] = '\0';
	}
}

/* The key at p, with the spelling of the tree's names, into path. */
static const gd_reg_key *find_spelled(const gd_reg *r, const char *p,
				      char *path, size_t cap)
{
	const gd_reg_key *k = gd_reg_find(r, p), *c = &r->root;
	char *dup, *save = NULL;

	path[0] = '\0';
	if (!k || !(dup = strdup(p)))
		return NULL;
	for (char *t = strtok_r(dup, "\\", &save); t && c;
	     t = strtok_r(NULL, "\\", &save)) {
		char one[600];
		const gd_reg_key *s;

		gd_strlcpy(one, t, sizeof one);
		s = c == &r->root ? gd_reg_find(r, one) : gd_reg_sub(c, one);
		if (!s)
			break;
		if (c != &r->root)
			gd_strlcpy(path + strlen(path), "\\",
				   cap - strlen(path));
		gd_strlcpy(path + strlen(path), s->name, cap - strlen(path));
		c = s;
	}
	free(dup);
	return c == k ? k : NULL;
}

int gd_reg_export(const gd_reg *r, const char *const *paths, size_t npaths,
		  size_t max_keys, void **out, size_t *len, size_t *nkeys)
{
	struct ex x = {{0}, 0, max_keys ? max_keys : (size_t)-1, 0};
	char path[8192];
	size_t n;

	*out = NULL;
	*len = 0;
	puts_(&x, "Windows Registry Editor Version 5.00\r\n\r\n");
	for (size_t i = 0; i < npaths; i++) {
		const gd_reg_key *k =
		    find_spelled(r, paths[i], path, sizeof path);

		if (k)
			key(&x, k, path, sizeof path);
	}
	if (nkeys)
		*nkeys = x.keys > x.max_keys ? x.max_keys : x.keys;
	if (!x.oom) {
		uint8_t *w = utf16le(x.t.v, x.t.n, &n);

		if (w && (*out = malloc(n + 2))) {
			memcpy(*out, "\xff\xfe", 2);
			memcpy((uint8_t *)*out + 2, w, n);
			*len = n + 2;
		}
		free(w);
	}
	free(x.t.v);
	if (!*out)
		return -1;
	return x.keys > x.max_keys ? 1 : 0;
}
