/* AMDGPU code objects (.hsaco, .co, bundle entries): the gfx target and the
 * target-id features come from the ELF header alone.
 * Sources: docs/scan.md, "Sources" (LLVM's EF_AMDGPU_MACH_* and
 * EF_AMDGPU_FEATURE_* flags): EI_OSABI 64 = ELFOSABI_AMDGPU_HSA,
 * EI_ABIVERSION 0..4 = code object v2..v6. */
#include <string.h>

#include "binscan.h"

#define ELFOSABI_AMDGPU_HSA 64

static const struct {
	unsigned mach;
	const char *name;
} mach_names[] = {
    {0x020, "gfx600"},		{0x021, "gfx601"},
    {0x022, "gfx700"},		{0x023, "gfx701"},
    {0x024, "gfx702"},		{0x025, "gfx703"},
    {0x026, "gfx704"},		{0x028, "gfx801"},
    {0x029, "gfx802"},		{0x02a, "gfx803"},
    {0x02b, "gfx810"},		{0x02c, "gfx900"},
    {0x02d, "gfx902"},		{0x02e, "gfx904"},
    {0x02f, "gfx906"},		{0x030, "gfx908"},
    {0x031, "gfx909"},		{0x032, "gfx90c"},
    {0x033, "gfx1010"},		{0x034, "gfx1011"},
    {0x035, "gfx1012"},		{0x036, "gfx1030"},
    {0x037, "gfx1031"},		{0x038, "gfx1032"},
    {0x039, "gfx1033"},		{0x03a, "gfx602"},
    {0x03b, "gfx705"},		{0x03c, "gfx805"},
    {0x03d, "gfx1035"},		{0x03e, "gfx1034"},
    {0x03f, "gfx90a"},		{0x040, "gfx940"},
    {0x041, "gfx1100"},		{0x042, "gfx1013"},
    {0x043, "gfx1150"},		{0x044, "gfx1103"},
    {0x045, "gfx1036"},		{0x046, "gfx1101"},
    {0x047, "gfx1102"},		{0x048, "gfx1200"},
    {0x049, "gfx1250"},		{0x04a, "gfx1151"},
    {0x04b, "gfx941"},		{0x04c, "gfx942"},
    {0x04e, "gfx1201"},		{0x04f, "gfx950"},
    {0x050, "gfx1310"},		{0x051, "gfx9-generic"},
    {0x052, "gfx10-1-generic"}, {0x053, "gfx10-3-generic"},
    {0x054, "gfx11-generic"},	{0x055, "gfx1152"},
    {0x057, "gfx1154"},		{0x058, "gfx1153"},
    {0x059, "gfx12-generic"},	{0x05a, "gfx1251"},
    {0x05b, "gfx12-5-generic"}, {0x05c, "gfx1172"},
    {0x05d, "gfx1170"},		{0x05e, "gfx1171"},
    {0x05f, "gfx9-4-generic"},	{0x062, "gfx11-7-generic"},
};

const char *gd_amdgpu_mach_name(unsigned mach)
{
	for (size_t i = 0; i < sizeof mach_names / sizeof mach_names[0]; i++)
		if (mach_names[i].mach == mach)
			return mach_names[i].name;
	return NULL;
}

/* V4+: two-bit fields, 0 unsupported, 1 any, 2 off, 3 on. */
static void feat_v4(char *f, size_t cap, uint32_t flags)
{
	static const char *const st[] = {"", "", "-", "+"};
	unsigned sramecc = (flags >> 10) & 3, xnack = (flags >> 8) & 3;

	f[0] = '\0';
	if (sramecc >= 2)
		gd_fmt(f, cap, "sramecc%s", st[sramecc]);
	if (xnack >= 2)
		gd_fmt(f + strlen(f), cap - strlen(f), "%sxnack%s",
		       f[0] ? ":" : "", st[xnack]);
}

int gd_amdgpu_co_target(const uint8_t *b, size_t n, char *gfx, size_t gcap,
			char *features, size_t fcap, unsigned *co_version)
{
	struct gd_elf e;
	const char *name;
	unsigned mach;

	if (gd_elf_open(&e, b, n, NULL, 0) || e.machine != GD_EM_AMDGPU)
		return -1;
	mach = e.flags & 0xff;
	name = gd_amdgpu_mach_name(mach);
	if (name)
		gd_strlcpy(gfx, name, gcap);
	else
		gd_fmt(gfx, gcap, "amdgcn-mach-0x%02x", mach);
	features[0] = '\0';
	*co_version = 0;
	if (e.osabi != ELFOSABI_AMDGPU_HSA)
		return 0; /* PAL / Mesa: no target-id features */
	*co_version = e.abiversion + 2u;
	if (e.abiversion == 0) { /* v2: xnack bit only */
		if (e.flags & 0x01)
			gd_strlcpy(features, "xnack+", fcap);
	} else if (e.abiversion == 1) { /* v3: on/off bits, off = any */
		gd_fmt(features, fcap, "%s%s%s",
		       (e.flags & 0x200) ? "sramecc+" : "",
		       (e.flags & 0x300) == 0x300 ? ":" : "",
		       (e.flags & 0x100) ? "xnack+" : "");
	} else {
		feat_v4(features, fcap, e.flags);
	}
	return 0;
}
