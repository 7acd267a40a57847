/* kb/: validation of the "intel" section (docs/kb.md); linked into the
 * build-time generator too. */
#include <stdio.h>
#include <string.h>

#include "core/util.h"
#include "kb_internal.h"
#include "kb_keys.h"

static int one_of(const json_t *s, const char *const *set)
{
	const char *v = json_string_value(s);

	for (size_t i = 0; v && set[i]; i++)
		if (!strcmp(v, set[i]))
			return 1;
	return 0;
}

static int strings(const json_t *a)
{
	const json_t *e;
	size_t i;

	if (!json_is_array(a))
		return 0;
	json_array_foreach(a, i, e) if (!json_string_value(e) ||
					!json_string_value(e)[0]) return 0;
	return 1;
}

static int sources_known(const json_t *root, const json_t *a)
{
	const json_t *srcs = json_object_get(root, "sources"), *e;
	size_t i;

	if (!json_array_size(a))
		return 0;
	json_array_foreach(
	    a, i, e) if (!json_object_get(srcs, json_string_value(e)
						    ? json_string_value(e)
						    : "")) return 0;
	return 1;
}

int gd_kb_validate_intel(const json_t *root, char *err, size_t errlen)
{
	static const char *const runtimes[] = {"current", "legacy1",
					       "opencl-only", "none", NULL};
	static const char *const xpu[] = {"validated", "untested", "no", NULL};
	static const char *const vk[] = {"anv", "hasvk", "none", NULL};
	const json_t *in = json_object_get(root, GD_KBK_INTEL), *e;
	size_t i;

	if (!in)
		return 0;
	if (!json_is_object(in) ||
	    !json_is_array(json_object_get(in, GD_KBK_FAMILIES))) {
		gd_fmt(err, errlen,
		       "intel: must be an object with "
		       "\"families\" (an array)");
		return -1;
	}
	json_array_foreach(json_object_get(in, GD_KBK_FAMILIES), i, e)
	{
		if (json_is_string(json_object_get(e, GD_KBK_ID)) &&
		    json_is_string(json_object_get(e, GD_KBK_NAME)) &&
		    strings(json_object_get(e, GD_KBK_PLATFORMS)) &&
		    strings(json_object_get(e, GD_KBK_MATCH)) &&
		    one_of(json_object_get(e, GD_KBK_COMPUTE_RUNTIME),
			   runtimes) &&
		    one_of(json_object_get(e, GD_KBK_PYTORCH_XPU), xpu) &&
		    json_is_boolean(json_object_get(e, GD_KBK_LLAMACPP_SYCL)) &&
		    one_of(json_object_get(e, GD_KBK_VULKAN), vk) &&
		    json_is_string(json_object_get(e, GD_KBK_NOTE)) &&
		    sources_known(root, json_object_get(e, GD_KBK_SOURCES)))
			continue;
		gd_fmt(
		    err, errlen,
		    "intel.families[%zu]: needs \"id\", \"name\", "
		    "\"platforms\" and \"match\" (arrays of strings), "
		    "\"compute_runtime\" (current, legacy1, opencl-only or "
		    "none), \"pytorch_xpu\" (validated, untested or no), "
		    "\"llamacpp_sycl\" (true/false), \"vulkan\" (anv, hasvk or "
		    "none), \"note\" and "
		    "\"sources\" (ids in \"sources\")",
		    i);
		return -1;
	}
	return 0;
}
