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
#include "ids_table.h"
#include "vendor.h"

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

/* The target from the PCI id, else (an adapter known by name only) from
 * the marketing name through the kb's product lists. */
static void amd(gd_ctx *ctx, struct gd_gpu *g)
{
	const char *gfx = g->pci.device_id
			      ? gd_kbref_gfx_for_pci(ctx, g->pci.device_id)
			      : NULL;
	int by_name = !gfx && gd_known(&g->name) &&
		      (gfx = gd_kbref_gfx_for_name(ctx, g->name.v));
	/* the kb first (its rows are judged), then the embedded ids */
	int by_table = !gfx && g->idrow && g->idrow->target[0];

	gd_num_unknown(&g->cu_count, GD_UNKNOWN, "Windows has no KFD");
	if (by_table) {
		gd_strlcpy(g->gfx, g->idrow->target, sizeof g->gfx);
		gd_strlcpy(g->gfx_effective, g->gfx, sizeof g->gfx_effective);
		gd_fmt(g->gfx_source, sizeof g->gfx_source,
		       "from the PCI id via the embedded ids (%s); Windows has "
		       "no KFD",
		       g->idrow->src);
		g->integrated = (g->idrow->flags & GD_IDF_IGPU) != 0;
		return;
	}
	if (gfx) {
		gd_strlcpy(g->gfx, gfx, sizeof g->gfx);
		gd_strlcpy(g->gfx_effective, gfx, sizeof g->gfx_effective);
		gd_strlcpy(g->gfx_source,
			   !by_name ? "from the PCI id via the knowledge base; "
				      "Windows has no KFD"
			   : g->pci.device_id
			       ? "from the name via the knowledge base's "
				 "product lists; its PCI id is not in the "
				 "knowledge base"
			       : "from the name via the knowledge base's "
				 "product lists; no PCI id in the registry",
			   sizeof g->gfx_source);
	} else if (g->pci.device_id) {
		gd_fmt(g->gfx_why, sizeof g->gfx_why,
		       "PCI id 1002:%04x is not in the knowledge base, and "
		       "Windows has no KFD to ask",
		       g->pci.device_id);
	} else {
		gd_fmt(g->gfx_why, sizeof g->gfx_why,
		       "no PCI id in the registry, and the knowledge base "
		       "names no single target for \"%s\"",
		       g->name.v);
	}
	g->integrated = !by_name
			    ? gd_kbref_apu_for_pci(ctx, g->pci.device_id) == 1
			    : gd_kbref_apu_for_gfx(ctx, gfx) == 1;
}

/* The PCI ids of the adapter: MatchingDeviceId, else the Enum\PCI
 * instance naming this key (a driverless adapter matches PCI\CC_0300);
 * -1 when neither is PCI\VEN_..&DEV_... */
static int pci_ids(const char *id, const char *enum_id, struct gd_gpu *g,
		   int *has_rev)
{
	if (parse_matching(id, &g->pci, has_rev) == 0)
		return 0;
	memset(&g->pci, 0, sizeof g->pci);
	if (enum_id[0] && parse_matching(enum_id, &g->pci, has_rev) == 0)
		return 0;
	memset(&g->pci, 0, sizeof g->pci);
	return -1;
}

/* 0: a GPU in g; 1: not a GPU (*what says what it is instead). */
static int identify(const gd_reg_key *k, const char *id, const char *enum_id,
		    const char *desc, struct gd_gpu *g, const char **what)
{
	int has_rev = 0;

	*what = NULL;
	if (pci_ids(id, enum_id, g, &has_rev) == 0) {
		g->vendor = gd_vendor_from_id(g->pci.vendor_id);
		if (!has_rev)
			gd_num_unknown(&g->pci.revision, GD_UNKNOWN,
				       "MatchingDeviceId has no REV_");
		return 0;
	}
	g->vendor = gd_win_adapter_vendor(k, id, desc, g->win.vendor_from,
					  sizeof g->win.vendor_from, what);
	if (g->vendor == GD_VENDOR_OTHER)
		return 1;
	g->pci.vendor_id = gd_vendor_ops(g->vendor)->pci_vendor;
	gd_num_unknown(&g->pci.revision, GD_UNKNOWN,
		       "no PCI id in the registry");
	return 0;
}

