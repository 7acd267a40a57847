/* The embedded id tables (discover/ids_table.h, docs/ids.md): sorted,
 * every row complete, the lookups exact at both ends and between rows,
 * amdgpu.ids matched on device AND revision as libdrm does. The walk of
 * every row through `gpudoctor --root` is tests/scripts/test_ids_every.sh. */
#include <string.h>

#include "discover/ids_table.h"
#include "t.h"

static unsigned long key(const struct gd_id_row *r)
{
	return (unsigned long)r->vendor << 16 | r->device;
}

static void test_rows(void)
{
	size_t n, bad = 0, unsorted = 0;
	const struct gd_id_row *r = gd_ids_rows(&n);

	CHECK(n > 2000);
	for (size_t i = 0; i < n; i++) {
		if (!r[i].name[0] || !r[i].arch[0] || !r[i].src[0])
			bad++;
		if (i && key(&r[i - 1]) >= key(&r[i]))
			unsorted++;
		if (gd_ids_lookup(r[i].vendor, r[i].device) != &r[i])
			bad++;
		/* AMD rows carry a gfx target, but for the families before
		 * GCN (radeon's TeraScale, R100-R500): none, by design */
		if (r[i].vendor == 0x1002 && strncmp(r[i].target, "gfx", 3) &&
		    !(!r[i].target[0] && (strstr(r[i].arch, "TeraScale") ||
					  strstr(r[i].arch, "pre-GCN"))))
			bad++;
	}
	CHECK_INT(bad, 0);
	CHECK_INT(unsorted, 0);
	CHECK(gd_ids_lookup(0, 0) == NULL);
	CHECK(gd_ids_lookup(0xffff, 0xffff) == NULL);
	CHECK(gd_ids_lookup(0x10de, 0x0001) == NULL);
	CHECK(strstr(gd_ids_inputs, "pci.ids 2026.08.22") != NULL);
}

static void test_known_ids(void)
{
	const struct gd_id_row *r;

	r = gd_ids_lookup(0x1002, 0x74b5); /* MI300X VF */
	CHECK(r && !strcmp(r->target, "gfx942") && (r->flags & GD_IDF_VF));
	r = gd_ids_lookup(0x1002, 0x6780); /* Tahiti, SI */
	CHECK(r && !strcmp(r->target, "gfx600") && !strcmp(r->arch, "GCN 1"));
	r = gd_ids_lookup(0x1002, 0x6738); /* Barts XT, radeon only */
	CHECK(r && !r->target[0] && !strcmp(r->arch, "TeraScale 2") &&
	      !strcmp(r->name, "Radeon HD 6870"));
	r = gd_ids_lookup(0x1002, 0x1586); /* Strix Halo */
	CHECK(r && !strcmp(r->target, "gfx1151") && (r->flags & GD_IDF_IGPU));
	r = gd_ids_lookup(0x10de, 0x2b85); /* RTX 5090 */
	CHECK(r && !strcmp(r->target, "sm_120") && !strcmp(r->chip, "GB202"));
	r = gd_ids_lookup(0x10de, 0x06d2); /* Tesla M2070, Fermi */
	CHECK(r && !strcmp(r->target, "sm_20") && !strcmp(r->arch, "Fermi"));
	r = gd_ids_lookup(0x10de, 0x1db4); /* V100 */
	CHECK(r && !strcmp(r->target, "sm_70"));
	r = gd_ids_lookup(0x10de, 0x28e0); /* laptop RTX 4060 */
	CHECK(r && !strcmp(r->target, "sm_89"));
	r = gd_ids_lookup(0x8086, 0xe20b); /* Arc B580 */
	CHECK(r && !strcmp(r->target, "bmg") && (r->flags & GD_IDF_XE) &&
	      !(r->flags & GD_IDF_IGPU));
	r = gd_ids_lookup(0x8086, 0x0412); /* Haswell GT2 */
	CHECK(r && !strcmp(r->arch, "Gen7.5") && (r->flags & GD_IDF_IGPU) &&
	      !(r->flags & GD_IDF_XE));
	CHECK(gd_ids_lookup(0x10de, 0x0be5) == NULL); /* GF100 HD audio */
}

/* Ids real machines showed that the 2025 lists did not know, and the
 * compute capability of each Blackwell chip (docs/ids.md). */
static void test_blackwell_ids(void)
{
	static const struct {
		unsigned vendor, device;
		const char *chip, *target;
	} want[] = {
	    {0x10de, 0x2e12, "GB20B", "sm_121"},   /* GB10, DGX Spark */
	    {0x10de, 0x2b8c, "GB202", "sm_120"},   /* RTX 5090 D v2 */
	    {0x10de, 0x31c2, "GB110", "sm_103"},   /* GB300 */
	    {0x10de, 0x3182, "GB110", "sm_103"},   /* B300 SXM6 AC */
	    {0x10de, 0x2901, "GB100", "sm_100"},   /* B200 */
	    {0x10de, 0x2b00, "GB10B", "sm_110"},   /* Jetson AGX Thor */
	    {0x10de, 0x2d98, "GB207M", "sm_120"},  /* RTX 5050 laptop */
	    {0x10de, 0x2c3a, "GB203GL", "sm_120"}, /* RTX PRO 4500 Server */
	    {0x1002, 0x75a0, "Aqua Vanjaram", "gfx950"}, /* MI350X */
	    {0x1002, 0x1900, "HawkPoint1", "gfx1103"},
	    {0x8086, 0xd754, "nvlp", "nvl-p"}, /* written 0XD754 */
	};
	const struct gd_id_row *gb10 = gd_ids_lookup(0x10de, 0x2e12);

	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		const struct gd_id_row *r =
		    gd_ids_lookup(want[i].vendor, want[i].device);

		CHECK(r && !strcmp(r->chip, want[i].chip) &&
		      !strcmp(r->target, want[i].target));
	}
	CHECK(gb10 && !strcmp(gb10->name, "GB10"));
}

static void test_amd_names(void)
{
	const char *s = gd_ids_amd_name(0x744c, 0xc8);

	CHECK(s && !strcmp(s, "AMD Radeon RX 7900 XTX"));
	s = gd_ids_amd_name(0x744c, 0xce);
	CHECK(s && !strcmp(s, "AMD Radeon RX 7900 GRE"));
	CHECK(gd_ids_amd_name(0x744c, 0x01) == NULL);
	CHECK(gd_ids_amd_name(0x0000, 0x00) == NULL);
}

int main(void)
{
	test_rows();
	test_known_ids();
	test_blackwell_ids();
	test_amd_names();
	return t_done("test_ids_table");
}
