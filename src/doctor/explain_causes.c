/* explain: the causes a match names, likeliest first (docs/json.md,
 * "causes"): the one the matched line's own numbers name (an Xid's class,
 * an OOM whose sizes show the memory held elsewhere) first, as the most
 * specific; then the one the log's other lines point to (the evidence's
 * alternative, docs/kb.md "alternatives"); then the signature's own
 * in the kb's order (docs/kb.md, a signature's "causes"), less one the
 * line's numbers rule out (an OOM of this process alone). The codes are
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

		if (c && gd_kb_cause_text(kb, c) && !listed(codes, n, c) &&
		    !(mt->ruled_out && !strcmp(c, mt->ruled_out)))
			codes[n++] = c;
	}
	return n;
}

size_t gd_explain_causes_here(const gd_kb *kb,
			      const struct gd_explain_match *mt,
			      enum gd_check_verdict v, const char **codes,
			      size_t cap)
{
	size_t n = gd_explain_causes(kb, mt, codes, cap), i = 0;
	const char *own = gd_kb_list_at(mt->sig.causes, 0);

	if (v != GD_CHECK_CONTRADICTED || n < 2 || !own)
		return n;
	while (i < n && strcmp(codes[i], own))
		i++;
	if (i < n) { /* the machine rules out the signature's own first */
		memmove(codes + i, codes + i + 1, (n - i - 1) * sizeof *codes);
		codes[n - 1] = own;
	}
	return n;
}
