/* Profiles: parse, validate, format, apply. Loading and saving (the file
 * permission checks) live in profile_file.c. */
#include "profile.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gd_profile_init(struct gd_profile *p)
{
	memset(p, 0, sizeof *p);
}

void gd_profile_free(struct gd_profile *p)
{
	for (size_t i = 0; i < p->items.n; i++)
		free(p->items.v[i].value);
	gd_vec_free(&p->items);
	gd_strvec_free(&p->notes);
	gd_profile_init(p);
}

int gd_profile_add(struct gd_profile *p, enum gd_prof_op op, const char *name,
		   const char *value)
{
	struct gd_prof_item *it;
	char *v = NULL;

	if (value && !(v = strdup(value)))
		return -ENOMEM;
	it = gd_vec_push(&p->items);
	if (!it) {
		free(v);
		return -ENOMEM;
	}
	it->op = op;
	gd_strlcpy(it->name, name, sizeof it->name);
	it->value = v;
	return 0;
}

int gd_profile_add_note(struct gd_profile *p, const char *note)
{
	char *s = strdup(note);
	char **slot;

	if (!s)
		return -ENOMEM;
	slot = gd_vec_push(&p->notes);
	if (!slot) {
		free(s);
		return -ENOMEM;
	}
	*slot = s;
	return 0;
}

int gd_profile_copy(struct gd_profile *dst, const struct gd_profile *src)
{
	gd_profile_init(dst);
	memcpy(dst->name, src->name, sizeof dst->name);
	memcpy(dst->path, src->path, sizeof dst->path);
	memcpy(dst->strategy, src->strategy, sizeof dst->strategy);
	memcpy(dst->saved, src->saved, sizeof dst->saved);
	for (size_t i = 0; i < src->items.n; i++) {
		const struct gd_prof_item *it = &src->items.v[i];

		if (gd_profile_add(dst, it->op, it->name, it->value) < 0)
			goto oom;
	}
	for (size_t i = 0; i < src->notes.n; i++)
		if (gd_profile_add_note(dst, src->notes.v[i]) < 0)
			goto oom;
	return 0;
oom:
	gd_profile_free(dst);
	return -ENOMEM;
}

int gd_env_name_valid(const char *name)
{
	size_t i;

	if (!name || !(isalpha((unsigned char)name[0]) || name[0] == '_'))
		return 0;
	for (i = 1; name[i]; i++)
		if (!(isalnum((unsigned char)name[i]) || name[i] == '_'))
			return 0;
	return i < 128;
}

int gd_override_parse(const char *s, char *gfx, size_t gfxcap, char *why,
		      size_t whycap)
{
	unsigned major = 0, minor = 0, step = 0;
	char dummy;

	/* Exactly libhsakmt (docs/discover.md): the same sscanf, the same
	 * limits, so " 10.3.0" passes and "10.3.0 ", "10.3", "gfx1030" fail as
	 * there. */
	if (sscanf(s, "%u.%u.%u%c", &major, &minor, &step, &dummy) != 3) {
		gd_fmt(
		    why, whycap,
		    "'%s' is not MAJOR.MINOR.STEPPING in "
		    "decimal (e.g. 10.3.0); ROCm rejects it and finds no GPU",
		    s);
		return -1;
	}
	if (major > 63 || minor > 255 || step > 255) {
		gd_fmt(why, whycap,
		       "'%s' is out of range (major <= 63, minor "
		       "and stepping <= 255); ROCm rejects it",
		       s);
		return -1;
	}
	/* gfx names print each part in hex: 9.0.10 -> gfx90a. */
	gd_fmt(gfx, gfxcap, "gfx%u%x%x", major, minor, step);
	if (why && whycap)
		why[0] = '\0';
	return 0;
}

static int is_override_var(const char *name)
{
	const char *base = "HSA_OVERRIDE_GFX_VERSION";
	size_t k = strlen(base);

	if (strncmp(name, base, k))
		return 0;
	if (!name[k])
		return 1;
	if (name[k] != '_' || !name[k + 1])
		return 0;
	for (const char *c = name + k + 1; *c; c++)
		if (!isdigit((unsigned char)*c))
			return 0;
	return 1;
}

