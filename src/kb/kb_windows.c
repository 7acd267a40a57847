/* kb/: the "windows" section (docs/kb.md): HIP SDK releases known not to
 * work with some targets on Windows. Read as typed entries (kb.h),
 * checked by gd_kb_validate_windows (kb_windows_check.c). */
#include <string.h>

#include "kb.h"
#include "kb_internal.h"
#include "kb_keys.h"

static const json_t *breaks(const gd_kb *kb)
{
	return json_object_get(gd_kb_get(kb, GD_KBK_WINDOWS), GD_KBK_HIP_SDK);
}

size_t gd_kb_win_sdk_break_count(const gd_kb *kb)
{
	return json_array_size(breaks(kb));
}

int gd_kb_win_sdk_break_at(const gd_kb *kb, size_t i,
			   struct gd_kb_win_sdk_break *out)
{
	const json_t *e = json_array_get(breaks(kb), i);
	struct gd_kb_list l;

	memset(out, 0, sizeof *out);
	if (!json_is_object(e))
		return -1;
	out->id = json_string_value(json_object_get(e, GD_KBK_ID));
	out->issue = json_string_value(json_object_get(e, GD_KBK_ISSUE));
	out->runtime = json_string_value(json_object_get(e, GD_KBK_RUNTIME));
	out->text = json_string_value(json_object_get(e, GD_KBK_TEXT));
	out->fixed_in = json_string_value(json_object_get(e, GD_KBK_FIXED_IN));
	l.a = json_object_get(e, GD_KBK_TARGETS);
	out->targets = l;
	l.a = json_object_get(e, GD_KBK_SDK);
	out->sdk = l;
	l.a = json_object_get(e, GD_KBK_SOURCES);
	out->sources = l;
	return 0;
}
