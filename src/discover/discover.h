/* discover/: facts from the OS only (sysfs, procfs, /dev, the ids files).
 * Never loads a GPU runtime. Every path goes through ctx->fs. */
#ifndef GD_DISCOVER_H
#define GD_DISCOVER_H

#include <stdint.h>

#include "../core/ctx.h"
#include "../core/facts.h"
#include "ids_table.h"
#include "kstate.h"

enum gd_vendor {
	GD_VENDOR_OTHER = 0,
	GD_VENDOR_AMD,	  /* 0x1002 */
	GD_VENDOR_NVIDIA, /* 0x10de */
	GD_VENDOR_INTEL,  /* 0x8086 */
};
const char *gd_vendor_name(enum gd_vendor v); /* "amd", "nvidia", ... */

struct gd_pci {
	char bdf[16]; /* "0000:03:00.0" */
	uint32_t domain;
	uint32_t bus, dev, fn;
	uint32_t class_code; /* 0x030000 */
	uint32_t vendor_id, device_id, subsys_vendor_id, subsys_device_id;
	gd_num revision;
	gd_text driver; /* bound driver ("amdgpu"), unknown when none */
	gd_text cur_link_speed, max_link_speed; /* "16.0 GT/s PCIe" */
	gd_num cur_link_width, max_link_width;
	gd_num numa_node; /* unknown when -1 */
	gd_num boot_vga;
	int is_link; /* the devices/ entry was a symlink (real sysfs) */
	/* append-only: neither the driver link nor uevent is in the tree,
	 * so whether a driver is bound is not known (driver.why says so) */
	int driver_unseen;
	/* append-only, SR-IOV (docs/virtual.md): physfn, a virtual
	 * function's physical function ("0000:00:02.0", from its physfn
	 * link; "" when none, as on a PF or in a guest). On a PF:
	 * sriov_numvfs (VFs enabled), and the VFs folded under it: n_vfs in
	 * all, n_vfs_host bound to a driver on this host other than vfio-pci
	 * (vf_host_driver: the first such), n_vfs_vfio bound to vfio-pci. */
	char physfn[16];
	gd_num sriov_numvfs;
	int n_vfs, n_vfs_host, n_vfs_vfio;
	char vf_host_driver[24];
	char vf_first[16], vf_last[16]; /* the folded VFs' range */
};

/* One KFD topology node that belongs to a GPU. */
struct gd_kfd_node {
	unsigned id;		     /* N in .../topology/nodes/N */
	uint32_t gfx_target_version; /* 0 when absent */
	char gfx[16];		     /* decoded, "" when unknown */
	gd_num simd_count, simd_per_cu, cpu_cores_count;
	gd_num local_mem_size, drm_render_minor, location_id, domain;
	gd_num device_id, vendor_id;
	gd_num fw_version, sdma_fw_version, num_xcc, max_engine_clk_fcompute;
	gd_num unique_id;
	/* Added by discover/ (append-only): */
	int has_gfx_target_version; /* the key was present */
	int cpu_and_gpu;	    /* old APU CRAT: CPU cores AND SIMDs */
	gd_num cu_count;	    /* simd_count / simd_per_cu */
	gd_num mem_banks_bytes;	    /* sum of heap_type 1/2 mem_banks sizes */
	gd_num hive_id, gpu_id;
	char bdf[16];  /* from domain + location_id */
	int truncated; /* properties file was cut at the cap */
	char why[128]; /* why this node is incomplete, "" if ok */
};

/* Effective gfx target after HSA_OVERRIDE_GFX_VERSION(_<node>). */
struct gd_override {
	char var[64];	/* which variable applied, "" when none */
	char value[64]; /* its raw value */
	int valid;	/* parsed as libhsakmt parses it */
	char gfx[16];	/* what ROCm will treat the GPU as */
	char why[160];	/* when invalid: what ROCm will do */
};

