/* Windows display adapters from the registry, without any GPU runtime:
 * the display class key HKLM\SYSTEM\CurrentControlSet\Control\Class\
 * {4d36e968-e325-11ce-bfc1-08002be10318}\NNNN holds, per installed
 * adapter driver, MatchingDeviceId (PCI\VEN_xxxx&DEV_yyyy[&SUBSYS_..]
 * [&REV_..]), DriverDesc, DriverVersion, ProviderName, InfPath,
 * HardwareInformation.qwMemorySize (REG_QWORD) / .MemorySize (4 bytes)
 * and, from AMD's driver, RadeonSoftwareVersion [docs/windows.md §A.2].
 * Subkeys of removed adapters stay behind; when the capture holds
 * Enum\PCI, only the NNNN an instance's "Driver" value names are kept. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/wincap.h"
#include "disc_int.h"

#define CLASS_KEY                                                              \
	"HKLM\\SYSTEM\\CurrentControlSet\\Control\\Class\\"                    \
	"{4d36e968-e325-11ce-bfc1-08002be10318}"
#define ENUM_PCI "HKLM\\SYSTEM\\CurrentControlSet\\Enum\\PCI"

/* "PCI\VEN_1002&DEV_731F&SUBSYS_E4111DA2&REV_C1" (any case). */
static int parse_matching(const char *id, struct gd_pci *p, int *has_rev)
{
	const char *t;
	uint32_t v;
	char tok[16];

	*has_rev = 0;
	if (strncasecmp(id, "PCI\\", 4))
		return -1;
	for (t = id + 4; *t;) {
		size_t n = strcspn(t, "&\\");

		if (n < sizeof tok) {
			memcpy(tok, t, n);
			tok[n] = '\0';
			if (!strncasecmp(tok, "VEN_", 4) &&
			    !gd_parse_u32(tok + 4, 16, &v))
				p->vendor_id = v;
			else if (!strncasecmp(tok, "DEV_", 4) &&
				 !gd_parse_u32(tok + 4, 16, &v))
				p->device_id = v;
			else if (!strncasecmp(tok, "SUBSYS_", 7) &&
				 !gd_parse_u32(tok + 7, 16, &v)) {
				p->subsys_device_id = v >> 16;
				p->subsys_vendor_id = v & 0xffff;
			} else if (!strncasecmp(tok, "REV_", 4) &&
				   !gd_parse_u32(tok + 4, 16, &v)) {
				gd_num_set(&p->revision, v, "MatchingDeviceId");
				*has_rev = 1;
			}
		}
		t += n;
		if (*t)
			t++;
	}
	return p->vendor_id && p->device_id ? 0 : -1;
}

int gd_win_nvidia_version(const char *dv, char *buf, size_t cap)
{
	char d[32];
	size_t n = 0;

	for (; *dv && n < sizeof d - 1; dv++)
		if (*dv >= '0' && *dv <= '9')
			d[n++] = *dv;
	d[n] = '\0';
	if (n < 5)
		return -1;
	gd_fmt(buf, cap, "%.3s.%.2s", d + n - 5, d + n - 2);
	/* "32.0.15.8129" -> 58129 -> "581.29"; a leading zero stays off */
	if (buf[0] == '0' && buf[1] != '.')
		memmove(buf, buf + 1, strlen(buf));
	return 0;
}

/* Does an Enum\PCI instance name this class subkey as its driver? Its
 * device key's name ("VEN_10DE&DEV_2882&SUBSYS_..&REV_A1") goes to dev. */
static int referenced(const gd_reg_key *pci, const char *sub, char *dev,
		      size_t cap)
{
	char want[96], drv[96];

	gd_fmt(want, sizeof want, "{4d36e968-e325-11ce-bfc1-08002be10318}\\%s",
	       sub);
	for (size_t i = 0; i < pci->nsub; i++)
		for (size_t j = 0; j < pci->sub[i]->nsub; j++)
			if (!gd_reg_str(pci->sub[i]->sub[j], "Driver", drv,
					sizeof drv) &&
			    !strcasecmp(drv, want)) {
				gd_fmt(dev, cap, "PCI\\%s", pci->sub[i]->name);
				return 1;
			}
	return 0;
}

