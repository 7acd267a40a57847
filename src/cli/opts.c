/* Option tables (opts.h): getopt_long arrays and --help lines. */
#include <string.h>

#include "opts.h"

void gd_opts_build(struct gd_getopt *g, const struct gd_opt *t,
		   int stop_at_operand)
{
	static const int has_arg[] = {no_argument, required_argument,
				      optional_argument};
	size_t n = 0, s = 0;

	memset(g, 0, sizeof *g);
	if (stop_at_operand)
		g->so[s++] = '+';
	for (; t->name && n < GD_OPTS_MAX; t++, n++) {
		g->lo[n].name = t->name;
		g->lo[n].has_arg = has_arg[t->arg];
		g->lo[n].val = t->id;
		if (!t->short_name)
			continue;
		g->so[s++] = t->short_name;
		if (t->arg != GD_ARG_NONE)
			g->so[s++] = ':';
		if (t->arg == GD_ARG_OPTIONAL)
			g->so[s++] = ':';
	}
}

/* "  -p, --profile NAME", "      --save-as NAME", "  --color[=WHEN]" */
static void left_text(const struct gd_opt *o, int shorts, char *buf, size_t cap)
{
	char sh[8] = "";
	const char *val = o->arg == GD_ARG_NONE ? "" : o->value;

	if (o->short_name)
		snprintf(sh, sizeof sh, "-%c, ", o->short_name);
	else if (shorts)
		snprintf(sh, sizeof sh, "    ");
	snprintf(buf, cap, "  %s--%s%s%s%s", sh, o->name,
		 o->arg == GD_ARG_OPTIONAL ? "[="
		 : *val			   ? " "
					   : "",
		 val, o->arg == GD_ARG_OPTIONAL ? "]" : "");
}

void gd_opts_help(FILE *f, const struct gd_opt *t)
{
	const struct gd_opt *o;
	char left[96];
	size_t col = 0, n;
	int shorts = 0;

	for (o = t; o->name; o++)
		shorts |= o->help && o->short_name;
	for (o = t; o->name; o++) {
		if (!o->help)
			continue;
		left_text(o, shorts, left, sizeof left);
		n = strlen(left);
		col = n > col ? n : col;
	}
	for (o = t; o->name; o++) {
		const char *h = o->help, *nl;

		if (!h)
			continue;
		left_text(o, shorts, left, sizeof left);
		fprintf(f, "%-*s  ", (int)col, left);
		while ((nl = strchr(h, '\n'))) {
			fprintf(f, "%.*s\n%*s", (int)(nl - h), h, (int)col + 2,
				"");
			h = nl + 1;
		}
		fprintf(f, "%s\n", h);
	}
}

const struct gd_opt *gd_opts_find(const struct gd_opt *t, const char *word)
{
	size_t n;

	if (!word || word[0] != '-' || !word[1])
		return NULL;
	for (; t->name; t++) {
		if (word[1] != '-') {
			if (t->short_name && word[1] == t->short_name)
				return t;
			continue;
		}
		n = strlen(t->name);
		if (!strncmp(word + 2, t->name, n) &&
		    (word[2 + n] == '\0' || word[2 + n] == '='))
			return t;
	}
	return NULL;
}

size_t gd_opts_values(const struct gd_opt *o, const char **out, size_t cap)
{
	size_t n = 0;

	if (o->values_fn)
		return o->values_fn(out, cap);
	for (const char *const *p = o->values; p && *p && n < cap; p++)
		out[n++] = *p;
	return n;
}

int gd_opts_value_ok(const struct gd_opt *o, const char *v)
{
	const char *vals[GD_OPTS_VALUES_MAX];
	size_t n = gd_opts_values(o, vals, GD_OPTS_VALUES_MAX);

	for (size_t i = 0; i < n; i++)
		if (!strcmp(vals[i], v))
			return 1;
	return n == 0;
}

void gd_opts_values_text(const struct gd_opt *o, char *buf, size_t cap)
{
	const char *vals[GD_OPTS_VALUES_MAX];
	size_t n = gd_opts_values(o, vals, GD_OPTS_VALUES_MAX), len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && len < cap; i++)
		len += (size_t)snprintf(buf + len, cap - len, "%s%s",
					!i	    ? ""
					: i + 1 < n ? ", "
						    : " or ",
					vals[i]);
}