static int value_clean(const char *v)
{
	for (; *v; v++) {
		unsigned char c = (unsigned char)*v;

		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return 0;
	}
	return 1;
}

static int dir_valid(const char *d, char *err, size_t errlen)
{
	const char *rest = d;

	if (isalpha((unsigned char)d[0]) && d[1] == ':' &&
	    (d[2] == '\\' || d[2] == '/'))
		rest = d + 2; /* a Windows drive, for profiles made there */
	else if (d[0] != '/') {
		gd_fmt(err, errlen, "'%s' is not an absolute directory", d);
		return 0;
	}
	if (strpbrk(rest, ":;")) {
		gd_fmt(err, errlen, "'%s' holds a list separator (':' or ';')",
		       d);
		return 0;
	}
	return 1;
}

static int item_valid(const struct gd_prof_item *it, char *err, size_t errlen)
{
	char gfx[16], why[200];

	if (!gd_env_name_valid(it->name)) {
		gd_fmt(err, errlen,
		       "'%s' is not a valid variable name "
		       "(letters, digits, '_')",
		       it->name);
		return 0;
	}
	if (it->op == GD_PROF_UNSET)
		return 1;
	if (!it->value || strlen(it->value) >= GD_PROFILE_MAX_VALUE ||
	    !value_clean(it->value)) {
		gd_fmt(err, errlen,
		       "%s: the value is too long or holds "
		       "control characters",
		       it->name);
		return 0;
	}
	if (it->op == GD_PROF_PREPEND) {
		if (!it->value[0]) {
			gd_fmt(err, errlen, "%s: empty directory", it->name);
			return 0;
		}
		return dir_valid(it->value, err, errlen);
	}
	if (is_override_var(it->name) &&
	    gd_override_parse(it->value, gfx, sizeof gfx, why, sizeof why)) {
		gd_fmt(err, errlen, "%s: %s", it->name, why);
		return 0;
	}
	return 1;
}

int gd_profile_validate(const struct gd_profile *p, char *err, size_t errlen)
{
	for (size_t i = 0; i < p->items.n; i++)
		if (!item_valid(&p->items.v[i], err, errlen))
			return -1;
	return 0;
}

/* One directive: "set A=B" and friends. Returns 0 or -1 with err. */
static int parse_directive(struct gd_profile *p, const char *kw,
			   const char *rest, char *err, size_t errlen)
{
	static const struct {
		const char *kw;
		enum gd_prof_op op;
	} ops[] = {{"set", GD_PROF_SET}, {"prepend-path", GD_PROF_PREPEND}};
	char name[128];
	const char *eq;

	if (!strcmp(kw, "note"))
		return gd_profile_add_note(p, rest) ? -1 : 0;
	if (!strcmp(kw, "strategy") || !strcmp(kw, "saved")) {
		int s = kw[1] == 't';
		char *dst = s ? p->strategy : p->saved;
		size_t cap = s ? sizeof p->strategy : sizeof p->saved;
		size_t len;

		gd_strlcpy(dst, rest, cap);
		/* a cut can leave a trailing blank the next parse would trim:
		 * trim it now, so format -> parse is exact (found by fuzzing)
		 */
		len = strlen(dst);
		while (len && isspace((unsigned char)dst[len - 1]))
			dst[--len] = '\0';
		return 0;
	}
	if (!strcmp(kw, "unset")) {
		if (!gd_env_name_valid(rest)) {
			gd_fmt(err, errlen,
			       "unset: '%.64s' is not a variable "
			       "name",
			       rest);
			return -1;
		}
		return gd_profile_add(p, GD_PROF_UNSET, rest, NULL) ? -1 : 0;
	}
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		if (strcmp(kw, ops[i].kw))
			continue;
		eq = strchr(rest, '=');
		if (!eq || (size_t)(eq - rest) >= sizeof name) {
			gd_fmt(err, errlen, "%s: want NAME=VALUE", kw);
			return -1;
		}
		memcpy(name, rest, (size_t)(eq - rest));
		name[eq - rest] = '\0';
		if (!gd_env_name_valid(name)) {
			gd_fmt(err, errlen,
			       "%s: '%.64s' is not a variable "
			       "name",
			       kw, name);
			return -1;
		}
		return gd_profile_add(p, ops[i].op, name, eq + 1) ? -1 : 0;
	}
	gd_fmt(err, errlen,
	       "unknown directive '%.32s' (want set, unset, "
	       "prepend-path, note, strategy or saved)",
	       kw);
	return -1;
}