static void memory(const gd_reg_key *k, struct gd_gpu *g)
{
	uint64_t v;

	if (!gd_reg_u64(k, "HardwareInformation.qwMemorySize", &v) && v) {
		gd_num_set(&g->vram_total, v, "registry qwMemorySize");
		gd_strlcpy(g->vram_src, "HardwareInformation.qwMemorySize",
			   sizeof g->vram_src);
	} else if (!gd_reg_u64(k, "HardwareInformation.MemorySize", &v) && v) {
		/* 32 bits: saturates at 4 GiB, hence qwMemorySize first */
		gd_num_set(&g->vram_total, v, "registry MemorySize");
		gd_strlcpy(g->vram_src, "HardwareInformation.MemorySize",
			   sizeof g->vram_src);
	} else {
		gd_num_unknown(
		    &g->vram_total, GD_UNKNOWN,
		    "no HardwareInformation memory size in the registry");
	}
}

static void driver(const gd_reg_key *k, struct gd_gpu *g)
{
	struct gd_win_adapter *w = &g->win;
	char s[160], u[32];

	if (!gd_reg_str(k, "DriverVersion", s, sizeof s) && *s)
		gd_text_set(&w->driver_version, s, "registry DriverVersion");
	else
		gd_text_unknown(&w->driver_version, GD_UNKNOWN,
				"no DriverVersion in the registry");
	gd_text_unknown(&w->driver_user, GD_UNKNOWN,
			"not known for this vendor");
	if (g->vendor == GD_VENDOR_AMD) {
		if (!gd_reg_str(k, "RadeonSoftwareVersion", s, sizeof s) && *s)
			gd_text_set(&w->driver_user, s,
				    "registry RadeonSoftwareVersion");
		else
			gd_text_unknown(
			    &w->driver_user, GD_UNKNOWN,
			    "no RadeonSoftwareVersion in the registry");
	} else if (g->vendor == GD_VENDOR_NVIDIA &&
		   gd_known(&w->driver_version) &&
		   !gd_win_nvidia_version(w->driver_version.v, u, sizeof u)) {
		gd_text_set(&w->driver_user, u,
			    "DriverVersion, last five digits");
	}
	gd_reg_str(k, "ProviderName", w->provider, sizeof w->provider);
	gd_reg_str(k, "InfPath", w->inf_path, sizeof w->inf_path);
}

static void amd(gd_ctx *ctx, struct gd_gpu *g)
{
	const char *gfx = gd_kbref_gfx_for_pci(ctx, g->pci.device_id);

	gd_num_unknown(&g->cu_count, GD_UNKNOWN, "Windows has no KFD");
	if (gfx) {
		gd_strlcpy(g->gfx, gfx, sizeof g->gfx);
		gd_strlcpy(g->gfx_effective, gfx, sizeof g->gfx_effective);
		gd_strlcpy(g->gfx_source,
			   "from the PCI id via the knowledge base; Windows "
			   "has no KFD",
			   sizeof g->gfx_source);
	} else {
		gd_fmt(g->gfx_why, sizeof g->gfx_why,
		       "PCI id 1002:%04x is not in the knowledge base, and "
		       "Windows has no KFD to ask",
		       g->pci.device_id);
	}
	g->integrated = gd_kbref_apu_for_pci(ctx, g->pci.device_id) == 1;
}

static int adapter(gd_ctx *ctx, const gd_reg_key *k, const char *enum_id,
		   struct gd_gpu *g)
{
	char id[128], desc[160];
	int has_rev;

	/* MatchingDeviceId may be absent from an export; the Enum\PCI
	 * instance that names this key as its driver carries the same ids. */
	if (gd_reg_str(k, "MatchingDeviceId", id, sizeof id) || !*id)
		gd_strlcpy(id, enum_id, sizeof id);
	if (parse_matching(id, &g->pci, &has_rev) < 0)
		return -1; /* ROOT\BasicRender, software adapters */
	g->vendor = gd_vendor_from_id(g->pci.vendor_id);
	g->pci.class_code = 0x030000;
	if (!has_rev)
		gd_num_unknown(&g->pci.revision, GD_UNKNOWN,
			       "MatchingDeviceId has no REV_");
	gd_strlcpy(g->win.class_key, k->name, sizeof g->win.class_key);
	gd_strlcpy(g->win.matching_id, id, sizeof g->win.matching_id);
	if (!gd_reg_str(k, "DriverDesc", desc, sizeof desc) && *desc)
		gd_text_set(&g->name, desc, "registry DriverDesc");
	else
		gd_text_unknown(&g->name, GD_UNKNOWN, "no DriverDesc");
	gd_text_unknown(&g->pci.driver, GD_UNKNOWN,
			"Windows: see DriverVersion");
	gd_num_unknown(&g->render_minor, GD_UNKNOWN, "Windows has no DRM");
	gd_num_unknown(&g->vram_used, GD_UNKNOWN, "not read on Windows");
	gd_num_unknown(&g->gtt_total, GD_UNKNOWN, "not read on Windows");
	memory(k, g);
	driver(k, g);
	g->first_agent = -1;
	if (g->vendor == GD_VENDOR_AMD)
		amd(ctx, g);
	else
		gd_fmt(g->gfx_why, sizeof g->gfx_why, "not an AMD GPU");
	return 0;
}

