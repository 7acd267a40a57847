/* discover/intel: which Intel GPU architecture a GPU is, from the kb's
 * intel.families: by the kernel's platform name when the id tables give
 * it (g->intel.platform: "dg2-g10", "tgl"), else by a fragment of the GPU's
 * name as pci.ids writes it ("DG2 [Arc A770]", "Alder Lake-P GT2 [Iris Xe
 * Graphics]", "Battlemage G21 [Arc B580]"). Families are tried in kb
 * order, newest first, so "Arc B" is matched before "Arc A". */
#include <string.h>
#include <strings.h>

#include "disc_int.h"
#include "ids_table.h"
#include "kb/kb.h"

/* needle in hay, ASCII case ignored */
static int has_fragment(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; n && *hay; hay++)
		if (!strncasecmp(hay, needle, n))
			return 1;
	return 0;
}

static int list_has(struct gd_kb_list l, const char *v, int fragment)
{
	for (size_t i = 0; v && v[0] && i < gd_kb_list_n(l); i++) {
		const char *e = gd_kb_list_at(l, i);

		if (!e)
			continue;
		if (fragment ? has_fragment(v, e) : !strcasecmp(v, e))
			return 1;
	}
	return 0;
}

/* Windows' adapter names carry marks pci.ids does not: "Intel(R)
 * Arc(TM) B580 Graphics" -> "Intel Arc B580 Graphics". */
static void unmark(const char *in, char *out, size_t cap)
{
	size_t k = 0;

	while (*in && k + 1 < cap) {
		if (!strncasecmp(in, "(R)", 3) || !strncasecmp(in, "(TM)", 4)) {
			in += in[2] == ')' ? 3 : 4;
			continue;
		}
		out[k++] = *in++;
	}
	out[k] = '\0';
}

void gd_intel_family(gd_ctx *ctx, struct gd_gpu *g)
{
	char name[160];
	const char *names[2] = {
	    gd_known(&g->pci_name) ? g->pci_name.v : "",
	    name,
	};

	size_t n = gd_kb_intel_family_count(ctx->kb);
	struct gd_kb_intel_family f;

	unmark(gd_known(&g->name) ? g->name.v : "", name, sizeof name);

	/* the kernel platform of the embedded id tables (docs/ids.md) */
	if (!g->intel.platform[0] && g->idrow && g->idrow->target)
		gd_strlcpy(g->intel.platform, g->idrow->target,
			   sizeof g->intel.platform);

	for (int pass = 0; pass < 3; pass++)
		for (size_t i = 0; i < n; i++) {
			if (gd_kb_intel_family_at(ctx->kb, i, &f) < 0 || !f.id)
				continue;
			if (pass == 0
				? !list_has(f.platforms, g->intel.platform, 0)
				: !list_has(f.match, names[pass - 1], 1))
				continue;
			gd_strlcpy(g->intel.family, f.id,
				   sizeof g->intel.family);
			gd_fmt(g->intel.family_src, sizeof g->intel.family_src,
			       pass ? "from the name %.80s"
				    : "from the platform %.80s",
			       pass ? names[pass - 1] : g->intel.platform);
			return;
		}
}
