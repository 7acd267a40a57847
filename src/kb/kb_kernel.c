/* kb/: the "kernel" section (docs/kb.md): firmware versions known bad per
 * target, kernel releases below which a target needs something, and notes
 * on module parameters in force. Read as typed entries (kb.h), checked by
 * gd_kb_validate_kernel at build time and for --kb FILE. */
#include <stdio.h>
#include <string.h>

#include "core/util.h"
#include "kb.h"
#include "kb_internal.h"
#include "kb_keys.h"

static const char *str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static struct gd_kb_list list_of(const json_t *o, const char *key)
{
	struct gd_kb_list l = {json_object_get(o, key)};

	return l;
}

static const json_t *section(const gd_kb *kb, const char *key)
{
	return json_object_get(gd_kb_get(kb, GD_KBK_KERNEL), key);
}

size_t gd_kb_firmware_count(const gd_kb *kb)
{
	return json_array_size(section(kb, GD_KBK_FIRMWARE));
}

int gd_kb_firmware_at(const gd_kb *kb, size_t i, struct gd_kb_firmware *out)
{
	const json_t *e = json_array_get(section(kb, GD_KBK_FIRMWARE), i);

	memset(out, 0, sizeof *out);
	if (!json_is_object(e))
		return -1;
	out->id = str(e, GD_KBK_ID);
	out->file = str(e, GD_KBK_FILE);
	out->text = str(e, GD_KBK_TEXT);
	out->step = str(e, GD_KBK_STEP);
	out->targets = list_of(e, GD_KBK_TARGETS);
	out->bad = list_of(e, GD_KBK_BAD);
	out->good = list_of(e, GD_KBK_GOOD);
	out->sources = list_of(e, GD_KBK_SOURCES);
	return 0;
}

int gd_kb_firmware_get(const gd_kb *kb, const char *id,
		       struct gd_kb_firmware *out)
{
	for (size_t i = 0; id && i < gd_kb_firmware_count(kb); i++)
		if (gd_kb_firmware_at(kb, i, out) == 0 && out->id &&
		    !strcmp(out->id, id))
			return 0;
	memset(out, 0, sizeof *out);
	return -1;
}

size_t gd_kb_kernel_release_count(const gd_kb *kb)
{
	return json_array_size(section(kb, GD_KBK_RELEASES));
}

int gd_kb_kernel_release_at(const gd_kb *kb, size_t i,
			    struct gd_kb_kernel_release *out)
{
	const json_t *e = json_array_get(section(kb, GD_KBK_RELEASES), i);

	memset(out, 0, sizeof *out);
	if (!json_is_object(e))
		return -1;
	out->id = str(e, GD_KBK_ID);
	out->below = str(e, GD_KBK_BELOW);
	out->param = str(e, GD_KBK_PARAM);
	out->text = str(e, GD_KBK_TEXT);
	out->step = str(e, GD_KBK_STEP);
	out->targets = list_of(e, GD_KBK_TARGETS);
	out->sources = list_of(e, GD_KBK_SOURCES);
	return 0;
}

size_t gd_kb_kparam_count(const gd_kb *kb)
{
	return json_array_size(section(kb, GD_KBK_PARAMS));
}

int gd_kb_kparam_at(const gd_kb *kb, size_t i, struct gd_kb_kparam *out)
{
	const json_t *e = json_array_get(section(kb, GD_KBK_PARAMS), i);

	memset(out, 0, sizeof *out);
	if (!json_is_object(e))
		return -1;
	out->id = str(e, GD_KBK_ID);
	out->param = str(e, GD_KBK_PARAM);
	out->value = str(e, GD_KBK_VALUE);
	out->text = str(e, GD_KBK_TEXT);
	out->targets = list_of(e, GD_KBK_TARGETS);
	out->sources = list_of(e, GD_KBK_SOURCES);
	return 0;
}
