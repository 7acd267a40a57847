/* kb/: the "intel" section (docs/kb.md): Intel GPU architectures, what
 * Intel's compute runtime and the frameworks do on each. Read as typed
 * entries (kb.h); checked by gd_kb_validate_intel (kb_intel_check.c). */
#include <string.h>

#include "kb.h"
#include "kb_internal.h"
#include "kb_keys.h"

static const json_t *families(const json_t *intel)
{
	return json_object_get(intel, GD_KBK_FAMILIES);
}

size_t gd_kb_intel_family_count(const gd_kb *kb)
{
	return json_array_size(families(gd_kb_get(kb, GD_KBK_INTEL)));
}

int gd_kb_intel_family_at(const gd_kb *kb, size_t i,
			  struct gd_kb_intel_family *out)
{
	const json_t *e =
	    json_array_get(families(gd_kb_get(kb, GD_KBK_INTEL)), i);
	struct gd_kb_list l;

	memset(out, 0, sizeof *out);
	if (!json_is_object(e))
		return -1;
	out->id = json_string_value(json_object_get(e, GD_KBK_ID));
	out->name = json_string_value(json_object_get(e, GD_KBK_NAME));
	out->compute_runtime =
	    json_string_value(json_object_get(e, GD_KBK_COMPUTE_RUNTIME));
	out->pytorch_xpu =
	    json_string_value(json_object_get(e, GD_KBK_PYTORCH_XPU));
	out->llamacpp_sycl =
	    json_is_true(json_object_get(e, GD_KBK_LLAMACPP_SYCL));
	out->vulkan = json_string_value(json_object_get(e, GD_KBK_VULKAN));
	out->note = json_string_value(json_object_get(e, GD_KBK_NOTE));
	l.a = json_object_get(e, GD_KBK_PLATFORMS);
	out->platforms = l;
	l.a = json_object_get(e, GD_KBK_MATCH);
	out->match = l;
	l.a = json_object_get(e, GD_KBK_SOURCES);
	out->sources = l;
	return 0;
}
