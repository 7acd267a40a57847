/* kb/: validation of the "kernel" section (docs/kb.md) and of the
 * strategies' kernel_param; linked into the build-time generator too. */
#include <stdio.h>
#include <string.h>

#include "core/util.h"
#include "kb_internal.h"
#include "kb_keys.h"

static const char *str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* ---- validation (docs/kb.md "kernel") ---- */

/* "module.param=value" ("=value" optional when want_value is 0). */
static int is_kparam(const char *s, int want_value)
{
	const char *dot = s ? strchr(s, '.') : NULL, *eq;

	if (!dot || dot == s)
		return 0;
	eq = strchr(dot, '=');
	if (want_value)
		return eq && eq > dot + 1 && eq[1];
	return !eq && dot[1];
}

static int is_release(const char *s)
{
	unsigned a, b;
	char c;

	return s && sscanf(s, "%u.%u%c", &a, &b, &c) == 2;
}

static int fail(char *err, size_t errlen, const char *what, size_t i,
		const char *msg)
{
	gd_fmt(err, errlen, "kernel.%s[%zu]: %s", what, i, msg);
	return -1;
}

static int has_strings(const json_t *o, const char *const *keys)
{
	for (size_t k = 0; keys[k]; k++)
		if (!json_is_string(json_object_get(o, keys[k])))
			return 0;
	return json_array_size(json_object_get(o, GD_KBK_TARGETS)) > 0;
}

int gd_kb_validate_kernel(const json_t *root, char *err, size_t errlen)
{
	static const char *const fw_keys[] = {"id", "file", "text", "step",
					      NULL};
	static const char *const rel_keys[] = {"id", "below", "text", NULL};
	static const char *const par_keys[] = {"id", "param", "value", "text",
					       NULL};
	const json_t *k = json_object_get(root, GD_KBK_KERNEL), *e;
	size_t i;

	if (!k)
		return 0;
	if (!json_is_object(k))
		return fail(err, errlen, "", 0, "\"kernel\" must be an object");
	json_array_foreach(json_object_get(k, GD_KBK_FIRMWARE), i, e) if (
	    !has_strings(e, fw_keys) ||
	    !json_array_size(json_object_get(
		e, GD_KBK_BAD))) return fail(err, errlen, "firmware", i,
					     "needs \"id\", \"targets\", "
					     "\"file\" (mes_fw_version), "
					     "\"bad\" versions, \"text\" and "
					     "\"step\"");
	json_array_foreach(
	    json_object_get(k, GD_KBK_RELEASES), i,
	    e) if (!has_strings(e, rel_keys) ||
		   !is_release(str(e, GD_KBK_BELOW)) ||
		   (json_object_get(e, GD_KBK_PARAM) &&
		    !is_kparam(str(e, GD_KBK_PARAM),
			       1))) return fail(err, errlen, "releases", i,
						"needs \"id\", \"targets\", "
						"\"below\" (6.18), "
						"\"text\", and \"param\" as "
						"module.param=value "
						"when given");
	json_array_foreach(
	    json_object_get(k, GD_KBK_PARAMS), i,
	    e) if (!has_strings(e, par_keys) ||
		   !is_kparam(
		       str(e, GD_KBK_PARAM),
		       0)) return fail(err, errlen, "params", i,
				       "needs \"id\", \"targets\", \"param\" "
				       "(module.param), \"value\" and "
				       "\"text\"");
	json_array_foreach(json_object_get(root, "strategies"), i, e)
	{
		const json_t *kp = json_object_get(e, GD_KBK_KERNEL_PARAM);

		if (kp && !is_kparam(json_string_value(kp), 1))
			return fail(err, errlen, "strategies", i,
				    "\"kernel_param\" is module.param=value");
	}
	return 0;
}