static int parse_line(struct gd_profile *p, char *line, char *err,
		      size_t errlen)
{
	char *s = gd_trim(line), *rest;

	if (!*s || *s == '#')
		return 0;
	rest = s + strcspn(s, " \t");
	if (*rest) {
		*rest++ = '\0';
		rest += strspn(rest, " \t");
	}
	return parse_directive(p, s, rest, err, errlen);
}

int gd_profile_parse(const char *buf, size_t len, struct gd_profile *p,
		     char *err, size_t errlen)
{
	char line[GD_PROFILE_MAX_VALUE + 256];
	char sub[200];
	size_t pos = 0;
	unsigned long ln = 0;

	if (len > GD_PROFILE_MAX_BYTES) {
		gd_fmt(err, errlen, "larger than %d bytes",
		       GD_PROFILE_MAX_BYTES);
		return -1;
	}
	if (len && memchr(buf, '\0', len)) {
		gd_fmt(err, errlen, "holds a NUL byte: not a text file");
		return -1;
	}
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (buf + pos)) : len - pos;

		ln++;
		if (n >= sizeof line) {
			gd_fmt(err, errlen, "line %lu: longer than %zu bytes",
			       ln, sizeof line - 1);
			return -1;
		}
		memcpy(line, buf + pos, n);
		line[n] = '\0';
		pos += n + (nl ? 1 : 0);
		sub[0] = '\0';
		if (parse_line(p, line, sub, sizeof sub) < 0) {
			gd_fmt(err, errlen, "line %lu: %s", ln,
			       sub[0] ? sub : "out of memory");
			return -1;
		}
	}
	return 0;
}

/* A growable string for format/summary. */
struct sbuf {
	char *s;
	size_t n, cap;
	int oom;
};