/* The kb's pci_not_gpu (QEMU's VGA, a BMC's display) as on Linux: moved
 * to m->not_gpus, named by its class key. 1 moved, 0 a GPU, <0 ENOMEM. */
static int not_gpu(gd_ctx *ctx, struct gd_machine *m, struct gd_gpu *g)
{
	struct gd_not_gpu ng, *slot;

	memset(&ng, 0, sizeof ng);
	if (!gd_kbref_not_gpu(ctx, g->pci.vendor_id, g->pci.device_id, ng.kind,
			      sizeof ng.kind, ng.name, sizeof ng.name))
		return 0;
	slot = realloc(m->not_gpus, (m->n_not_gpus + 1) * sizeof *slot);
	if (!slot)
		return -ENOMEM;
	m->not_gpus = slot;
	gd_strlcpy(ng.bdf, g->win.class_key, sizeof ng.bdf);
	ng.vendor_id = g->pci.vendor_id;
	ng.device_id = g->pci.device_id;
	ng.class_code = g->pci.class_code;
	m->not_gpus[m->n_not_gpus++] = ng;
	gd_fmt(m->pci_why, sizeof m->pci_why,
	       "the only display adapter, %s (%s, class key %s), is %s, not a "
	       "GPU",
	       gd_known(&g->name) ? g->name.v : "?", ng.name, ng.bdf,
	       !strcmp(ng.kind, "bmc") ? "a server management controller's "
					 "display"
				       : "an emulated display adapter");
	free(g->kfd_nodes);
	return 1;
}

int gd_win_discover(gd_ctx *ctx, struct gd_machine *m)
{
	const gd_reg_key *cls =
	    ctx->reg ? gd_reg_find(ctx->reg, CLASS_KEY) : NULL;
	const gd_reg_key *pci =
	    ctx->reg ? gd_reg_find(ctx->reg, ENUM_PCI) : NULL;
	GD_VEC(struct gd_gpu) gpus = {0};

	gd_strlcpy(m->kfd_why, "Windows has no KFD", sizeof m->kfd_why);
	gd_text_unknown(&m->kernel.release, GD_UNKNOWN, "Windows");
	if (!cls) {
		gd_strlcpy(m->pci_why, "no display class key in the registry",
			   sizeof m->pci_why);
		return 0;
	}
	for (size_t i = 0; i < cls->nsub; i++) {
		const gd_reg_key *k = cls->sub[i];
		struct gd_gpu *g;
		char enum_id[160] = "";

		if (strlen(k->name) != 4 || strspn(k->name, "0123456789") != 4)
			continue; /* "Properties", "Configuration" */
		if (pci && !referenced(pci, k->name, enum_id, sizeof enum_id))
			continue; /* a removed adapter's driver key */
		if (!(g = gd_vec_push(&gpus)))
			return -ENOMEM;
		if (adapter(ctx, k, enum_id, g) < 0)
			gpus.n--;
		else if (not_gpu(ctx, m, g) != 0)
			gpus.n--; /* listed in not_gpus, or no memory */
	}
	/* registry order is not PCI order: sort by class key for stable output
	 */
	for (size_t i = 1; i < gpus.n; i++)
		for (size_t j = i; j > 0 && strcmp(gpus.v[j - 1].win.class_key,
						   gpus.v[j].win.class_key) > 0;
		     j--) {
			struct gd_gpu t = gpus.v[j];

			gpus.v[j] = gpus.v[j - 1];
			gpus.v[j - 1] = t;
		}
	m->gpus = gpus.v;
	m->n_gpus = gpus.n;
	return 0;
}
