/* Pure parsers of what the kernel is asked for: /proc/cmdline and the
 * modprobe.d files, and lookups over what discover read (kstate.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/util.h"
#include "discover.h"

/* Module names: the kernel and modprobe treat '-' and '_' alike. */
static void modname(char *dst, size_t cap, const char *s, size_t n)
{
	size_t i;

	if (!cap)
		return;
	for (i = 0; i < n && i + 1 < cap; i++)
		dst[i] = s[i] == '-' ? '_' : s[i];
	dst[i] = 0;
}

static void copyn(char *dst, size_t cap, const char *s, size_t n)
{
	if (!cap)
		return;
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, s, n);
	dst[n] = 0;
}

static struct gd_kopt *add_opt(struct gd_kopts *o)
{
	if (o->n >= GD_KOPT_MAX) {
		o->dropped++;
		return NULL;
	}
	memset(&o->v[o->n], 0, sizeof o->v[0]);
	return &o->v[o->n++];
}

static void add_black(struct gd_kopts *o, const char *mod, size_t n,
		      const char *src)
{
	struct gd_kopt *b;

	if (!n)
		return;
	if (o->n_black >= GD_KBL_MAX) {
		o->dropped++;
		return;
	}
	b = &o->black[o->n_black++];
	memset(b, 0, sizeof *b);
	modname(b->module, sizeof b->module, mod, n);
	gd_strlcpy(b->src, src, sizeof b->src);
}

/* "a,b,c" -> one blacklist entry each. */
static void add_black_list(struct gd_kopts *o, const char *s, size_t n,
			   const char *src)
{
	size_t i = 0;

	while (i < n) {
		size_t j = i;

		while (j < n && s[j] != ',')
			j++;
		add_black(o, s + i, j - i, src);
		i = j + 1;
	}
}

/* One "module.param=value" word; value quotes already removed. */
static void cmd_word(struct gd_kopts *o, const char *w, size_t n)
{
	const char *eq = memchr(w, '=', n), *dot;
	struct gd_kopt *k;
	size_t klen;

	if (!eq)
		return;
	klen = (size_t)(eq - w);
	if ((klen == 18 && !strncmp(w, "modprobe.blacklist", 18)) ||
	    (klen == 16 && !strncmp(w, "module_blacklist", 16))) {
		add_black_list(o, eq + 1, n - klen - 1, "/proc/cmdline");
		return;
	}
	/* dracut: keeps the module out of the initramfs only; the root
	 * file system's modprobe may still load it later */
	if (klen == 19 && !strncmp(w, "rd.driver.blacklist", 19)) {
		add_black_list(o, eq + 1, n - klen - 1, GD_KBL_RD_SRC);
		return;
	}
	dot = memchr(w, '.', klen);
	if (!dot || dot == w || dot + 1 == eq || !(k = add_opt(o)))
		return;
	modname(k->module, sizeof k->module, w, (size_t)(dot - w));
	copyn(k->param, sizeof k->param, dot + 1, (size_t)(eq - dot - 1));
	copyn(k->value, sizeof k->value, eq + 1, n - klen - 1);
	gd_strlcpy(k->src, "/proc/cmdline", sizeof k->src);
}

void gd_cmdline_parse(const char *buf, size_t len, struct gd_kopts *out)
{
	size_t i = 0;

	while (i < len && buf[i]) {
		char w[256];
		size_t wn = 0;
		int q = 0;

		while (i < len && buf[i] && isspace((unsigned char)buf[i]))
			i++;
		/* quotes group a value ("a=\"x y\"") and are dropped */
		while (i < len && buf[i] &&
		       (q || !isspace((unsigned char)buf[i]))) {
			if (buf[i] == '"')
				q = !q;
			else if (wn + 1 < sizeof w)
				w[wn++] = buf[i];
			i++;
		}
		/* "--": what follows goes to init, not to modules */
		if (wn == 2 && w[0] == '-' && w[1] == '-')
			return;
		if (wn)
			cmd_word(out, w, wn);
	}
}

/* Next whitespace-separated word of line[*i..n). */
static int next_word(const char *line, size_t n, size_t *i, const char **w,
		     size_t *wn)
{
	while (*i < n && isspace((unsigned char)line[*i]))
		(*i)++;
	*w = line + *i;
	while (*i < n && !isspace((unsigned char)line[*i]))
		(*i)++;
	*wn = (size_t)(line + *i - *w);
	return *wn > 0;
}

