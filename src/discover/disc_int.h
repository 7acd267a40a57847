/* Private to discover/: the pieces the join in discover.c calls. Every
 * function here reads through ctx->fs and never prints. */
#ifndef GD_DISC_INT_H
#define GD_DISC_INT_H

#include "discover.h"

#define GD_KFD_NODES "/sys/class/kfd/kfd/topology/nodes"
#define GD_PCI_DEVICES "/sys/bus/pci/devices"

/* kfd.c: every node of the KFD topology (CPU nodes included), in node
 * order. Returns 0 (possibly no nodes: why says so) or -ENOMEM. */
int gd_kfd_scan(gd_ctx *ctx, struct gd_kfd_node **nodes, size_t *n,
		char *why, size_t whycap);
int gd_kfd_node_is_gpu(const struct gd_kfd_node *n);

/* pci.c: display (0x03) and processing-accelerator (0x12) class devices. */
int gd_pci_scan(gd_ctx *ctx, struct gd_pci **devs, size_t *n, char *why,
		size_t whycap);
/* vendor.c: the vendor table's row for a PCI vendor id. */
enum gd_vendor gd_vendor_from_id(uint32_t vendor_id);

/* drm.c: mem_info_* of an amdgpu device, render minor from drm/. */
void gd_drm_fill(gd_ctx *ctx, struct gd_gpu *g);
/* The integrated-vs-discrete decision with its reason. */
void gd_decide_integrated(gd_ctx *ctx, struct gd_gpu *g);

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
 * vendor table's discover hook. */
void gd_amd_fill(gd_ctx *ctx, struct gd_gpu *g);

/* nvidia.c */
void gd_nvidia_kernel(gd_ctx *ctx, struct gd_kernel_info *k);
void gd_nvidia_fill(gd_ctx *ctx, struct gd_gpu *g);

/* access.c */
void gd_access_check(gd_ctx *ctx, struct gd_gpu *g);

/* override.c */
void gd_override_apply(gd_ctx *ctx, struct gd_gpu *g);
void gd_visible_apply(gd_ctx *ctx, struct gd_machine *m);

/* kbref.c: the knowledge base, guarded (it may be absent or not built). */
const char *gd_kbref_gfx_for_pci(gd_ctx *ctx, unsigned device_id);
const char *gd_kbref_name_for_pci(gd_ctx *ctx, unsigned device_id);
int gd_kbref_apu_for_pci(gd_ctx *ctx, unsigned device_id); /* 1, 0, -1 */
int gd_kbref_apu_for_gfx(gd_ctx *ctx, const char *gfx);
const char *gd_kbref_nvidia(gd_ctx *ctx, unsigned device_id, const char *key);

#endif
