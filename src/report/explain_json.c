/* explain's JSON document (docs/schema/explain.json) and its fixes, for
 * the command line (cli/cmd_explain.c) and the C API
 * (gpudoctor_explain_json) alike, so both print the same bytes. */
#include <string.h>

#include "check_data.h"
#include "core/json.h"
#include "core/util.h"
#include "doctor/errcodes.h"
#include "explain_json.h"
#include "view.h"

int gd_explain_here(gd_ctx *ctx, struct gd_explain_log *log,
		    struct gd_machine *m, struct gd_inventory *inv,
		    struct gd_explain_result *r)
{
	if (gd_discover(ctx, m) < 0 || gd_check_inventory(ctx, inv) < 0 ||
	    gd_explain_scan_log(ctx, log, m, r) < 0)
		return -1;
	return 0;
}

/* The kb's fix, or one for the program itself when the log is not from a
 * framework the kb's fix is written for (gd_explain_program_fix). */
const char *gd_explain_fix(const struct gd_explain_view *x,
			   const struct gd_explain_match *mt, char *buf,
			   size_t cap)
{
	const struct gd_explain_log *l = x->log;

	if (l &&
	    gd_explain_program_fix(mt->id, l->head, l->head_len, x->program,
				   x->m, buf, cap) &&
	    (!l->tail || gd_explain_program_fix(mt->id, l->tail, l->tail_len,
						x->program, x->m, buf, cap)))
		return buf;
	return mt->sig.fix;
}

/* A code of the "no code for this GPU" family (CUDA_ERROR_NO_BINARY_FOR_GPU
 * with no signature's wording around it): the program's own fix, else
 * NULL. */
const char *gd_explain_code_fix(const struct gd_explain_view *x,
				const struct gd_explain_code *e, char *buf,
				size_t cap)
{
	const struct gd_explain_log *l = x->log;

	if (l &&
	    gd_explain_program_fix(e->c->name, l->head, l->head_len, x->program,
				   x->m, buf, cap) &&
	    (!l->tail ||
	     gd_explain_program_fix(e->c->name, l->tail, l->tail_len,
				    x->program, x->m, buf, cap)))
		return buf;
	return NULL;
}

/* The match's public sources (resolved by doctor): the first, and all. */
static void source_urls(const struct gd_explain_match *mt, json_t **first,
			json_t **all)
{
	char urls[sizeof mt->urls], *save = NULL;

	*all = json_array();
	*first = NULL;
	gd_strlcpy(urls, mt->urls, sizeof urls);
	for (char *u = strtok_r(urls, " ", &save); u;
	     u = strtok_r(NULL, " ", &save)) {
		json_array_append_new(*all, gd_json_str(u));
		if (!*first)
			*first = gd_json_str(u);
	}
	if (!*first)
		*first = json_null();
}

