/* The stable codes of verdict facts and steps (doctor/codes.h): one table,
 * no duplicates, every code a lower-case dotted identifier with a meaning;
 * docs/codes.md is exactly the table (GPUDOCTOR_UPDATE_EXPECTED=1 rewrites
 * it); and every "code" in the captured machines' JSON reports is in it. */
#include <glob.h>
#include <jansson.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "doctor/codes.h"
#include "t.h"

static const char *srcdir(void)
{
	const char *d = getenv("GD_SRCDIR");

	return d ? d : "..";
}

static int in_table(const char *code)
{
	for (int i = 0; i < GD_N_CODES; i++)
		if (!strcmp(gd_code_name((enum gd_code)i), code))
			return 1;
	return 0;
}

static void test_table(void)
{
	regex_t re;

	CHECK_INT(regcomp(&re, "^[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)+$",
			  REG_EXTENDED | REG_NOSUB),
		  0);
	for (int i = 0; i < GD_N_CODES; i++) {
		const char *c = gd_code_name((enum gd_code)i);

		if (regexec(&re, c, 0, NULL, 0)) {
			t_fail++;
			fprintf(stderr,
				"code '%s' is not a dotted identifier\n", c);
		}
		CHECK(gd_code_meaning((enum gd_code)i)[0] != '\0');
		for (int j = 0; j < i; j++)
			if (!strcmp(c, gd_code_name((enum gd_code)j))) {
				t_fail++;
				fprintf(stderr, "code '%s' twice\n", c);
			}
	}
	regfree(&re);
}

/* docs/codes.md as the table says it. */
static char *render_doc(void)
{
	size_t cap = 64 * 1024, used = 0;
	char *b = malloc(cap);

	if (!b)
		return NULL;
	gd_fmt(b, cap,
	       "# Verdict codes\n\n"
	       "Every fact and step of a verdict, and every workload advice, "
	       "carries one of these\nstable codes beside its text (`check "
	       "--json`: `{\"code\": ..., \"text\": ...}`,\ndocs/json.md). "
	       "Key on the code, never on the text. Generated from\n"
	       "`src/doctor/codes.h` by `tests/unit/test_codes.c` "
	       "(`GPUDOCTOR_UPDATE_EXPECTED=1`\nrewrites it); do not edit "
	       "by hand.\n\n| code | meaning |\n| --- | --- |\n");
	used = strlen(b);
	for (int i = 0; i < GD_N_CODES && used + 1 < cap; i++) {
		gd_fmt(b + used, cap - used, "| `%s` | %s |\n",
		       gd_code_name((enum gd_code)i),
		       gd_code_meaning((enum gd_code)i));
		used += strlen(b + used);
	}
	return b;
}

static void test_doc(void)
{
	char path[4096];
	char *want = render_doc(), *have = NULL;
	size_t n = 0;
	FILE *f;

	CHECK(want != NULL);
	if (!want)
		return;
	gd_fmt(path, sizeof path, "%s/docs/codes.md", srcdir());
	if (getenv("GPUDOCTOR_UPDATE_EXPECTED")) {
		f = fopen(path, "w");
		CHECK(f != NULL);
		if (f) {
			fputs(want, f);
			fclose(f);
		}
	}
	f = fopen(path, "r");
	if (f) {
		have = calloc(1, 128 * 1024);
		n = have ? fread(have, 1, 128 * 1024 - 1, f) : 0;
		fclose(f);
	}
	if (!have || n != strlen(want) || memcmp(have, want, n)) {
		t_fail++;
		fprintf(stderr,
			"%s does not match src/doctor/codes.h: run "
			"GPUDOCTOR_UPDATE_EXPECTED=1 ctest -R test_codes\n",
			path);
	}
	free(have);
	free(want);
}

/* Every "code" member anywhere in a report is in the table. */
static void walk(const json_t *v, const char *file, int *seen)
{
	const char *k;
	json_t *m;
	size_t i;

	if (json_is_array(v))
		json_array_foreach(v, i, m) walk(m, file, seen);
	if (!json_is_object(v))
		return;
	json_object_foreach((json_t *)v, k, m)
	{
		if (!strcmp(k, "code") && json_is_string(m)) {
			(*seen)++;
			if (!in_table(json_string_value(m))) {
				t_fail++;
				fprintf(stderr,
					"%s: code '%s' is not in the "
					"table\n",
					file, json_string_value(m));
			}
		}
		walk(m, file, seen);
	}
}

static void test_reports(void)
{
	char pat[4096];
	glob_t g;
	int seen = 0;

	gd_fmt(pat, sizeof pat, "%s/tests/fixtures/*/expected.json", srcdir());
	CHECK_INT(glob(pat, 0, NULL, &g), 0);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		json_t *doc = json_load_file(g.gl_pathv[i], 0, NULL);

		CHECK(doc != NULL);
		walk(doc, g.gl_pathv[i], &seen);
		json_decref(doc);
	}
	CHECK(seen > 100);
	globfree(&g);
}

int main(void)
{
	test_table();
	test_doc();
	test_reports();
	return t_done("test_codes");
}
