/* kb/: the schema check of causes{} (a cause code and what it means),
 * alternatives{} (an evidence alternative's id and the cause it names)
 * and each signature's "causes" (the codes it names, likeliest first).
 * A kb without them still loads: explain then lists no causes. */
#include <string.h>

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

int gd_kbv_check_causes(struct gd_kb_vctx *v, const json_t *root)
{
	const json_t *causes = json_object_get(root, "causes"), *sg;
	size_t i;

	if (check_map(v, root, "causes", NULL) < 0 ||
	    check_map(v, root, "alternatives", causes) < 0)
		return -1;
	json_array_foreach(json_object_get(root, "signatures"), i,
			   sg) if (check_sig_causes(v, sg, causes) <
				   0) return -1;
	return 0;
}
