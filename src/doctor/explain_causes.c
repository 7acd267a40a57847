/* explain: the causes a match names, likeliest first (docs/json.md,
 * "causes"): the one the matched line's own numbers name (an Xid's class,
 * an OOM whose sizes show the memory held elsewhere) first, as the most
 * specific; then the one the log's other lines point to (the evidence's
 * alternative, docs/kb.md "alternatives"); then the signature's own
 * in the kb's order (docs/kb.md, a signature's "causes"). The codes are
 * data an app can act on; a signature with several says it cannot tell
 * them apart from its line alone. */
#include <string.h>

#include "explain.h"

static int listed(const char *const *codes, size_t n, const char *c)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(codes[i], c))
			return 1;
	return 0;
}

size_t gd_explain_causes(const gd_kb *kb, const struct gd_explain_match *mt,
			 const char **codes, size_t cap)
{
	const char *alt = gd_kb_alternative_cause(kb, mt->alt_id);
	size_t n = 0;

	if (mt->detail_cause && gd_kb_cause_text(kb, mt->detail_cause) &&
	    n < cap)
		codes[n++] = mt->detail_cause;
	if (alt && gd_kb_cause_text(kb, alt) && n < cap &&
	    !listed(codes, n, alt))
		codes[n++] = alt;
	for (size_t i = 0; i < gd_kb_list_n(mt->sig.causes) && n < cap; i++) {
		const char *c = gd_kb_list_at(mt->sig.causes, i);

		if (c && gd_kb_cause_text(kb, c) && !listed(codes, n, c))
			codes[n++] = c;
	}
	return n;
}
