/* kb/: the schema check of causes{} (a cause code and what it means),
 * alternatives{} (an evidence alternative's id and the cause it names),
 * evidence[] (the rules that name such an alternative from a log's other
 * lines) and each signature's "causes" (the codes it names, likeliest
 * first). A kb without them still loads: explain then lists no causes. */
#include <string.h>

#include "kb.h"
#include "kb_validate.h"

#define GD_KBV_MAX_CAUSES 6 /* per signature: more is no answer */

/* "driver-older-than-toolkit": lower case, digits and '-', as JSON keys and
 * metric labels take them unquoted. */
static int is_code(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (!n || n > 48 || s[0] == '-' || s[n - 1] == '-')
		return 0;
	return strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789-") == n;
}

static int check_map(struct gd_kb_vctx *v, const json_t *root, const char *key,
		     const json_t *causes)
{
	const json_t *map = json_object_get(root, key), *val;
	const char *k;

	if (!map)
		return 0;
	if (!json_is_object(map))
		return gd_kbv_fail(v, key, 1,
				   "top-level \"%s\" must be an "
				   "object",
				   key);
	json_object_foreach((json_t *)map, k, val)
	{
		const char *s = json_string_value(val);

		gd_kbv_enter(v, NULL, NULL);
		if (!is_code(k))
			return gd_kbv_fail(v, k, 1,
					   "\"%s\": \"%s\" is not a code "
					   "(a-z, 0-9 and '-')",
					   key, k);
		if (!s || !*s || strlen(s) > 400)
			return gd_kbv_fail(v, k, 1,
					   "\"%s\": \"%s\" needs a text of 1 "
					   "to 400 bytes",
					   key, k);
		if (causes && !json_object_get(causes, s))
			return gd_kbv_fail(v, k, 1,
					   "alternative \"%s\" names \"%s\", "
					   "which causes{} does not define",
					   k, s);
	}
	return 0;
}

static int check_sig_causes(struct gd_kb_vctx *v, const json_t *sg,
			    const json_t *causes)
{
	const json_t *l = json_object_get(sg, "causes"), *c;
	size_t i, j;

	if (!l)
		return 0;
	gd_kbv_enter(v, "id", gd_kbv_str(sg, "id"));
	if (!json_is_array(l) || !json_array_size(l) ||
	    json_array_size(l) > GD_KBV_MAX_CAUSES)
		return gd_kbv_fail(v, "causes", 1,
				   "a signature's \"causes\" is a list of 1 to "
				   "%d cause codes",
				   GD_KBV_MAX_CAUSES);
	json_array_foreach(l, i, c)
	{
		const char *s = json_string_value(c);

		if (!s || !json_object_get(causes, s))
			return gd_kbv_fail(v, "causes", 1,
					   "signature \"%s\" names cause "
					   "\"%s\", which causes{} does not "
					   "define",
					   gd_kbv_str(sg, "id"), s ? s : "?");
		for (j = 0; j < i; j++)
			if (json_equal(json_array_get(l, j), c))
				return gd_kbv_fail(v, "causes", 1,
						   "signature \"%s\" names "
						   "\"%s\" twice",
						   gd_kbv_str(sg, "id"), s);
	}
	return 0;
}

/* Limits of an evidence rule (docs/kb.md "evidence"): a marker is a plain
 * substring looked for in the log's first and last 256 KiB, so a short
 * one would be found in any log; the text fills explain's 600-byte
 * alternative. */
#define GD_KBV_EV_MAX_SIGS 32
#define GD_KBV_EV_MAX_MARKERS 24
#define GD_KBV_EV_MARKER_MIN 3
#define GD_KBV_EV_MARKER_MAX 120
#define GD_KBV_EV_TEXT_MAX 560

static int has_signature(const json_t *root, const char *id)
{
	const json_t *sg;
	size_t i;

	json_array_foreach(json_object_get(root, "signatures"), i, sg)
	{
		const char *s = json_string_value(json_object_get(sg, "id"));

		if (s && !strcmp(s, id))
			return 1;
	}
	return 0;
}

