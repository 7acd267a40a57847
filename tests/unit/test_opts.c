/* Option tables (src/cli/opts.c): the getopt_long arrays built from a
 * table, the --help lines, lookups and value lists. */
#include <stdlib.h>
#include <string.h>

#include "cli/opts.h"
#include "t.h"

static const char *const colors[] = {"always", "never", "auto", NULL};

static size_t two(const char **out, size_t cap)
{
	static const char *const v[] = {"cuda", "hip"};
	size_t n = 0;

	for (; n < 2 && n < cap; n++)
		out[n] = v[n];
	return n;
}

static const struct gd_opt table[] = {
    {"profile", 'p', 'p', GD_ARG_REQUIRED, "NAME", "a profile\nor a path", NULL,
     NULL},
    {"quiet", 'q', 'q', GD_ARG_NONE, NULL, "no line", NULL, NULL},
    {"save-as", 0, 'S', GD_ARG_REQUIRED, "NAME", "named", NULL, NULL},
    {"color", 0, 'c', GD_ARG_OPTIONAL, "WHEN", "when", colors, NULL},
    {"backend", 0, 'b', GD_ARG_REQUIRED, "LIST", "backends", NULL, two},
    {"no-colour", 0, 'C', GD_ARG_NONE, NULL, NULL, NULL, NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
};

static void test_build(void)
{
	struct gd_getopt g;

	gd_opts_build(&g, table, 0);
	CHECK_STR(g.so, "p:q");
	gd_opts_build(&g, table, 1);
	CHECK_STR(g.so, "+p:q");
	CHECK_STR(g.lo[2].name, "save-as");
	CHECK_INT(g.lo[2].has_arg, required_argument);
	CHECK_INT(g.lo[2].val, 'S');
	CHECK_INT(g.lo[3].has_arg, optional_argument);
	CHECK(g.lo[6].name == NULL); /* getopt's terminator */
}

static void test_help(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	gd_opts_help(f, table);
	fclose(f);
	/* one column, two spaces after the widest; the alias is not shown */
	CHECK_STR(buf, "  -p, --profile NAME  a profile\n"
		       "                      or a path\n"
		       "  -q, --quiet         no line\n"
		       "      --save-as NAME  named\n"
		       "      --color[=WHEN]  when\n"
		       "      --backend LIST  backends\n");
	free(buf);
}

static void test_find_values(void)
{
	char text[64];

	CHECK(gd_opts_find(table, "--profile") == &table[0]);
	CHECK(gd_opts_find(table, "--profile=x") == &table[0]);
	CHECK(gd_opts_find(table, "-p") == &table[0]);
	CHECK(gd_opts_find(table, "-pNAME") == &table[0]);
	CHECK(gd_opts_find(table, "--prof") ==
	      NULL); /* no abbreviations here */
	CHECK(gd_opts_find(table, "--save") == NULL);
	CHECK(gd_opts_find(table, "save-as") == NULL);
	CHECK(gd_opts_find(table, "-") == NULL);
	CHECK(gd_opts_value_ok(&table[3], "never"));
	CHECK(!gd_opts_value_ok(&table[3], "sometimes"));
	CHECK(gd_opts_value_ok(&table[0], "anything"));
	CHECK(gd_opts_value_ok(&table[4], "hip"));
	CHECK(!gd_opts_value_ok(&table[4], "metal"));
	gd_opts_values_text(&table[3], text, sizeof text);
	CHECK_STR(text, "always, never or auto");
	gd_opts_values_text(&table[4], text, sizeof text);
	CHECK_STR(text, "cuda or hip");
	gd_opts_values_text(&table[3], text, 10); /* truncated, terminated */
	CHECK_STR(text, "always, n");
}

int main(void)
{
	test_build();
	test_help();
	test_find_values();
	return t_done("test_opts");
}
