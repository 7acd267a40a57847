/* gpudoctor kb CAUSE and kb SIGNATURE: what explain's cause codes and
 * signature ids mean (docs/kb.md, "causes"), so that a user or an app that
 * got one from `explain --json` can look it up: a cause with the messages
 * that name it, a signature with its causes in order. */
#include <stdio.h>

#include "cmd_kb.h"
#include "core/json.h"
#include "core/util.h"

/* Where code stands in sig's causes: 1 first, 0 not named. */
static size_t rank_of(const struct gd_kb_signature *sig, const char *code)
{
	for (size_t i = 0; i < gd_kb_list_n(sig->causes); i++)
		if (gd_streq(gd_kb_list_at(sig->causes, i), code))
			return i + 1;
	return 0;
}

static json_t *cause_json(const gd_kb *kb, const char *code)
{
	json_t *r = json_object(), *sigs = json_array();
	struct gd_kb_signature s;
	size_t rank;

	json_object_set_new(r, "id", gd_json_str(code));
	json_object_set_new(r, "text", gd_json_str(gd_kb_cause_text(kb, code)));
	for (size_t i = 0; i < gd_kb_signature_count(kb); i++)
		if (gd_kb_signature_at(kb, i, &s) == 0 &&
		    (rank = rank_of(&s, code)))
			json_array_append_new(
			    sigs,
			    json_pack("{s:s?, s:s?, s:I}", "id", s.id, "title",
				      s.title, "rank", (json_int_t)rank));
	json_object_set_new(r, "signatures", sigs);
	return r;
}

/* The kb's evidence rules (docs/kb.md "evidence") that may put another
 * cause first for this signature: the lines that point to it. */
static json_t *evidence_json(const gd_kb *kb, const char *sig)
{
	json_t *a = json_array();
	struct gd_kb_evidence e;

	for (size_t i = 0; i < gd_kb_evidence_count(kb); i++) {
		json_t *m;

		if (gd_kb_evidence_at(kb, i, &e) < 0 ||
		    !gd_kb_list_has(e.signatures, sig))
			continue;
		m = json_array();
		for (size_t j = 0; j < gd_kb_list_n(e.markers); j++)
			json_array_append_new(
			    m, gd_json_str(gd_kb_list_at(e.markers, j)));
		json_array_append_new(
		    a, json_pack("{s:s, s:s, s:o, s:s}", "id", e.id, "cause",
				 e.cause, "markers", m, "text", e.text));
	}
	return a;
}

static json_t *signature_json(const gd_kb *kb, const struct gd_kb_signature *s)
{
	json_t *r = json_object(), *causes = json_array();

	json_object_set_new(r, "id", gd_json_str(s->id));
	json_object_set_new(r, "title", gd_json_str(s->title));
	json_object_set_new(r, "meaning", gd_json_str(s->meaning));
	for (size_t i = 0; i < gd_kb_list_n(s->causes); i++) {
		const char *c = gd_kb_list_at(s->causes, i);

		json_array_append_new(causes,
				      json_pack("{s:s?, s:s?}", "id", c, "text",
						gd_kb_cause_text(kb, c)));
	}
	json_object_set_new(r, "causes", causes);
	json_object_set_new(r, "fix", gd_json_str(s->fix));
	json_object_set_new(r, "evidence", evidence_json(kb, s->id));
	return r;
}

static void print_cause(struct gd_cli *cli, const json_t *r)
{
	const json_t *sigs = json_object_get(r, "signatures"), *s;
	size_t i;

	printf("%s%s%s  (a cause)\n  %s\n", gd_c_bold(cli),
	       gd_cmd_kb_str_or(r, "id", "?"), gd_c_off(cli),
	       gd_cmd_kb_str_or(r, "text", "?"));
	printf("  named by %zu signature%s (rank: 1 = its likeliest cause):\n",
	       json_array_size(sigs), json_array_size(sigs) == 1 ? "" : "s");
	json_array_foreach(sigs, i, s)
	    printf("    %-36s %lld  %s\n", gd_cmd_kb_str_or(s, "id", "?"),
		   (long long)json_integer_value(json_object_get(s, "rank")),
		   gd_cmd_kb_str_or(s, "title", ""));
}

static void print_signature(struct gd_cli *cli, const json_t *r)
{
	const json_t *c;
	size_t i;

	printf("%s%s%s  %s (a signature)\n  %s\n", gd_c_bold(cli),
	       gd_cmd_kb_str_or(r, "id", "?"), gd_c_off(cli),
	       gd_cmd_kb_str_or(r, "title", ""),
	       gd_cmd_kb_str_or(r, "meaning", ""));
	printf("  causes, likeliest first:\n");
	json_array_foreach(json_object_get(r, "causes"), i, c)
	    printf("    (%zu) %s: %s\n", i + 1, gd_cmd_kb_str_or(c, "id", "?"),
		   gd_cmd_kb_str_or(c, "text", "?"));
	printf("  fix: %s\n", gd_cmd_kb_str_or(r, "fix", "-"));
	if (json_array_size(json_object_get(r, "evidence")))
		printf("  another cause first, when the log also says:\n");
	json_array_foreach(json_object_get(r, "evidence"), i, c)
	{
		const json_t *m;
		size_t j;

		printf("   ");
		json_array_foreach(json_object_get(c, "markers"), j, m)
		    printf("%s \"%s\"", j ? " or" : "", json_string_value(m));
		printf(": %s (%s)\n", gd_cmd_kb_str_or(c, "cause", "?"),
		       gd_cmd_kb_str_or(c, "id", "?"));
	}
}

int gd_cmd_kb_show_cause(struct gd_cli *cli, const gd_kb *kb, const char *q,
			 json_t **json, const char **kind)
{
	struct gd_kb_signature s;
	int cause = gd_kb_cause_text(kb, q) != NULL;
	json_t *r;

	if (!cause && (gd_kb_signature_get(kb, q, &s) < 0 || !s.id))
		return 0;
	r = cause ? cause_json(kb, q) : signature_json(kb, &s);
	*kind = cause ? "cause" : "signature";
	*json = NULL;
	if (cli->json) {
		*json = r;
		return 1;
	}
	(cause ? print_cause : print_signature)(cli, r);
	json_decref(r);
	return 1;
}