/* A list of 1..max distinct strings of minlen..maxlen bytes. */
static int check_strlist(struct gd_kb_vctx *v, const json_t *e, const char *key,
			 size_t max, size_t minlen, size_t maxlen)
{
	const json_t *l = json_object_get(e, key), *x;
	size_t i, j;

	if (!json_is_array(l) || !json_array_size(l) ||
	    json_array_size(l) > max)
		return gd_kbv_fail(v, key, 1,
				   "evidence \"%s\": \"%s\" is a list of 1 "
				   "to %zu strings",
				   gd_kbv_str(e, "id"), key, max);
	json_array_foreach(l, i, x)
	{
		const char *s = json_string_value(x);
		size_t n = s ? strlen(s) : 0;

		if (!s || n < minlen || n > maxlen)
			return gd_kbv_fail(v, key, 1,
					   "evidence \"%s\": each of "
					   "\"%s\" is a string of %zu to %zu "
					   "bytes",
					   gd_kbv_str(e, "id"), key, minlen,
					   maxlen);
		for (j = 0; j < i; j++)
			if (json_equal(json_array_get(l, j), x))
				return gd_kbv_fail(v, s, 0,
						   "evidence \"%s\": \"%s\" "
						   "lists \"%s\" twice",
						   gd_kbv_str(e, "id"), key, s);
	}
	return 0;
}

static int check_evidence_rule(struct gd_kb_vctx *v, const json_t *root,
			       const json_t *e, size_t i)
{
	const json_t *causes = json_object_get(root, "causes"), *x;
	const char *id = gd_kbv_str(e, "id"), *c = gd_kbv_str(e, "cause");
	const char *t = gd_kbv_str(e, "text");
	size_t j;

	if (!json_is_object(e))
		return gd_kbv_fail(v, "evidence", 1,
				   "evidence[%zu] must be an object", i);
	gd_kbv_enter(v, "id", id);
	if (!is_code(id))
		return gd_kbv_fail(v, "id", 1,
				   "evidence[%zu] needs an \"id\" (a-z, 0-9 "
				   "and '-')",
				   i);
	for (j = 0; j < i; j++) {
		const char *o = gd_kbv_str(
		    json_array_get(json_object_get(root, "evidence"), j), "id");

		if (o && !strcmp(id, o))
			return gd_kbv_fail_dup(v, "evidence id", id);
	}
	if (!c || !json_object_get(causes, c))
		return gd_kbv_fail(v, "cause", 1,
				   "evidence \"%s\" names cause \"%s\", "
				   "which causes{} does not define",
				   id, c ? c : "?");
	if (json_object_get(json_object_get(root, "alternatives"), id) &&
	    !json_equal(
		json_object_get(json_object_get(root, "alternatives"), id),
		json_object_get(e, "cause")))
		return gd_kbv_fail(v, "id", 1,
				   "evidence \"%s\": alternatives{} names "
				   "another cause for that id",
				   id);
	if (!t || strlen(t) < 20 || strlen(t) > GD_KBV_EV_TEXT_MAX)
		return gd_kbv_fail(v, "text", 1,
				   "evidence \"%s\" needs a \"text\" of 20 "
				   "to %d bytes (what tells the causes apart)",
				   id, GD_KBV_EV_TEXT_MAX);
	if (check_strlist(v, e, "signatures", GD_KBV_EV_MAX_SIGS, 1, 96) < 0 ||
	    check_strlist(v, e, "markers", GD_KBV_EV_MAX_MARKERS,
			  GD_KBV_EV_MARKER_MIN, GD_KBV_EV_MARKER_MAX) < 0)
		return -1;
	json_array_foreach(json_object_get(e, "signatures"), j, x)
	{
		const char *s = json_string_value(x);

		if (!has_signature(root, s))
			return gd_kbv_fail(v, s, 0,
					   "evidence \"%s\" names signature "
					   "\"%s\", which signatures[] does "
					   "not have",
					   id, s);
	}
	return 0;
}

static int check_evidence(struct gd_kb_vctx *v, const json_t *root)
{
	const json_t *l = json_object_get(root, "evidence"), *e;
	size_t i;

	if (!l)
		return 0;
	if (!json_is_array(l) || json_array_size(l) > GD_KB_EVIDENCE_MAX)
		return gd_kbv_fail(v, "evidence", 1,
				   "top-level \"evidence\" must be an array of "
				   "at most %d rules",
				   GD_KB_EVIDENCE_MAX);
	json_array_foreach(l, i, e) if (check_evidence_rule(v, root, e, i) <
					0) return -1;
	return 0;
}

int gd_kbv_check_causes(struct gd_kb_vctx *v, const json_t *root)
{
	const json_t *causes = json_object_get(root, "causes"), *sg;
	size_t i;

	if (check_map(v, root, "causes", NULL) < 0 ||
	    check_map(v, root, "alternatives", causes) < 0 ||
	    check_evidence(v, root) < 0)
		return -1;
	json_array_foreach(json_object_get(root, "signatures"), i,
			   sg) if (check_sig_causes(v, sg, causes) <
				   0) return -1;
	return 0;
}