/* [{"id": code, "text": what it means}], likeliest first. */
static json_t *causes_json(const struct gd_explain_view *x,
			   const struct gd_explain_match *mt,
			   enum gd_check_verdict v)
{
	const gd_kb *kb = x->ctx->kb;
	const char *c[GD_EXPLAIN_MAX_CAUSES];
	size_t n = gd_explain_causes_here(kb, mt, v, c, GD_EXPLAIN_MAX_CAUSES);
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++) {
		json_t *o = json_object();

		json_object_set_new(o, "id", gd_json_str(c[i]));
		json_object_set_new(o, "text",
				    gd_json_str(gd_kb_cause_text(kb, c[i])));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *match_json(const struct gd_explain_view *x,
			  const struct gd_explain_match *mt)
{
	json_t *o = json_object(), *chk = json_object(), *first, *all;
	const char *kind = mt->sig.check_name;
	char fact[1024], pfix[1024];
	enum gd_check_verdict v;

	v = gd_explain_check(x->ctx, mt->sig.check, x->m, x->inv, fact,
			     sizeof fact);
	source_urls(mt, &first, &all);
	json_object_set_new(o, "id", gd_json_str(mt->id));
	json_object_set_new(o, "title", gd_json_str(mt->sig.title));
	json_object_set_new(o, "line", json_integer((json_int_t)mt->line));
	json_object_set_new(o, "in_tail", json_boolean(mt->in_tail));
	json_object_set_new(o, "text", gd_json_str(mt->text));
	if (mt->detail[0])
		json_object_set_new(o, "detail", gd_json_str(mt->detail));
	json_object_set_new(o, "meaning", gd_json_str(mt->sig.meaning));
	json_object_set_new(o, "alternative",
			    gd_json_str_or_null(mt->alternative));
	json_object_set_new(o, "alternative_id",
			    mt->alt_id ? gd_json_str(mt->alt_id) : json_null());
	json_object_set_new(o, "alternative_first",
			    json_boolean(mt->alt_id != NULL));
	json_object_set_new(o, "causes", causes_json(x, mt, v));
	json_object_set_new(
	    o, "fix", gd_json_str(gd_explain_fix(x, mt, pfix, sizeof pfix)));
	json_object_set_new(chk, "kind", gd_json_str(kind ? kind : "none"));
	json_object_set_new(chk, "verdict",
			    gd_json_str(gd_check_verdict_name(v)));
	json_object_set_new(chk, "fact", gd_json_str(fact));
	json_object_set_new(o, "check", chk);
	json_object_set_new(o, "source", first);
	json_object_set_new(o, "sources", all);
	return o;
}

static json_t *code_json(const struct gd_explain_view *x,
			 const struct gd_explain_code *e)
{
	json_t *o = json_object();
	const struct gd_errcode_api *a = &gd_errcode_apis[e->c->api];
	char fix[1024];
	const char *f = gd_explain_code_fix(x, e, fix, sizeof fix);

	json_object_set_new(o, "type", gd_json_str(a->type));
	json_object_set_new(o, "name", gd_json_str(e->c->name));
	json_object_set_new(o, "value", json_integer((json_int_t)e->c->value));
	json_object_set_new(o, "meaning", gd_json_str(e->c->meaning));
	json_object_set_new(o, "cause",
			    e->c->cause[0] ? gd_json_str(e->c->cause)
					   : json_null());
	json_object_set_new(o, "matched",
			    gd_json_str(e->by_number == GD_CODE_BY_TEXT ? "text"
					: e->by_number ? "number"
						       : "name"));
	json_object_set_new(o, "line", json_integer((json_int_t)e->line));
	json_object_set_new(o, "in_tail", json_boolean(e->in_tail));
	json_object_set_new(o, "text", gd_json_str(e->text));
	json_object_set_new(o, "headers", gd_json_str(a->pin));
	json_object_set_new(o, "fix", f ? gd_json_str(f) : json_null());
	return o;
}

json_t *gd_explain_doc(const struct gd_explain_view *x)
{
	json_t *doc = gd_cli_json_doc("explain"), *arr = json_array();

	json_object_set_new(doc, "input", gd_json_str(x->input));
	json_object_set_new(doc, "lines",
			    json_integer((json_int_t)x->r->lines));
	json_object_set_new(doc, "bytes",
			    json_integer((json_int_t)x->r->bytes));
	json_object_set_new(doc, "truncated", json_boolean(x->r->truncated));
	json_object_set_new(doc, "skipped_bytes",
			    json_integer((json_int_t)x->r->skipped));
	json_object_set_new(doc, "signatures_checked",
			    json_integer((json_int_t)x->r->n_signatures));
	for (size_t i = 0; i < x->r->m.n; i++)
		json_array_append_new(arr, match_json(x, &x->r->m.v[i]));
	json_object_set_new(doc, "matches", arr);
	arr = json_array();
	for (size_t i = 0; i < x->r->codes.n; i++)
		json_array_append_new(arr, code_json(x, &x->r->codes.v[i]));
	json_object_set_new(doc, "codes", arr);
	return doc;
}