/* The embedded id tables' facts (docs/ids.md; g->idrow is looked up in
 * adapter()) through the vendor's named hook, as on Linux: NVIDIA's sm and
 * architecture, Intel's family (by name too, for an adapter without a PCI
 * id). AMD's hook reads KFD and DRM: not here. */
static void named(gd_ctx *ctx, struct gd_gpu *g)
{
	const struct gd_vendor_ops *ops = gd_vendor_ops(g->vendor);

	if (ops->named)
		ops->named(ctx, g);
}

/* 0: a GPU; 1: a display that is no GPU (*what: what it is). */
static int adapter(gd_ctx *ctx, const gd_reg_key *k, const char *enum_id,
		   struct gd_gpu *g, const char **what)
{
	char id[128] = "", desc[160] = "";

	/* MatchingDeviceId may be absent from an export; the Enum\PCI
	 * instance that names this key as its driver carries the same ids. */
	if (gd_reg_str(k, "MatchingDeviceId", id, sizeof id) || !*id)
		gd_strlcpy(id, enum_id, sizeof id);
	gd_reg_str(k, "DriverDesc", desc, sizeof desc);
	if (identify(k, id, enum_id, desc, g, what))
		return 1;
	g->pci.class_code = 0x030000;
	gd_strlcpy(g->win.class_key, k->name, sizeof g->win.class_key);
	gd_strlcpy(g->win.matching_id, id, sizeof g->win.matching_id);
	if (*desc)
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
	/* the vendors' published ids give the architecture (and NVIDIA's
	 * compute capability) with no file on the machine, as on Linux */
	g->idrow = g->pci.device_id
		       ? gd_ids_lookup(g->pci.vendor_id, g->pci.device_id)
		       : NULL;
	if (g->vendor == GD_VENDOR_AMD) {
		amd(ctx, g);
	} else {
		gd_fmt(g->gfx_why, sizeof g->gfx_why, "not an AMD GPU");
		named(ctx, g);
	}
	return 0;
}

static int add_not_gpu(struct gd_machine *m, const struct gd_not_gpu *ng)
{
	struct gd_not_gpu *slot =
	    realloc(m->not_gpus, (m->n_not_gpus + 1) * sizeof *slot);

	if (!slot)
		return -ENOMEM;
	m->not_gpus = slot;
	m->not_gpus[m->n_not_gpus++] = *ng;
	return 0;
}

/* The kb's pci_not_gpu (QEMU's VGA, a BMC's display) as on Linux: moved
 * to m->not_gpus, named by its class key. 1 moved, 0 a GPU, <0 ENOMEM. */
static int not_gpu(gd_ctx *ctx, struct gd_machine *m, struct gd_gpu *g)
{
	struct gd_not_gpu ng;

	memset(&ng, 0, sizeof ng);
	if (!g->pci.device_id ||
	    !gd_kbref_not_gpu(ctx, g->pci.vendor_id, g->pci.device_id,
			      g->pci.class_code, ng.kind, sizeof ng.kind,
			      ng.name, sizeof ng.name))
		return 0;
	gd_strlcpy(ng.bdf, g->win.class_key, sizeof ng.bdf);
	ng.vendor_id = g->pci.vendor_id;
	ng.device_id = g->pci.device_id;
	ng.class_code = g->pci.class_code;
	if (add_not_gpu(m, &ng) < 0)
		return -ENOMEM;
	gd_fmt(m->pci_why, sizeof m->pci_why,
	       "the only display adapter, %s (%s, class key %s), is %s, not a "
	       "GPU",
	       gd_known(&g->name) ? g->name.v : "?", ng.name, ng.bdf,
	       gd_not_gpu_what(ng.kind));
	free(g->kfd_nodes);
	return 1;
}

/* A display adapter without a PCI id that names no GPU (Microsoft Basic
 * Render Driver, a remote or virtual display): listed, never judged. */
