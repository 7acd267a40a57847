/* kb/: validation of the "windows" section (docs/kb.md); linked into the
 * build-time generator too. */
#include <stdio.h>
#include <string.h>

#include "core/util.h"
#include "kb_internal.h"
#include "kb_keys.h"

/* "7.1": Windows HIP SDKs are versioned major.minor only. */
static int is_sdk(const json_t *s)
{
	const char *v = json_string_value(s);
	unsigned a, b;
	char c;

	return v && sscanf(v, "%u.%u%c", &a, &b, &c) == 2;
}

static int all(const json_t *a, int (*ok)(const json_t *))
{
	const json_t *e;
	size_t i;

	if (!json_array_size(a))
		return 0;
	json_array_foreach(a, i, e) if (!ok(e)) return 0;
	return 1;
}

static int is_gfx(const json_t *s)
{
	const char *v = json_string_value(s);

	return v && !strncmp(v, "gfx", 3) && v[3] &&
	       strspn(v + 3, "0123456789abcdef") == strlen(v + 3);
}

static int known_issue(const json_t *root, const char *id)
{
	const json_t *is;
	size_t i;

	json_array_foreach(
	    json_object_get(root, "issues"), i,
	    is) if (id && json_string_value(json_object_get(is, "id")) &&
		    !strcmp(json_string_value(json_object_get(is, "id")),
			    id)) return 1;
	return 0;
}

int gd_kb_validate_windows(const json_t *root, char *err, size_t errlen)
{
	const json_t *w = json_object_get(root, GD_KBK_WINDOWS), *e, *f;
	size_t i;

	if (!w)
		return 0;
	if (!json_is_object(w)) {
		gd_fmt(err, errlen, "windows: must be an object");
		return -1;
	}
	json_array_foreach(json_object_get(w, GD_KBK_HIP_SDK), i, e)
	{
		f = json_object_get(e, GD_KBK_FIXED_IN);
		if (json_is_string(json_object_get(e, GD_KBK_ID)) &&
		    json_is_string(json_object_get(e, GD_KBK_TEXT)) &&
		    json_is_string(json_object_get(e, GD_KBK_RUNTIME)) &&
		    all(json_object_get(e, GD_KBK_TARGETS), is_gfx) &&
		    all(json_object_get(e, GD_KBK_SDK), is_sdk) &&
		    (json_is_null(f) || is_sdk(f)) &&
		    known_issue(root, json_string_value(
					  json_object_get(e, GD_KBK_ISSUE))))
			continue;
		gd_fmt(err, errlen,
		       "windows.hip_sdk[%zu]: needs \"id\", \"issue\" (an id "
		       "in \"issues\"), \"targets\" (gfx names), \"sdk\" "
		       "(major.minor), \"runtime\", \"text\" and \"fixed_in\" "
		       "(major.minor or null)",
		       i);
		return -1;
	}
	return 0;
}
