/* Windows display adapters whose class key carries no PCI id: no
 * MatchingDeviceId, or one that is not PCI\VEN_.. (a ROOT\ or SWD\
 * software device, PCI\CC_0300 of a driverless adapter). Real machines
 * have them beside the GPU (Microsoft Basic Render Driver, Remote Display
 * Adapter, Parsec's and other virtual displays) and, in exports that lost
 * the id, as the GPU itself: hipInfo, DxDiag, WMI and nvidia-smi name
 * such GPUs. A GPU is never dropped for want of an id: its vendor comes
 * from what the key says (DriverDesc, ProviderName, the driver's DLLs);
 * only what is known not to be a GPU is set aside. */
#include <string.h>
#include <strings.h>

#include "disc_int.h"

/* case-insensitive substring */
static int has(const char *s, const char *w)
{
	for (size_t n = strlen(w); s && *s; s++)
		if (!strncasecmp(s, w, n))
			return 1;
	return 0;
}

struct mark {
	const char *word;
	enum gd_vendor vendor;
};

/* Names and providers: the vendors' own words. */
static const struct mark names[] = {
    {"Advanced Micro Devices", GD_VENDOR_AMD},
    {"AMD ", GD_VENDOR_AMD},
    {"Radeon", GD_VENDOR_AMD},
    {"ATI Technologies", GD_VENDOR_AMD},
    {"FirePro", GD_VENDOR_AMD},
    {"Instinct", GD_VENDOR_AMD},
    {"NVIDIA", GD_VENDOR_NVIDIA},
    {"GeForce", GD_VENDOR_NVIDIA},
    {"Quadro", GD_VENDOR_NVIDIA},
    {"Tesla", GD_VENDOR_NVIDIA},
    {"Intel", GD_VENDOR_INTEL},
    {"Iris", GD_VENDOR_INTEL},
};

/* The user-mode driver DLLs each vendor's display driver installs
 * (UserModeDriverName, InstalledDisplayDrivers): aticfx64, amdxx64,
 * amdxc64 (AMD); nvldumdx, nvwgf2umx (NVIDIA); igdumdim64, igd10iumd64,
 * igxelpicd64 (Intel). */
static const struct mark files[] = {
    {"aticfx", GD_VENDOR_AMD},	   {"atiumd", GD_VENDOR_AMD},
    {"amdxx", GD_VENDOR_AMD},	   {"amdxc", GD_VENDOR_AMD},
    {"nvldumd", GD_VENDOR_NVIDIA}, {"nvwgf2um", GD_VENDOR_NVIDIA},
    {"nvd3dum", GD_VENDOR_NVIDIA}, {"igdumd", GD_VENDOR_INTEL},
    {"igd10", GD_VENDOR_INTEL},	   {"igxel", GD_VENDOR_INTEL},
};

/* Displays that are no GPU: Microsoft's software renderer and display
 * (their DriverDesc is localized, their ids are not), remote and virtual
 * displays. */
static const char *const soft_ids[] = {"ROOT\\", "SWD\\", "BasicRender",
				       "BasicDisplay"};
static const char *const soft_infs[] = {"display.inf", "basicrender.inf",
					"basicdisplay.inf", "rdpidd.inf",
					"rdpbus.inf"};
static const char *const virt_names[] = {
    "Basic Render",	"Basic Display",   "Remote Display", "Virtual Display",
    "Indirect Display", "IddSample",	   "Parsec",	     "spacedesk",
    "Hyper-V Video",	"Virtual Monitor", "Citrix",	     "DisplayLink",
    "Remote Desktop",	"Meta Virtual",	   "Splashtop",	     "Mirror Driver"};

static enum gd_vendor marked(const char *s, const struct mark *m, size_t n)
{
	for (size_t i = 0; s && s[0] && i < n; i++)
		if (has(s, m[i].word))
			return m[i].vendor;
	return GD_VENDOR_OTHER;
}

static int any(const char *s, const char *const *w, size_t n)
{
	for (size_t i = 0; s && s[0] && i < n; i++)
		if (has(s, w[i]))
			return 1;
	return 0;
}

#define N(a) (sizeof(a) / sizeof *(a))

/* A display that is no GPU: what it is, else NULL. */
static const char *software(const gd_reg_key *k, const char *id,
			    const char *desc)
{
	char inf[64] = "", prov[64] = "";

	gd_reg_str(k, "InfPath", inf, sizeof inf);
	gd_reg_str(k, "ProviderName", prov, sizeof prov);
	if (any(desc, virt_names, N(virt_names)))
		return has(desc, "Remote")  ? "a remote desktop display"
		       : has(desc, "Basic") ? "Microsoft's software display"
					    : "a virtual display";
	if (any(id, soft_ids, N(soft_ids)) || any(inf, soft_infs, N(soft_infs)))
		return has(id, "Remote") || has(inf, "rdp")
			   ? "a remote desktop display"
			   : "a software display, not a device";
	if (!strcasecmp(prov, "Microsoft") &&
	    marked(desc, names, N(names)) == GD_VENDOR_OTHER)
		return "Microsoft's own display driver, not a GPU's";
	return NULL;
}

enum gd_vendor gd_win_adapter_vendor(const gd_reg_key *k, const char *id,
				     const char *desc, char *from, size_t cap,
				     const char **not_gpu)
{
	static const char *const dlls[] = {"UserModeDriverName",
					   "InstalledDisplayDrivers",
					   "UserModeDriverNameWow"};
	char prov[64] = "", f[300];
	enum gd_vendor v;

	from[0] = '\0';
	if ((*not_gpu = software(k, id, desc)))
		return GD_VENDOR_OTHER;
	if ((v = marked(desc, names, N(names))) != GD_VENDOR_OTHER) {
		gd_fmt(from, cap, "its name (DriverDesc)");
		return v;
	}
	gd_reg_str(k, "ProviderName", prov, sizeof prov);
	if ((v = marked(prov, names, N(names))) != GD_VENDOR_OTHER) {
		gd_fmt(from, cap, "its driver's ProviderName (%s)", prov);
		return v;
	}
	for (size_t i = 0; i < N(dlls); i++) {
		const char *b;

		if (gd_reg_str(k, dlls[i], f, sizeof f) ||
		    (v = marked(f, files, N(files))) == GD_VENDOR_OTHER)
			continue;
		b = strrchr(f, '\\');
		gd_fmt(from, cap, "its driver's files (%s)", b ? b + 1 : f);
		return v;
	}
	*not_gpu = "no GPU vendor in its name, provider or driver files";
	return GD_VENDOR_OTHER;
}
