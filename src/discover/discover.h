/* discover/: facts from the OS only (sysfs, procfs, /dev, the ids files).
 * Never loads a GPU runtime. Every path goes through ctx->fs. */
#ifndef GD_DISCOVER_H
#define GD_DISCOVER_H

#include <stdint.h>

#include "../core/ctx.h"
#include "../core/facts.h"

enum gd_vendor {
	GD_VENDOR_OTHER = 0,
	GD_VENDOR_AMD,    /* 0x1002 */
	GD_VENDOR_NVIDIA, /* 0x10de */
	GD_VENDOR_INTEL,  /* 0x8086 */
};
const char *gd_vendor_name(enum gd_vendor v); /* "amd", "nvidia", ... */

struct gd_pci {
	char bdf[16];          /* "0000:03:00.0" */
	uint32_t domain;
	uint32_t bus, dev, fn;
	uint32_t class_code;   /* 0x030000 */
	uint32_t vendor_id, device_id, subsys_vendor_id, subsys_device_id;
	gd_num revision;
	gd_text driver;        /* bound driver ("amdgpu"), unknown when none */
	gd_text cur_link_speed, max_link_speed; /* "16.0 GT/s PCIe" */
	gd_num cur_link_width, max_link_width;
	gd_num numa_node;      /* unknown when -1 */
	gd_num boot_vga;
};

/* One KFD topology node that belongs to a GPU. */
struct gd_kfd_node {
	unsigned id;                 /* N in .../topology/nodes/N */
	uint32_t gfx_target_version; /* 0 when absent */
	char gfx[16];                /* decoded, "" when unknown */
	gd_num simd_count, simd_per_cu, cpu_cores_count;
	gd_num local_mem_size, drm_render_minor, location_id, domain;
	gd_num device_id, vendor_id;
	gd_num fw_version, sdma_fw_version, num_xcc, max_engine_clk_fcompute;
	gd_num unique_id;
};

/* Effective gfx target after HSA_OVERRIDE_GFX_VERSION(_<node>). */
struct gd_override {
	char var[64];   /* which variable applied, "" when none */
	char value[64]; /* its raw value */
	int valid;      /* parsed as libhsakmt parses it */
	char gfx[16];   /* what ROCm will treat the GPU as */
	char why[160];  /* when invalid: what ROCm will do */
};

struct gd_access {
	gd_text kfd;        /* "/dev/kfd": "ok" or why not */
	gd_text render;     /* "/dev/dri/renderD128": "ok" or why not */
	int kfd_ok, render_ok;
	char missing_group[32]; /* "render", "video", "" */
	char fix[256];          /* exact command, "" when nothing to fix */
	int in_container;
	char container_flags[256]; /* --device flags for docker/podman */
};

struct gd_gpu {
	enum gd_vendor vendor;
	struct gd_pci pci;
	gd_text name;         /* best name, with src = "amdgpu.ids", "pci.ids", ... */
	gd_text pci_name;     /* the pci.ids name (chip), when known */
	int integrated;       /* 1 APU / iGPU, 0 discrete */
	char integrated_why[160];

	/* AMD */
	char gfx[16];         /* physical target, "" when unknown */
	char gfx_source[64];  /* "kfd gfx_target_version", "pci id (kb)", ... */
	struct gd_override ovr;
	struct gd_kfd_node *kfd_nodes; /* this GPU's nodes (MI300 partitions: several) */
	size_t n_kfd_nodes;
	gd_num cu_count, vram_total, vram_used, gtt_total;
	gd_num render_minor;
	char visible_note[160]; /* effect of ROCR/HIP/CUDA_VISIBLE_DEVICES */
	int hidden;             /* hidden from ROCm/CUDA by *_VISIBLE_DEVICES */
	struct gd_access access;

	/* NVIDIA */
	gd_text nv_model, nv_uuid, nv_vbios;
	char sm[16]; /* "sm_90", from the kb by PCI id, "" when unknown */
};

struct gd_kernel_info {
	gd_text release;        /* /proc/sys/kernel/osrelease */
	gd_text amdgpu_version; /* /sys/module/amdgpu/version (DKMS only) */
	gd_text nvidia_driver;  /* from /proc/driver/nvidia/version */
	gd_text nvidia_version_line;
	int amdgpu_loaded, nvidia_loaded, kfd_present;
};

struct gd_env_facts {
	char hsa_override[64];  /* HSA_OVERRIDE_GFX_VERSION raw, "" if unset */
	char rocr_visible[128], hip_visible[128], cuda_visible[128];
	int has_rocr_visible, has_hip_visible, has_cuda_visible;
};

struct gd_machine {
	struct gd_gpu *gpus;
	size_t n_gpus;
	struct gd_kernel_info kernel;
	struct gd_env_facts env;
	int kfd_nodes_total; /* all nodes including CPU ones */
};

/* Fill m from ctx->fs and ctx->env. Problems become diagnostics and
 * unknown facts, never a failure: returns <0 only when out of memory. */
int gd_discover(gd_ctx *ctx, struct gd_machine *m);
void gd_machine_free(struct gd_machine *m);

#endif