static void mp_line(struct gd_kopts *o, const char *line, size_t n,
		    const char *src)
{
	const char *cmd, *mod, *w;
	size_t i = 0, cn, mn, wn;

	if (!next_word(line, n, &i, &cmd, &cn) || cmd[0] == '#' ||
	    !next_word(line, n, &i, &mod, &mn))
		return;
	if ((cn == 9 && !strncmp(cmd, "blacklist", 9)) ||
	    (cn == 7 && !strncmp(cmd, "install", 7))) {
		/* "install M /bin/false" (or /bin/true) keeps M from loading
		 * (the Debian and NVIDIA way to block nouveau) */
		if (cn == 9 ||
		    (next_word(line, n, &i, &w, &wn) &&
		     ((wn >= 5 && !strncmp(w + wn - 5, "false", 5)) ||
		      (wn >= 4 && !strncmp(w + wn - 4, "true", 4)))))
			add_black(o, mod, mn, src);
		return;
	}
	if (cn != 7 || strncmp(cmd, "options", 7))
		return;
	while (next_word(line, n, &i, &w, &wn)) {
		const char *eq = memchr(w, '=', wn);
		struct gd_kopt *k;

		if (w[0] == '#')
			break;
		if (!eq || eq == w || !(k = add_opt(o)))
			continue;
		modname(k->module, sizeof k->module, mod, mn);
		copyn(k->param, sizeof k->param, w, (size_t)(eq - w));
		copyn(k->value, sizeof k->value, eq + 1,
		      wn - (size_t)(eq - w) - 1);
		if (k->value[0] == '"') { /* options m p="v" */
			size_t vl = strlen(k->value);

			memmove(k->value, k->value + 1, vl);
			if (vl > 1 && k->value[vl - 2] == '"')
				k->value[vl - 2] = 0;
		}
		gd_strlcpy(k->src, src, sizeof k->src);
	}
}

void gd_modprobe_parse(const char *buf, size_t len, const char *file,
		       struct gd_kopts *out)
{
	/* a line (with its continuations) is never longer than the file:
	 * held whole, whatever its length */
	char *line = malloc(len + 1), src[112];
	size_t i = 0, ln = 0, lineno = 0, first = 1;

	if (!line) {
		out->dropped++; /* said with the entries past the caps */
		return;
	}
	while (i <= len) {
		int end = i == len || !buf[i];
		char c = end ? '\n' : buf[i];

		if (c == '\n')
			lineno++;
		/* a backslash before the newline continues the line */
		if (c == '\n' && ln && line[ln - 1] == '\\' && !end) {
			line[--ln] = ' ';
			ln++;
		} else if (c == '\n') {
			gd_fmt(src, sizeof src, "%s:%zu", file, first);
			mp_line(out, line, ln, src);
			ln = 0;
			first = lineno + 1;
		} else {
			line[ln++] = c;
		}
		if (end)
			break;
		i++;
	}
	free(line);
}

static const char *trim(const char *s, char *buf, size_t cap)
{
	size_t n;

	while (*s && isspace((unsigned char)*s))
		s++;
	gd_strlcpy(buf, s, cap);
	n = strlen(buf);
	while (n && isspace((unsigned char)buf[n - 1]))
		buf[--n] = 0;
	if (!strcasecmp(buf, "y") || !strcasecmp(buf, "yes") ||
	    !strcasecmp(buf, "on") || !strcasecmp(buf, "true"))
		return "1";
	if (!strcasecmp(buf, "n") || !strcasecmp(buf, "no") ||
	    !strcasecmp(buf, "off") || !strcasecmp(buf, "false"))
		return "0";
	return buf;
}

int gd_kparam_same(const char *a, const char *b)
{
	char x[80], y[80];

	return !strcasecmp(trim(a, x, sizeof x), trim(b, y, sizeof y));
}

const char *gd_kmod_name(enum gd_kmod k)
{
	static const char *const names[GD_KMOD_N] = {
	    "amdgpu", "nvidia", "nouveau", "ttm", "amdttm"};

	return (unsigned)k < GD_KMOD_N ? names[k] : "?";
}

const char *gd_kstate_param(const struct gd_kstate *k, const char *module,
			    const char *param)
{
	for (int m = 0; m < GD_KMOD_N; m++) {
		const struct gd_kmodule *km = &k->mod[m];

		if (strcmp(gd_kmod_name((enum gd_kmod)m), module))
			continue;
		for (size_t i = 0; i < km->n; i++)
			if (!strcmp(km->p[i].name, param))
				return km->p[i].value;
	}
	return NULL;
}

static const struct gd_kopt *last_in(const struct gd_kopts *o,
				     const char *module, const char *param)
{
	const struct gd_kopt *hit = NULL;

	for (size_t i = 0; i < o->n; i++)
		if (!strcmp(o->v[i].module, module) &&
		    !strcmp(o->v[i].param, param))
			hit = &o->v[i];
	return hit;
}

const struct gd_kopt *gd_kstate_asked(const struct gd_kstate *k,
				      const char *module, const char *param)
{
	const struct gd_kopt *c = last_in(&k->cmd, module, param);

	return c ? c : last_in(&k->modprobe, module, param);
}

const struct gd_kopt *gd_kstate_blacklisted(const struct gd_kstate *k,
					    const char *module)
{
	for (size_t i = 0; i < k->cmd.n_black; i++)
		if (!strcmp(k->cmd.black[i].module, module))
			return &k->cmd.black[i];
	for (size_t i = 0; i < k->modprobe.n_black; i++)
		if (!strcmp(k->modprobe.black[i].module, module))
			return &k->modprobe.black[i];
	return NULL;
}

const char *gd_fw_get(const struct gd_fw *fw, const char *name)
{
	for (size_t i = 0; i < fw->n; i++)
		if (!strcmp(fw->v[i].name, name))
			return fw->v[i].value;
	return NULL;
}
