/* Intel GPUs: every Intel id of the embedded id tables (docs/ids.md) gets
 * an architecture of the kb's intel.families (docs/intel.md), by its
 * kernel platform; and a GPU known only by its pci.ids name is matched by
 * a fragment of it. The table is walked, not a hand-picked few. */
#include <string.h>

#include "discover/disc_int.h"
#include "discover/ids_table.h"
#include "kb/kb.h"
#include "t.h"

static void test_every_id(gd_ctx *ctx)
{
	size_t n, intel = 0, named = 0;
	const struct gd_id_row *rows = gd_ids_rows(&n);

	for (size_t i = 0; i < n; i++) {
		struct gd_gpu g;

		if (rows[i].vendor != 0x8086)
			continue;
		intel++;
		memset(&g, 0, sizeof g);
		g.vendor = GD_VENDOR_INTEL;
		g.idrow = &rows[i];
		gd_intel_family(ctx, &g);
		if (g.intel.family[0])
			named++;
		else
			fprintf(stderr, "  no family: 8086:%04x %s (%s)\n",
				rows[i].device,
				rows[i].name ? rows[i].name : "",
				rows[i].target ? rows[i].target : "");
	}
	CHECK(intel > 400); /* the kernel's list has ~440 */
	CHECK_INT((int)named, (int)intel);
}

static void test_by_name(gd_ctx *ctx)
{
	static const struct {
		const char *name, *family;
	} t[] = {
	    {"Battlemage G21 [Arc B580]", "xe2-hpg"},
	    {"DG2 [Arc A770]", "xe-hpg"},
	    {"Alder Lake-P GT2 [Iris Xe Graphics]", "xe-lp"},
	    {"CoffeeLake-S GT2 [UHD Graphics 630]", "gen9"},
	    {"2nd Generation Core Processor Family Integrated Graphics "
	     "Controller",
	     "gen6"},
	    {"Some Future GPU", ""},
	};

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct gd_gpu g;

		memset(&g, 0, sizeof g);
		g.vendor = GD_VENDOR_INTEL;
		gd_text_set(&g.pci_name, t[i].name, "test");
		gd_intel_family(ctx, &g);
		CHECK_STR(g.intel.family, t[i].family);
	}
}

int main(void)
{
	gd_ctx ctx;

	memset(&ctx, 0, sizeof ctx);
	ctx.kb = gd_kb_load_embedded();
	CHECK(ctx.kb != NULL);
	test_every_id(&ctx);
	test_by_name(&ctx);
	gd_kb_free(ctx.kb);
	return t_done("test_intel");
}
