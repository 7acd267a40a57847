/* kb/: the one acceptance test for knowledge-base text: size cap, JSON
 * syntax (duplicate keys refused) and the schema of docs/kb.md. Used by
 * gd_kb_parse for --kb FILE and by tools/kbgen.c, which refuses to build
 * with a shipped file that a user's copy could not be. */
#include "core/util.h"
#include "kb_internal.h"

json_t *gd_kb_parse_root(const char *buf, size_t len, const char *name,
			 char *err, size_t errlen)
{
	json_error_t je;
	json_t *root;

	if (!err)
		errlen = 0;
	if (errlen)
		err[0] = '\0';
	if (!name)
		name = "(kb)";
	if (!buf || !len) {
		gd_fmt(err, errlen, "%s:1: empty file", name);
		return NULL;
	}
	if (len > GD_KB_MAX_BYTES) {
		gd_fmt(err, errlen,
		       "%s:1: %zu bytes is more than the %u a "
		       "knowledge base may have",
		       name, len, GD_KB_MAX_BYTES);
		return NULL;
	}
	/* Duplicate keys are an error: the second would silently win. */
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		gd_fmt(err, errlen, "%s:%d:%d: %s", name, je.line, je.column,
		       je.text);
		return NULL;
	}
	if (gd_kb_validate(root, buf, len, name, err, errlen) < 0) {
		json_decref(root);
		return NULL;
	}
	return root;
}