static int soft_display(struct gd_machine *m, const gd_reg_key *k,
			const char *what)
{
	struct gd_not_gpu ng;
	char desc[160] = "";

	memset(&ng, 0, sizeof ng);
	gd_reg_str(k, "DriverDesc", desc, sizeof desc);
	gd_strlcpy(ng.bdf, k->name, sizeof ng.bdf);
	gd_strlcpy(ng.kind,
		   strstr(what, "remote")    ? "remote"
		   : strstr(what, "virtual") ? "virtual"
		   : strstr(what, "vendor")  ? "unknown"
					     : "software",
		   sizeof ng.kind);
	gd_fmt(ng.name, sizeof ng.name, "%s: %s", desc[0] ? desc : "?", what);
	return add_not_gpu(m, &ng);
}

/* Why there is no GPU, in Windows' words, when nothing above said it. */
static void no_gpu_why(struct gd_machine *m, size_t n_keys)
{
	size_t n;

	if (m->n_gpus || (m->pci_why[0] && m->n_not_gpus <= 1))
		return;
	if (!m->n_not_gpus) {
		gd_fmt(m->pci_why, sizeof m->pci_why,
		       "the registry's display class key lists %s",
		       n_keys ? "no installed display adapter"
			      : "no display adapter");
		return;
	}
	gd_strlcpy(m->pci_why, "no display adapter in the registry is a GPU: ",
		   sizeof m->pci_why);
	for (size_t i = 0; i < m->n_not_gpus; i++) {
		n = strlen(m->pci_why);
		gd_fmt(m->pci_why + n, sizeof m->pci_why - n, "%s%s",
		       i ? "; " : "", m->not_gpus[i].name);
	}
}

static void sort_gpus(struct gd_gpu *v, size_t n)
{
	/* registry order is not PCI order: by class key, for stable output */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && strcmp(v[j - 1].win.class_key,
						   v[j].win.class_key) > 0;
		     j--) {
			struct gd_gpu t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

int gd_win_discover(gd_ctx *ctx, struct gd_machine *m)
{
	const gd_reg_key *cls =
	    ctx->reg ? gd_reg_find(ctx->reg, CLASS_KEY) : NULL;
	const gd_reg_key *pci =
	    ctx->reg ? gd_reg_find(ctx->reg, ENUM_PCI) : NULL;
	GD_VEC(struct gd_gpu) gpus = {0};
	size_t n_keys = 0;

	gd_strlcpy(m->kfd_why, "Windows has no KFD", sizeof m->kfd_why);
	gd_text_unknown(&m->kernel.release, GD_UNKNOWN, "Windows");
	if (!cls) {
		gd_strlcpy(m->pci_why, "no display class key in the registry",
			   sizeof m->pci_why);
		return 0;
	}
	for (size_t i = 0; i < cls->nsub; i++) {
		const gd_reg_key *k = cls->sub[i];
		const char *what;
		struct gd_gpu *g;
		char enum_id[160] = "", mid[128] = "";
		int rc;

		if (strlen(k->name) != 4 || strspn(k->name, "0123456789") != 4)
			continue; /* "Properties", "Configuration" */
		gd_reg_str(k, "MatchingDeviceId", mid, sizeof mid);
		/* a removed PCI adapter's driver key stays behind; one with
		 * no PCI id is not in Enum\PCI at all */
		if (pci && !referenced(pci, k->name, enum_id, sizeof enum_id) &&
		    !strncasecmp(mid, "PCI\\VEN_", 8))
			continue;
		n_keys++;
		if (!(g = gd_vec_push(&gpus)))
			return -ENOMEM;
		if ((rc = adapter(ctx, k, enum_id, g, &what)) == 1) {
			gpus.n--;
			if (soft_display(m, k, what) < 0)
				return -ENOMEM;
		} else if ((rc = not_gpu(ctx, m, g)) != 0) {
			gpus.n--; /* listed in not_gpus */
			if (rc < 0)
				return -ENOMEM;
		}
	}
	sort_gpus(gpus.v, gpus.n);
	m->gpus = gpus.v;
	m->n_gpus = gpus.n;
	no_gpu_why(m, n_keys);
	return 0;
}
