/* explain: read a log (bounded), match it line by line against the kb's
 * error signatures (POSIX EREs). The machine checks are in
 * explain_check.c. */
#include "explain.h"

#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kb/kb.h"

int gd_explain_read(int fd, size_t cap, char **buf, size_t *len,
		    int *truncated)
{
	size_t got = 0, alloc = cap < 65536 ? cap : 65536;
	char *b = malloc(alloc + 1), probe;

	*truncated = 0;
	if (!b)
		return -ENOMEM;
	for (;;) {
		ssize_t k;

		if (got == cap) {
			/* One more byte tells whether the log went on. */
			do
				k = read(fd, &probe, 1);
			while (k < 0 && errno == EINTR);
			*truncated = k > 0;
			break;
		}
		if (got == alloc) {
			size_t na = alloc * 2 > cap ? cap : alloc * 2;
			char *nb = realloc(b, na + 1);

			if (!nb) {
				free(b);
				return -ENOMEM;
			}
			b = nb;
			alloc = na;
		}
		k = read(fd, b + got, alloc - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			int e = errno;

			free(b);
			return -e;
		}
		if (k == 0)
			break;
		got += (size_t)k;
	}
	b[got] = '\0';
	*buf = b;
	*len = got;
	return 0;
}

struct sig {
	const json_t *obj;
	const char *id;
	regex_t re;
	int found;
};

static size_t compile_all(gd_ctx *ctx, const json_t *kbroot, struct sig *s,
			  size_t max)
{
	const json_t *arr = json_object_get(kbroot, "signatures");
	const json_t *o;
	size_t i, n = 0;

	json_array_foreach(arr, i, o) {
		const char *id = gd_kb_str(o, "id");
		const char *rx = gd_kb_str(o, "regex");
		int flags = REG_EXTENDED | REG_NEWLINE, rc;
		char msg[160];

		if (n == max || !id || !rx)
			continue;
		if (json_is_true(json_object_get(o, "icase")))
			flags |= REG_ICASE;
		rc = regcomp(&s[n].re, rx, flags);
		if (rc) {
			regerror(rc, &s[n].re, msg, sizeof msg);
			gd_diag_add(ctx, GD_DIAG_WARN, "kb signatures",
				    "%s: bad regex: %s; skipped", id, msg);
			continue;
		}
		s[n].obj = o;
		s[n].id = id;
		s[n].found = 0;
		n++;
	}
	return n;
}

static int record(struct gd_explain_result *r, struct sig *s,
		  unsigned long ln, const char *line, const regmatch_t *pm)
{
	struct gd_explain_match *mt = gd_vec_push(&r->m);
	size_t k;

	if (!mt)
		return -ENOMEM;
	mt->sig = s->obj;
	gd_strlcpy(mt->id, s->id, sizeof mt->id);
	mt->line = ln;
	k = (size_t)(pm->rm_eo - pm->rm_so);
	if (k == 0) { /* an empty match: show the line instead */
		gd_strlcpy(mt->text, line, sizeof mt->text);
	} else {
		if (k >= sizeof mt->text)
			k = sizeof mt->text - 1;
		memcpy(mt->text, line + pm->rm_so, k);
		mt->text[k] = '\0';
	}
	gd_sanitize(mt->text);
	s->found = 1;
	return 0;
}

static int scan_lines(struct sig *sigs, size_t ns, char *buf, size_t len,
		      struct gd_explain_result *r)
{
	size_t pos = 0, left = ns;

	while (pos < len && left) {
		char *line = buf + pos;
		char *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;

		if (nl)
			*nl = '\0';
		if (n && line[n - 1] == '\r')
			line[n - 1] = '\0';
		r->lines++;
		for (size_t i = 0; i < ns; i++) {
			regmatch_t pm;

			if (sigs[i].found ||
			    regexec(&sigs[i].re, line, 1, &pm, 0))
				continue;
			if (record(r, &sigs[i], r->lines, line, &pm) < 0)
				return -ENOMEM;
			left--;
		}
		pos += n + 1;
	}
	return 0;
}

int gd_explain_scan(gd_ctx *ctx, const json_t *kbroot, char *buf, size_t len,
		    struct gd_explain_result *r)
{
	const json_t *arr = json_object_get(kbroot, "signatures");
	size_t max = json_array_size(arr), ns;
	struct sig *sigs;
	int rc;

	r->bytes = len;
	if (!max)
		return 0;
	sigs = calloc(max, sizeof *sigs);
	if (!sigs)
		return -ENOMEM;
	ns = compile_all(ctx, kbroot, sigs, max);
	r->n_signatures = ns;
	rc = scan_lines(sigs, ns, buf, len, r);
	for (size_t i = 0; i < ns; i++)
		regfree(&sigs[i].re);
	free(sigs);
	return rc;
}

void gd_explain_result_free(struct gd_explain_result *r)
{
	gd_vec_free(&r->m);
	memset(r, 0, sizeof *r);
}