struct gd_access {
	gd_text kfd;	/* "/dev/kfd": "ok" or why not */
	gd_text render; /* "/dev/dri/renderD128": "ok" or why not */
	int kfd_ok, render_ok;
	char missing_group[32]; /* "render", "video", "" */
	char fix[256];		/* exact command, "" when nothing to fix */
	int in_container;
	char container_flags[256]; /* --device flags for docker/podman */
	/* NVIDIA GPU, in a container whose /dev can be judged (the live
	 * machine, or a tree that holds /dev): 1 /dev/nvidiactl is here, 0
	 * it is not (the container was started without the GPU), -1 not
	 * judged. nv_libcuda: 1 libcuda.so.1 in the container's library
	 * folders, 0 not (the driver's libraries were not passed in), -1
	 * not judged. docs/virtual.md. */
	int nv_nodes, nv_libcuda;
	char nv_caps[96]; /* NVIDIA_DRIVER_CAPABILITIES, "" when unset */
	/* Append-only: the NVIDIA GPU's own nodes, in or out of a container
	 * (docs/virtual.md). nv_minor: "Device Minor" of its procfs
	 * information, -1 unknown. nv_dev (/dev/nvidia<minor>) and nv_uvm
	 * (/dev/nvidia-uvm, judged when nv_dev is 1): 1 read-write, 0
	 * absent, 2 present without read-write (nv_why: path, mode, group;
	 * nv_group: the group to join, "" when that would not help), -1 not
	 * judged (minor unknown, or /dev not recorded). */
	int nv_minor, nv_dev, nv_uvm;
	char nv_why[160], nv_group[32];
	/* nv_dev 0 because the container's /proc/driver/nvidia/gpus has
	 * other GPUs' entries but not this one's (the toolkit's way) */
	int nv_hidden;
	int nv_modprobe; /* nvidia-modprobe is installed (/usr/bin,
			    /usr/local/bin) */
};

/* A display-class PCI device that is not a GPU for compute. */
struct gd_not_gpu {
	char bdf[16];
	uint32_t vendor_id, device_id, class_code;
	char kind[24]; /* "bmc", "emulated", "npu", "accelerator" (kb) */
	char name[96]; /* the kb's name for it */
};

/* What a kb pci_not_gpu kind is, in words: "a server management
 * controller's display", "an emulated display adapter", "a neural
 * processing unit (NPU)". */
const char *gd_not_gpu_what(const char *kind);

struct gd_gpu {
	enum gd_vendor vendor;
	struct gd_pci pci;
	gd_text name; /* best name, with src = "amdgpu.ids", "pci.ids", ... */
	gd_text pci_name; /* the pci.ids name (chip), when known */
	int integrated;	  /* 1 APU / iGPU, 0 discrete */
	char integrated_why[160];

	/* AMD */
	char gfx[16];	     /* physical target, "" when unknown */
	char gfx_source[64]; /* "kfd gfx_target_version", "pci id (kb)", ... */
	struct gd_override ovr;
	struct gd_kfd_node
	    *kfd_nodes; /* this GPU's nodes (MI300 partitions: several) */
	size_t n_kfd_nodes;
	gd_num cu_count, vram_total, vram_used, gtt_total;
	gd_num render_minor;
	char visible_note[160]; /* effect of ROCR/HIP/CUDA_VISIBLE_DEVICES */
	int hidden;		/* hidden from ROCm/CUDA by *_VISIBLE_DEVICES */
	struct gd_access access;

	/* NVIDIA (discover/nvidia.c) */
	struct gd_gpu_nvidia {
		gd_text model, uuid, vbios;
		char sm[16]; /* "sm_90", from the kb by PCI id, "" unknown */
		char sm_src[96];      /* where sm came from, "" when unknown */
		char arch[32];	      /* "Volta", "" when unknown */
		char last_driver[16]; /* last driver branch for the arch
				       * ("470"), "" when current drivers
				       * support it */
		char last_cuda[16];   /* last CUDA release for it, "" when
				       * current */
	} nv;

	/* Intel (discover/intel.c) */
	struct gd_gpu_intel {
		char platform[16]; /* the kernel's platform ("DG2"), "" unknown
				    */
		char family[16];   /* kb intel.families id ("xe-hpg") */
		char family_src[96]; /* what matched, "" when unknown */
	} intel;

