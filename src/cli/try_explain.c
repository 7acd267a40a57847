/* `gpudoctor try`: why each strategy failed, from its own output. The last
 * lines a failed strategy printed go through explain's signatures and error
 * codes (doctor/explain.h); the first known cause is kept with a fix for the
 * program being tried (gd_explain_program_fix: "rebuild gpu_burn for
 * sm_90", not the kb's advice for PyTorch wheels, unless the output is
 * PyTorch's). Printed under the table, one line per distinct cause. */
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "doctor/errcodes.h"
#include "doctor/explain.h"
#include "try_int.h"

/* The program's name as the user gave it: its last path component. */
static const char *program_name(const struct gd_try *t)
{
	const char *a = t->argv && t->argv[0] ? t->argv[0] : NULL, *s;

	if (!a)
		return NULL;
	s = strrchr(a, '/');
	return s ? s + 1 : a;
}

static void from_match(const struct gd_try *t, struct gd_try_row *row,
		       const struct gd_explain_match *mt, const char *buf,
		       size_t n)
{
	gd_fmt(row->cause, sizeof row->cause, "%s (%s; log: %s)",
	       mt->sig.title ? mt->sig.title : mt->id, mt->id, mt->text);
	if (!gd_explain_program_fix(mt->id, buf, n, program_name(t), &t->m,
				    row->cause_fix, sizeof row->cause_fix))
		gd_strlcpy(row->cause_fix, mt->sig.fix ? mt->sig.fix : "",
			   sizeof row->cause_fix);
}

static void from_code(struct gd_try_row *row, const struct gd_explain_code *e)
{
	const struct gd_errcode *c = e->c;

	gd_fmt(row->cause, sizeof row->cause, "%s = %lld (%s): %s", c->name,
	       c->value, gd_errcode_apis[c->api].type, c->meaning);
	gd_strlcpy(row->cause_fix, c->cause, sizeof row->cause_fix);
}

void gd_try_explain_row(struct gd_cli *cli, const struct gd_try *t,
			struct gd_try_row *row, const char *output)
{
	struct gd_explain_result r;
	size_t n = strlen(output);
	char *buf = malloc(n + 1);

	row->cause[0] = row->cause_fix[0] = '\0';
	if (!buf)
		return;
	memcpy(buf, output, n + 1);
	memset(&r, 0, sizeof r);
	if (gd_explain_scan(&cli->ctx, buf, n, &r) == 0) {
		if (r.m.n)
			from_match(t, row, &r.m.v[0], output, n);
		else if (r.codes.n)
			from_code(row, &r.codes.v[0]);
	}
	gd_sanitize(row->cause);
	gd_sanitize(row->cause_fix);
	gd_explain_result_free(&r);
	free(buf);
}

void gd_try_print_causes(struct gd_cli *cli, const struct gd_try *t)
{
	int header = 0;

	for (size_t k = 0; k < t->list.v.n; k++) {
		const struct gd_try_row *r = &t->rows[k];
		int seen = 0;

		if (!r->ran || !r->cause[0])
			continue;
		for (size_t j = 0; j < k && !seen; j++)
			seen = t->rows[j].ran &&
			       !strcmp(t->rows[j].cause, r->cause);
		if (seen)
			continue;
		if (!header++)
			printf("\n%sWhy%s (gpudoctor explain on each failed "
			       "strategy's output):\n",
			       gd_c_bold(cli), gd_c_off(cli));
		printf("  %s", t->list.v.v[k].id);
		for (size_t j = k + 1; j < t->list.v.n; j++)
			if (t->rows[j].ran &&
			    !strcmp(t->rows[j].cause, r->cause))
				printf(", %s", t->list.v.v[j].id);
		printf(": %s\n", r->cause);
		if (r->cause_fix[0])
			printf("      fix: %s\n", r->cause_fix);
	}
}