static void sb_add(struct sbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void sb_add(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (b->oom)
		return;
	va_start(ap, fmt);
	k = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (k < 0)
		return;
	if (b->n + (size_t)k + 1 > b->cap) {
		size_t ncap = (b->n + (size_t)k + 1) * 2;
		char *ns = realloc(b->s, ncap);

		if (!ns) {
			b->oom = 1;
			return;
		}
		b->s = ns;
		b->cap = ncap;
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
	va_end(ap);
	b->n += (size_t)k;
}

char *gd_profile_format(const struct gd_profile *p)
{
	static const char *kw[] = {"set", "unset", "prepend-path"};
	struct sbuf b = {0};

	sb_add(&b, "# gpudoctor profile%s%s\n", p->name[0] ? " " : "", p->name);
	sb_add(&b, "# Format: docs/workarounds.md. Must stay writable by "
		   "you only.\n");
	if (p->strategy[0])
		sb_add(&b, "strategy %s\n", p->strategy);
	if (p->saved[0])
		sb_add(&b, "saved %s\n", p->saved);
	for (size_t i = 0; i < p->notes.n; i++)
		sb_add(&b, "note %s\n", p->notes.v[i]);
	for (size_t i = 0; i < p->items.n; i++) {
		const struct gd_prof_item *it = &p->items.v[i];

		if (it->op == GD_PROF_UNSET)
			sb_add(&b, "unset %s\n", it->name);
		else
			sb_add(&b, "%s %s=%s\n", kw[it->op], it->name,
			       it->value);
	}
	if (b.oom) {
		free(b.s);
		return NULL;
	}
	return b.s;
}

/* A Windows profile (verdict_windows_env.c) prepends "C:\\...\\bin": its
 * PATH is ';'-separated. */
static char list_sep(const char *dir)
{
	return dir && isalpha((unsigned char)dir[0]) && dir[1] == ':' &&
		       (dir[2] == '\\' || dir[2] == '/')
		   ? ';'
		   : ':';
}

void gd_profile_summary(const struct gd_profile *p, char *buf, size_t cap)
{
	size_t used = 0;

	if (!cap)
		return;
	buf[0] = '\0';
	if (!p->items.n) {
		gd_strlcpy(buf, "no changes", cap);
		return;
	}
	for (size_t i = 0; i < p->items.n && used < cap; i++) {
		const struct gd_prof_item *it = &p->items.v[i];
		const char *sep = i ? ", " : "";

		if (it->op == GD_PROF_UNSET)
			gd_fmt(buf + used, cap - used, "%sunset %s", sep,
			       it->name);
		else
			gd_fmt(buf + used, cap - used, "%s%s=%s%s", sep,
			       it->name, it->value,
			       it->op != GD_PROF_PREPEND    ? ""
			       : list_sep(it->value) == ';' ? ";..."
							    : ":...");
		used += strlen(buf + used);
	}
}

/* Environment arrays: NULL-terminated, every entry malloc'ed. Names
 * compare as the system the environment is for compares them (fold:
 * Windows, where "Path" is PATH; core/ctx.h). */
const char *gd_env_get(char *const *env, const char *name)
{
	long i = gd_envv_find(env, name, gd_env_own_folds());

	return i < 0 ? NULL : env[i] + strlen(name) + 1;
}

void gd_env_free(char **env)
{
	for (size_t i = 0; env && env[i]; i++)
		free(env[i]);
	free(env);
}

/* Set NAME to a + b in *env (b may be NULL); a variable that exists keeps
 * its spelling (Windows' "Path" stays "Path"). 0 or -ENOMEM. */
static int env_put(char ***env, size_t *n, const char *name, const char *a,
		   const char *b, int fold)
{
	size_t len = strlen(name) + strlen(a) + (b ? strlen(b) : 0) + 2;
	char *e = malloc(len);
	long i = gd_envv_find(*env, name, fold);

	if (!e)
		return -ENOMEM;
	gd_fmt(e, len, "%.*s=%s%s", (int)strlen(name),
	       i >= 0 ? (*env)[i] : name, a, b ? b : "");
	if (i >= 0) {
		free((*env)[i]);
		(*env)[i] = e;
		return 0;
	}
	{
		char **ne = realloc(*env, (*n + 2) * sizeof *ne);

		if (!ne) {
			free(e);
			return -ENOMEM;
		}
		*env = ne;
		ne[(*n)++] = e;
		ne[*n] = NULL;
	}
	return 0;
}

static int env_apply_item(char ***env, size_t *n, const struct gd_prof_item *it,
			  int fold)
{
	long i = gd_envv_find(*env, it->name, fold);

	switch (it->op) {
	case GD_PROF_SET:
		return env_put(env, n, it->name, it->value, NULL, fold);
	case GD_PROF_UNSET:
		if (i < 0)
			return 0;
		free((*env)[i]);
		memmove(&(*env)[i], &(*env)[i + 1],
			(*n - (size_t)i) * sizeof **env);
		(*n)--;
		return 0;
	case GD_PROF_PREPEND: {
		const char *old = i < 0 ? "" : (*env)[i] + strlen(it->name) + 1;
		char *tail = NULL;
		int rc;

		if (*old) {
			size_t len = strlen(old) + 2;

			tail = malloc(len);
			if (!tail)
				return -ENOMEM;
			gd_fmt(tail, len, "%c%s", list_sep(it->value), old);
		}
		rc = env_put(env, n, it->name, it->value, tail, fold);
		free(tail);
		return rc;
	}
	}
	return 0;
}

char **gd_profile_apply(const struct gd_profile *p, char *const *base)
{
	return gd_profile_apply_env(p, base, gd_env_own_folds());
}

char **gd_profile_apply_env(const struct gd_profile *p, char *const *base,
			    int fold)
{
	size_t n = 0;
	char **env;

	while (base && base[n])
		n++;
	env = calloc(n + 1, sizeof *env);
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		env[i] = strdup(base[i]);
		if (!env[i])
			goto oom;
	}
	for (size_t i = 0; p && i < p->items.n; i++)
		if (env_apply_item(&env, &n, &p->items.v[i], fold) < 0)
			goto oom;
	return env;
oom:
	gd_env_free(env);
	return NULL;
}