	/* Added by discover/ (append-only): */
	char gfx_why[160];	/* why gfx is "" */
	char gfx_effective[16]; /* ovr.gfx when a valid override applies, else
				   gfx */
	int n_agents_hidden;	/* KFD agents of this GPU hidden by
				 *_VISIBLE_DEVICES */
	int first_agent;   /* ROCm agent index of the first node, -1 none */
	int pci_missing;   /* built from KFD alone: no PCI entry */
	char vram_src[64]; /* which source vram_total came from */
	/* AMD, added by discover/: the family when KFD never supported it
	 * (kb amd_no_kfd: "Southern Islands (GCN 1)"), "" otherwise */
	char amd_no_kfd[48];
	/* APUs: the system memory the GPU shares (the KFD memory bank, which
	 * equals GTT there, or mem_info_gtt_total); vram_total is then only
	 * the carve-out. Unknown on discrete GPUs. */
	gd_num shared_mem;
	char shared_src[64];
	/* Windows (discover/win_adapters.c), append-only: the display class
	 * key {4d36e968-e325-11ce-bfc1-08002be10318}\NNNN of this adapter. */
	struct gd_win_adapter {
		char class_key[8];	/* "0000", "" off Windows */
		char matching_id[128];	/* MatchingDeviceId as stored */
		gd_text driver_version; /* DriverVersion: "32.0.12033.1030" */
		/* as users know it: AMD Software (Adrenalin) "25.5.1" from
		 * RadeonSoftwareVersion; NVIDIA "581.29" from DriverVersion */
		gd_text driver_user;
		char provider[64], inf_path[64];
		/* no PCI id in the registry (MatchingDeviceId missing or not
		 * PCI\VEN_..): the vendor came from this, "" with an id */
		char vendor_from[64];
	} win;
	/* amdgpu's device/fw_version/ (kstate.c), append-only */
	struct gd_fw fw;
	/* The embedded id tables' row for this PCI id (ids_table.h,
	 * docs/ids.md), NULL when no vendor list knows it. */
	const struct gd_id_row *idrow;
};

struct gd_kernel_info {
	gd_text release;	/* /proc/sys/kernel/osrelease */
	gd_text amdgpu_version; /* /sys/module/amdgpu/version (DKMS only) */
	gd_text nvidia_driver;	/* from /proc/driver/nvidia/version */
	gd_text nvidia_version_line;
	int amdgpu_loaded, nvidia_loaded, kfd_present;
	int gim_loaded; /* AMD's SR-IOV host driver (append-only) */
};

struct gd_env_facts {
	char hsa_override[64]; /* HSA_OVERRIDE_GFX_VERSION raw, "" if unset */
	char rocr_visible[128], hip_visible[128], cuda_visible[128];
	int has_rocr_visible, has_hip_visible, has_cuda_visible;
};

struct gd_machine {
	struct gd_gpu *gpus;
	size_t n_gpus;
	struct gd_kernel_info kernel;
	struct gd_env_facts env;
	int kfd_nodes_total; /* all nodes including CPU ones */
	/* Added by discover/ (append-only): */
	char kfd_why[160]; /* why there is no KFD topology, "" when present */
	char pci_why[400]; /* why the PCI scan found no GPU, "" otherwise */
	char ids_amdgpu[96], ids_pci[96]; /* ids files used, "" when none */
	char visible_summary[256]; /* one line on *_VISIBLE_DEVICES, "" if unset
				    */
	/* Display-class devices that are no GPU (a BMC's VGA, an emulated
	 * adapter), left out of gpus[] (knowledge base pci_not_gpu). */
	struct gd_not_gpu *not_gpus;
	size_t n_not_gpus;
	/* Module parameters, cmdline, modprobe.d, Secure Boot, TTM limits
	 * (kstate.c), append-only */
	struct gd_kstate kstate;
	/* Append-only: the root is a directory given with --root that is no
	 * `gather` capture (no .gpudoctor/environ): an absent file there is
	 * "not captured", not "absent on the machine" */
	int not_a_capture;
	/* Append-only: WSL2 (/dev/dxg or a "microsoft-standard-WSL" kernel),
	 * and the Windows driver's libcuda in /usr/lib/wsl/lib, "" none */
	int wsl;
	char wsl_libcuda[48];
};

/* Fill m from ctx->fs and ctx->env. Problems become diagnostics and
 * unknown facts, never a failure: returns <0 only when out of memory. */
int gd_discover(gd_ctx *ctx, struct gd_machine *m);
/* The best name, or "AMD GPU [1002:731f]" when none is known. */
void gd_gpu_display_name(const struct gd_gpu *g, char *buf, size_t cap);
void gd_machine_free(struct gd_machine *m);

/* ---- Pure parsers (bytes in, struct out; unit-tested and fuzzed) ---- */

/* A KFD properties file: "key value\n" lines, value a decimal u64
 * (the kernel's node_show(): docs/discover.md). Unknown keys are kept,
 * no key is required, bad lines are counted and skipped. */
