/* kb/: the schema check of the optional libraries[] (a soname and the
 * Debian and Fedora packages that ship it), split out of kb_validate.c,
 * which was over 600 lines: the list stands apart from the GPU entries. */
#include <string.h>

#include "kb_validate.h"

static int strings_or_absent(const json_t *a)
{
	const json_t *x;
	size_t i;

	if (!a)
		return 1;
	if (!json_is_array(a))
		return 0;
	json_array_foreach(a, i, x) if (!json_is_string(x)) return 0;
	return 1;
}

/* Optional libraries[]: soname -> the Debian/Ubuntu and Fedora packages
 * (each a name or null, at least one), with sources. */
int gd_kbv_check_libraries(struct gd_kb_vctx *v, const json_t *root)
{
	const json_t *o;
	size_t i;

	json_array_foreach(json_object_get(root, "libraries"), i, o)
	{
		const char *so = gd_kbv_str(o, "soname");

		gd_kbv_enter(v, "soname", so);
		if (!so || !strstr(so, ".so") ||
		    !gd_kbv_str_or_null(o, "debian") ||
		    !gd_kbv_str_or_null(o, "fedora") ||
		    (!gd_kbv_str(o, "debian") && !gd_kbv_str(o, "fedora")) ||
		    !json_array_size(json_object_get(o, "sources")) ||
		    !strings_or_absent(json_object_get(o, "dlopens")))
			return gd_kbv_fail(
			    v, "libraries", 1,
			    "each library needs \"soname\" "
			    "(libfoo.so.1), \"debian\" and \"fedora\" "
			    "(a package name or null, not both null), "
			    "\"sources\" and optionally \"dlopens\" "
			    "(sonames)");
	}
	return 0;
}
