/* Making `gpudoctor report` fit where it goes (a GitHub issue takes
 * 65,536 characters): identical GPUs as one section with a table of their
 * addresses, sources a reader cannot open left out, the JSON left out when
 * it would not fit, and --redact for home directories and the host name. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/plat.h"
#include "report_fit.h"

/* One GPU's text with what differs between identical GPUs of one machine
 * taken out: PCI addresses, NVIDIA UUIDs, render and KFD node numbers. */
static int hexn(const char *s, int n)
{
	for (int i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

static int is_bdf(const char *s)
{
	return hexn(s, 4) && s[4] == ':' && hexn(s + 5, 2) && s[7] == ':' &&
	       hexn(s + 8, 2) && s[10] == '.' && isdigit((unsigned char)s[11]);
}

static size_t skip_line(const char *s)
{
	const char *e = strchr(s, '\n');

	return e ? (size_t)(e - s) + 1 : strlen(s);
}

char *gd_report_group_key(const char *text)
{
	size_t n = strlen(text);
	char *out = malloc(n + 1), *o = out;
	const char *s = text;

	if (!out)
		return NULL;
	while (*s) {
		int bol = s == text || s[-1] == '\n';

		if (bol && (!strncmp(s, "  KFD node ids", 14) ||
			    !strncmp(s, "  node ", 7))) {
			s += skip_line(s);
		} else if (is_bdf(s)) {
			s += 12;
		} else if (!strncmp(s, "GPU-", 4) &&
			   isxdigit((unsigned char)s[4])) {
			for (s += 4; isxdigit((unsigned char)*s) || *s == '-';)
				s++;
		} else if (!strncmp(s, "renderD", 7)) {
			for (s += 7; isdigit((unsigned char)*s);)
				s++;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
	return out;
}

/* A Sources: list without the entries a reader cannot open: no address
 * and no document of the repository (docs/...): internal notes. The rest
 * are numbered again. Edits text in place. */
void gd_report_drop_internal_sources(char *text)
{
	char *r = text, *w = text;
	int in = 0, num = 0;

	while (*r) {
		size_t len = skip_line(r);
		char *dot = NULL;

		if (!strncmp(r, "Sources:", 8)) {
			in = 1, num = 0;
		} else if (in && isdigit((unsigned char)*r) &&
			   (dot = strstr(r, ". ")) && dot - r < 4) {
			int keep = 0;

			for (size_t k = 0; k + 3 <= len && !keep; k++)
				keep = !strncmp(r + k, "://", 3) ||
				       (k + 5 <= len &&
					!strncmp(r + k, "docs/", 5));
			if (!keep) {
				r += len;
				continue;
			}
			/* the new number is never longer than the old one */
			char nb[16];
			int k = snprintf(nb, sizeof nb, "%d", ++num);

			memcpy(w, nb, (size_t)k);
			w += k;
			len -= (size_t)(dot - r);
			r = dot;
		} else if (*r == '\n') {
			in = 0;
		}
		memmove(w, r, len);
		w += len, r += len;
	}
	*w = '\0';
}

/* A copy of s with each match of rule (at a position) rewritten: match
 * returns the bytes to skip (0: no match) and the text to write. */
typedef size_t (*gd_redact_rule)(const char *s, const char *arg,
				 const char **with);

static char *rewrite(char *s, gd_redact_rule rule, const char *arg)
{
	size_t cap = strlen(s) * 2 + 64, o = 0;
	char *out = malloc(cap);

	if (!out)
		return s;
	for (const char *p = s; *p;) {
		const char *with = NULL;
		size_t skip = rule(p, arg, &with);
		size_t wl = with ? strlen(with) : 0;

		if (o + wl + 2 > cap) {
			char *bigger = realloc(out, cap * 2 + wl);

			if (!bigger) {
				free(out);
				return s;
			}
			out = bigger, cap = cap * 2 + wl;
		}
		if (skip) {
			memcpy(out + o, with, wl);
			o += wl, p += skip;
		} else {
			out[o++] = *p++;
		}
	}
	out[o] = '\0';
	free(s);
	return out;
}

/* A home directory's user name, as text or JSON writes it: /home/NAME,
 * /var/home/NAME, /Users/NAME, C:\Users\NAME (JSON: C:\\Users\\NAME). */
static size_t home_rule(const char *s, const char *arg, const char **with)
{
	static const char *const pre[] = {"/home/", "/Users/", "\\\\Users\\\\",
					  "\\Users\\"};

	(void)arg;
	for (size_t k = 0; k < sizeof pre / sizeof pre[0]; k++) {
		size_t pl = strlen(pre[k]), e = pl;

		if (strncmp(s, pre[k], pl))
			continue;
		while (s[e] && !strchr("/\\\"'` \n\t)]:,;", s[e]))
			e++;
		if (e == pl)
			return 0;
		*with = k == 0	 ? "/home/USER"
			: k == 1 ? "/Users/USER"
			: k == 2 ? "\\\\Users\\\\USER"
				 : "\\Users\\USER";
		return e;
	}
	return 0;
}

static size_t host_rule(const char *s, const char *host, const char **with)
{
	size_t n = strlen(host);

	if (strncmp(s, host, n) || isalnum((unsigned char)s[n]))
		return 0;
	*with = "HOSTNAME";
	return n;
}

/* The kernel command line's value in the JSON ("cmdline": "..."). */
static size_t cmdline_rule(const char *s, const char *arg, const char **with)
{
	static const char key[] = "\"cmdline\": \"";
	size_t e = sizeof key - 1;

	(void)arg;
	if (strncmp(s, key, e))
		return 0;
	while (s[e] && s[e] != '"')
		e += s[e] == '\\' && s[e + 1] ? 2 : 1;
	if (s[e] != '"')
		return 0;
	*with = "\"cmdline\": \"(redacted)";
	return e;
}

char *gd_report_redact(char *text, const char *hostname)
{
	text = rewrite(text, home_rule, NULL);
	text = rewrite(text, cmdline_rule, NULL);
	if (hostname && strlen(hostname) >= 3 && strcmp(hostname, "localhost"))
		text = rewrite(text, host_rule, hostname);
	return text;
}