#define GD_KFD_MAX_PROPS 96
struct gd_kfd_props {
	size_t n;
	struct {
		char key[40];
		uint64_t v;
	} kv[GD_KFD_MAX_PROPS];
	int bad_lines; /* lines that are not "key decimal" */
	int dropped;   /* keys past GD_KFD_MAX_PROPS */
};
void gd_kfd_props_parse(const char *buf, size_t len, struct gd_kfd_props *p);
/* 1 and *v set when present, 0 when absent. */
int gd_kfd_props_get(const struct gd_kfd_props *p, const char *key,
		     uint64_t *v);
/* Fill a node from parsed properties (no I/O). */
void gd_kfd_node_from_props(struct gd_kfd_node *n, unsigned id,
			    const struct gd_kfd_props *p);
/* gfx_target_version -> "gfx90a": major decimal, minor and stepping one
 * hex digit each (the kernel's kgd2kfd_probe() table, docs/discover.md).
 * Returns 0, or -1 (out "") for 0 or a value whose minor/stepping do not
 * fit. */
int gd_gfx_from_version(uint32_t v, char *out, size_t cap);
/* major.minor.stepping -> "gfx1030" (the same rule). */
int gd_gfx_from_parts(unsigned major, unsigned minor, unsigned step, char *out,
		      size_t cap);

/* HSA_OVERRIDE_GFX_VERSION as libhsakmt parses it (docs/discover.md):
 * sscanf("%u.%u.%u%c") must give exactly 3, major <= 63, minor and
 * stepping <= 255. Returns 0 and fills o->gfx, or -1 with o->why set to
 * "ROCm will refuse to start: ...". */
int gd_hsa_override_parse(const char *value, struct gd_override *o);

/* amdgpu.ids (libdrm's, docs/ids.md: "DEVICE,\tREV,\tNAME"): name for
 * device AND revision. Returns 1 found, 0 not. */
int gd_amdgpu_ids_lookup(const char *buf, size_t len, unsigned device,
			 unsigned revision, char *name, size_t cap);
/* pci.ids (pciutils/hwdata): vendor line "vvvv  Name", device line
 * "\tdddd  Name". Either output may be NULL. Returns 1 when the device
 * was found, 0 otherwise (vendor may still be filled). */
int gd_pci_ids_lookup(const char *buf, size_t len, unsigned vendor,
		      unsigned device, char *vname, size_t vcap, char *dname,
		      size_t dcap);

/* /proc/driver/nvidia/version first line -> "550.54.15". */
int gd_nv_version_parse(const char *buf, char *ver, size_t cap);
/* /proc/driver/nvidia/gpus/BDF/information "Key: value" lines. */
int gd_nv_info_get(const char *buf, const char *key, char *out, size_t cap);

/* "0000:03:00.0" -> parts; 0 ok, -1 malformed. The domain has 4 hex
 * digits, or 5 behind an Intel VMD bridge ("10000:e1:00.0"). */
int gd_pci_bdf_parse(const char *s, uint32_t *dom, uint32_t *bus, uint32_t *dev,
		     uint32_t *fn);

/* A PCI device's ids from its uevent file or its config space, for when
 * the vendor / device / class attributes are missing (pci_fallback.c). */
struct gd_pci_uevent {
	int has_id, has_subsys, has_class, has_revision;
	uint32_t vendor, device, sub_vendor, sub_device, class_code, revision;
	char driver[64]; /* DRIVER=, "" when none */
};
/* uevent "KEY=value" lines; 0 when anything useful was found, else -1. */
int gd_pci_uevent_parse(const char *buf, size_t len, struct gd_pci_uevent *u);
/* config space bytes (at least 4); 0 ok, -1 too short or no device. */
int gd_pci_config_parse(const unsigned char *buf, size_t len,
			struct gd_pci_uevent *u);

/* *_VISIBLE_DEVICES: the list of agent indices a value keeps, in the
 * order given; uuids[i] (may be NULL) match "GPU-..." entries. Returns the
 * number kept (into keep[], at most max); *bad is set to the first
 * invalid entry's position + 1 (0 when all valid). stop_at_bad: CUDA
 * semantics, stop at the first invalid entry. */
int gd_visible_parse(const char *value, int n_agents, const char *const *uuids,
		     int stop_at_bad, int *keep, int max, int *bad);

#endif
