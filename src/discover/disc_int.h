/* Private to discover/: the pieces the join in discover.c calls. Every
 * function here reads through ctx->fs and never prints. */
#ifndef GD_DISC_INT_H
#define GD_DISC_INT_H

#include "core/winreg.h"
#include "discover.h"

#define GD_KFD_NODES "/sys/class/kfd/kfd/topology/nodes"
#define GD_PCI_DEVICES "/sys/bus/pci/devices"

/* kfd.c: every node of the KFD topology (CPU nodes included), in node
 * order. Returns 0 (possibly no nodes: why says so) or -ENOMEM. */
int gd_kfd_scan(gd_ctx *ctx, struct gd_kfd_node **nodes, size_t *n, char *why,
		size_t whycap);
int gd_kfd_node_is_gpu(const struct gd_kfd_node *n);

/* pci.c: display (0x03) and processing-accelerator (0x12) class devices,
 * in PCI order; the display devices that are no GPU go to ngs. */
int gd_pci_scan(gd_ctx *ctx, struct gd_pci **devs, size_t *n,
		struct gd_not_gpu **ngs, size_t *n_ng, char *why,
		size_t whycap);
/* Numeric PCI order: domain, bus, device, function. */
int gd_pci_cmp(const struct gd_pci *a, const struct gd_pci *b);
/* vendor.c: the vendor table\'s row for a PCI vendor id. */
enum gd_vendor gd_vendor_from_id(uint32_t vendor_id);

/* drm.c: mem_info_* of an amdgpu device, render minor from drm/. */
void gd_drm_fill(gd_ctx *ctx, struct gd_gpu *g);
/* The integrated-vs-discrete decision with its reason. */
void gd_decide_integrated(gd_ctx *ctx, struct gd_gpu *g);
/* After that decision: an APU's KFD memory bank / GTT as shared memory. */
void gd_drm_apu_memory(struct gd_gpu *g);

/* ids.c: names from amdgpu.ids / pci.ids under the root. */
struct gd_ids {
	char *amdgpu;
	size_t amdgpu_len;
	char *pci;
	size_t pci_len;
	char amdgpu_path[96], pci_path[96];
	int loaded;
};
void gd_ids_load(gd_ctx *ctx, struct gd_ids *ids);
void gd_ids_free(struct gd_ids *ids);
void gd_ids_name(gd_ctx *ctx, struct gd_ids *ids, struct gd_gpu *g);

/* discover.c: AMD's facts (gfx target, CUs, DRM, override, access); the
 * vendor table's named hook (after the names: the pci.ids chip name is a
 * fallback for families the knowledge base lists by chip, amd_no_kfd). */
void gd_amd_fill(gd_ctx *ctx, struct gd_gpu *g);

/* nvidia.c */
void gd_nvidia_kernel(gd_ctx *ctx, struct gd_kernel_info *k);
/* The vendor table's discover hook: before the names, which it may set. */
void gd_nvidia_fill(gd_ctx *ctx, struct gd_gpu *g);
/* The named hook, after the names: architecture, last driver branch and (when
 * the kb has no entry for the PCI id) sm from the pci.ids chip name. */
void gd_nvidia_arch(gd_ctx *ctx, struct gd_gpu *g);
/* discover/intel.c: the kb's Intel architecture (intel.families) of g,
 * by kernel platform, else by a fragment of its name. */
void gd_intel_family(gd_ctx *ctx, struct gd_gpu *g);

/* kstate.c: the kernel state (module parameters, cmdline, modprobe.d,
 * Secure Boot, TTM) and a GPU's firmware versions. */
void gd_kstate_read(gd_ctx *ctx, struct gd_machine *m);
void gd_fw_read(gd_ctx *ctx, struct gd_gpu *g);

/* access.c */
void gd_access_check(gd_ctx *ctx, struct gd_gpu *g);
/* NVIDIA in a container: /dev/nvidiactl and libcuda.so.1 passed in? */
void gd_access_nvidia(gd_ctx *ctx, struct gd_gpu *g);

/* override.c */
void gd_override_apply(gd_ctx *ctx, struct gd_gpu *g);
void gd_visible_apply(gd_ctx *ctx, struct gd_machine *m);

/* kbref.c: the knowledge base, guarded (it may be absent or not built). */
const char *gd_kbref_gfx_for_pci(gd_ctx *ctx, unsigned device_id);
/* The target of an AMD GPU known by name only ("AMD Radeon RX 5700 XT"):
 * the kb's product lists (gd_kb_gfx_for_name); NULL when not told. */
const char *gd_kbref_gfx_for_name(gd_ctx *ctx, const char *name);
/* A Windows display class key without a PCI id (win_adapter_name.c): the
 * GPU vendor its name, ProviderName or driver DLLs say, with what said it
 * in from; GD_VENDOR_OTHER with *not_gpu saying what it is instead (a
 * software, remote or virtual display; nothing naming a GPU vendor). */
enum gd_vendor gd_win_adapter_vendor(const gd_reg_key *k, const char *id,
				     const char *desc, char *from, size_t cap,
				     const char **not_gpu);
const char *gd_kbref_name_for_pci(gd_ctx *ctx, unsigned device_id);
int gd_kbref_apu_for_pci(gd_ctx *ctx, unsigned device_id); /* 1, 0, -1 */
int gd_kbref_apu_for_gfx(gd_ctx *ctx, const char *gfx);
const char *gd_kbref_nvidia(gd_ctx *ctx, unsigned device_id, const char *key);
/* kb nvidia_chips: the entry whose chip prefix is the longest match of
 * chip ("GV100GL" -> "GV100": sm_70, Volta). 1 found, 0 not. */
struct gd_nv_chip {
	char prefix[16], sm[16], arch[32], last_driver[16], last_cuda[16];
};
int gd_kbref_nvidia_chip(gd_ctx *ctx, const char *chip, struct gd_nv_chip *out);
/* The architecture nvidia.compute_capabilities gives for sm, or NULL. */
const char *gd_kbref_nvidia_arch(gd_ctx *ctx, const char *sm);
/* kb amd_no_kfd: 1 when the PCI id, or else the pci.ids name's chip
 * ("Oland PRO [...]" starts with "Oland"), is of a family KFD never
 * supported (family and gfx filled): 1 by PCI id, 2 by chip name; else 0. */
int gd_kbref_amd_no_kfd(gd_ctx *ctx, unsigned device_id, const char *pci_name,
			char *family, size_t fcap, char *gfx, size_t gcap);
/* kb pci_not_gpu: 1 when vendor:device (of PCI class class_code, 0 when
 * unknown) is a display device or accelerator that is no GPU (kind "bmc",
 * "emulated", "npu", "accelerator" and its name filled), else 0. */
int gd_kbref_not_gpu(gd_ctx *ctx, unsigned vendor, unsigned device,
		     unsigned class_code, char *kind, size_t kcap, char *name,
		     size_t ncap);

/* win_adapters.c: the machine of a Windows capture or of Windows itself,
 * from the registry (ctx->reg); no GPU runtime, no KFD. */
int gd_win_discover(gd_ctx *ctx, struct gd_machine *m);
/* NVIDIA's DriverVersion as users know it: the last five digits,
 * "32.0.15.8129" -> "581.29". 0, or -1 when it has fewer digits. */
int gd_win_nvidia_version(const char *driver_version, char *buf, size_t cap);

#endif
