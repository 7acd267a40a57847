/* kb/: the knowledge base. A JSON data file (kb/gpudoctor-kb.json), embedded
 * in the binary and installed beside it; --kb FILE loads a newer one. The
 * schema is documented in docs/kb.md. Knowledge is data: doctor/ reads
 * these entries instead of growing if-chains.
 *
 * Other layers see typed entries only (no JSON): small structs whose
 * strings are borrowed from the kb (valid until gd_kb_free, NULL when the
 * member is absent or null). Each lookup parses only the entry it returns
 * (the lazy index, kb_internal.h); the whole document is parsed only for
 * `gpudoctor kb` (kb_raw.h). A kb fills caches on reads: one kb per
 * thread. */
#ifndef GD_KB_H
#define GD_KB_H

#include <stddef.h>
#include <stdio.h>

typedef struct gd_kb gd_kb;

/* Parse and validate a knowledge base from bytes. On error returns NULL and
 * writes "NAME:LINE:COL: what is wrong" into err. */
gd_kb *gd_kb_parse(const char *buf, size_t len, const char *name, char *err,
		   size_t errlen);
gd_kb *gd_kb_load_file(const char *path, char *err, size_t errlen);
/* fopen(path, "rb") of a regular file only, without blocking on a FIFO or
 * device (errno ENODEV for those): every command glances at kb files. */
FILE *gd_kb_fopen(const char *path);
/* The copy built into the binary, validated at build time (tools/kbgen.c).
 * NULL only out of memory. */
gd_kb *gd_kb_load_embedded(void);
void gd_kb_free(gd_kb *kb);

const char *gd_kb_origin(const gd_kb *kb); /* "embedded" or the file path */
const char *gd_kb_date(const gd_kb *kb);   /* "2026-11-20", NULL unknown */

/* A list of strings in the kb (source ids, issue ids, gfx names, variable
 * names): a view, read with the functions below. */
struct gd_kb_list {
	const void *a;
};
size_t gd_kb_list_n(struct gd_kb_list l);
const char *gd_kb_list_at(struct gd_kb_list l,
			  size_t i); /* NULL: not a string */
int gd_kb_list_has(struct gd_kb_list l, const char *s);

/* sources{}: a title and, for public pages, a URL. */
struct gd_kb_source {
	const char *id, *title, *url;
};
int gd_kb_source_get(const gd_kb *kb, const char *id, struct gd_kb_source *out);
/* Space-separated URLs of the sources named in ids; sources without a URL
 * (field reports) are left out. */
void gd_kb_source_urls(const gd_kb *kb, struct gd_kb_list ids, char *buf,
		       size_t cap);

/* The workloads advice is given for, in report order. */
enum gd_kb_workload {
	GD_KB_WL_CTRANSLATE2,
	GD_KB_WL_PYTORCH,
	GD_KB_WL_LLAMACPP,
	GD_KB_N_WORKLOADS
};
const char *gd_kb_workload_name(enum gd_kb_workload w); /* "pytorch" */

/* targets[].advice.<w> and workloads.<w>.<stack> (docs/kb.md). */
struct gd_kb_advice {
	int present;
	const char *verdict, *backend, *text, *install, *caveats;
	struct gd_kb_list sources;
};

struct gd_kb_support { /* targets[].rocm_linux */
	const char *status, *since, *note;
	struct gd_kb_list sources;
};

struct gd_kb_override { /* targets[].override */
	const char *value, *caveat;
	struct gd_kb_list sources;
};

/* An AMD target. Lookups return 0, or -1 (out zeroed, apu -1) when the kb
 * has no such target. A gfx name may carry target features
 * ("gfx90a:xnack-") and any case. */
struct gd_kb_target {
	const char *gfx, *family;
	long long version; /* gfx_target_version, -1 when null */
	int apu;	   /* 1, 0, -1 unknown */
	struct gd_kb_support rocm_linux;
	struct gd_kb_support rocm_windows; /* AMD's HIP SDK for Windows */
	struct gd_kb_override override;
	struct gd_kb_list issues, sources;
	struct gd_kb_advice advice[GD_KB_N_WORKLOADS];
};
int gd_kb_target_get(const gd_kb *kb, const char *gfx,
		     struct gd_kb_target *out);
int gd_kb_target_for_pci_get(const gd_kb *kb, unsigned device_id,
			     struct gd_kb_target *out);
int gd_kb_target_for_version_get(const gd_kb *kb, unsigned version,
				 struct gd_kb_target *out);
/* The gfx target of the AMD GPU named name ("AMD Radeon RX 5700 XT",
 * "Radeon RX 580 Series"), from the models products[].name lists
 * (kb_names.c); NULL when no target, or more than one, lists its model. */
const char *gd_kb_gfx_for_name(const gd_kb *kb, const char *name);
/* The name of the product entry that lists this PCI id, or NULL. */
const char *gd_kb_product_name(const gd_kb *kb, unsigned device_id);

struct gd_kb_issue {
	const char *id, *title, *url, *status, *summary, *workaround;
	struct gd_kb_list targets, sources;
};
int gd_kb_issue_get(const gd_kb *kb, const char *id, struct gd_kb_issue *out);

/* windows.hip_sdk[]: a Windows HIP SDK release (major.minor, as Windows
 * installs are versioned) known not to see some targets, with the issue
 * (issues[]) that reports it; fixed_in NULL while no release with the fix
 * is known. */
struct gd_kb_win_sdk_break {
	const char *id, *issue, *runtime, *text, *fixed_in;
	struct gd_kb_list targets, sdk, sources;
};
size_t gd_kb_win_sdk_break_count(const gd_kb *kb);
int gd_kb_win_sdk_break_at(const gd_kb *kb, size_t i,
			   struct gd_kb_win_sdk_break *out);

/* intel.families[]: an Intel GPU architecture, matched by the kernel's
 * platform name (platforms: "DG2", "TGL") or a fragment of the GPU's name
 * (match, case-insensitive); compute_runtime "current", "legacy1",
 * "opencl-only" or "none"; pytorch_xpu "validated", "untested" or "no";
 * vulkan: Mesa's driver for it, "anv", "hasvk" or "none". */
struct gd_kb_intel_family {
	const char *id, *name, *compute_runtime, *pytorch_xpu, *vulkan, *note;
	int llamacpp_sycl;
	struct gd_kb_list platforms, match, sources;
};
size_t gd_kb_intel_family_count(const gd_kb *kb);
int gd_kb_intel_family_at(const gd_kb *kb, size_t i,
			  struct gd_kb_intel_family *out);

/* strategies[], in file order. */
struct gd_kb_strategy {
	const char *id, *kind, *vendor, *condition, *reason, *caveat, *steps;
	/* a user-step's state on the machine: "amdgpu.cwsr_enable=0" (in
	 * force or not), the kernel.firmware entry it is about; or NULL */
	const char *kernel_param, *firmware;
	int order, recommended;
	int has_targets; /* "targets" given (else vendor or condition) */
	struct gd_kb_list targets, unset, sources;
	const void *env; /* read with gd_kb_env_n / gd_kb_env_at */
};
size_t gd_kb_strategy_count(const gd_kb *kb);
int gd_kb_strategy_at(const gd_kb *kb, size_t i, struct gd_kb_strategy *out);
int gd_kb_strategy_get(const gd_kb *kb, const char *id,
		       struct gd_kb_strategy *out);
size_t gd_kb_env_n(const struct gd_kb_strategy *s);
/* The i-th variable; *val is NULL when the kb's value is not a string. */
int gd_kb_env_at(const struct gd_kb_strategy *s, size_t i, const char **key,
		 const char **val);

/* The machine facts a signature's "check" names (docs/kb.md). The one list
 * of names: the validator accepts these, doctor/explain_check.c has one
 * function per value. */
enum gd_kb_check {
	GD_KB_CHECK_NONE,
	GD_KB_CHECK_ROCBLAS_COVERAGE,
	GD_KB_CHECK_GFX_SUPPORTED,
	GD_KB_CHECK_KFD_ACCESS,
	GD_KB_CHECK_CUDA_DRIVER,
	GD_KB_CHECK_HIP_MAJOR_MISMATCH,
	GD_KB_CHECK_OVERRIDE_VALID,
	GD_KB_CHECK_OVERRIDE_SPOOF,
	GD_KB_CHECK_KFD_NODE,
	GD_KB_CHECK_GPU_FAULT,
	GD_KB_CHECK_CODE_FOR_GPU,
	GD_KB_CHECK_APU,
	GD_KB_CHECK_GPU_MEMORY,
	GD_KB_CHECK_VISIBLE_DEVICES,
	GD_KB_CHECK_ROCM_CAUSE,
	GD_KB_N_CHECKS
};
const char *gd_kb_check_name(enum gd_kb_check c); /* "rocblas-coverage" */
int gd_kb_check_from_name(const char *name);	  /* -1: not a check */

/* signatures[].decode: what explain reads from the matched line's own
 * numbers (docs/kb.md): PyTorch's allocator figures, an Xid number. */
enum gd_kb_decode {
	GD_KB_DECODE_NONE,
	GD_KB_DECODE_OOM,
	GD_KB_DECODE_XID,
	GD_KB_N_DECODES
};
int gd_kb_decode_from_name(const char *name); /* -1: not a decoder */

/* signatures[], in file order. */
struct gd_kb_signature {
	const char *id, *regex, *title, *meaning, *fix, *example;
	const char *check_name; /* as written; NULL when absent */
	const char *unless; /* a line that also matches it is not this failure
			       (a warning the program recovers from); NULL */
	enum gd_kb_check check;	  /* NONE when absent or unknown */
	enum gd_kb_decode decode; /* NONE when absent */
	int icase;
	int minor; /* often a warning the program recovers from: ranked after
		     the log's other matches */
	struct gd_kb_list literals; /* strings one of which every match holds */
	struct gd_kb_list causes;   /* the causes it names, likeliest first */
	struct gd_kb_list sources;
};
size_t gd_kb_signature_count(const gd_kb *kb);
int gd_kb_signature_at(const gd_kb *kb, size_t i, struct gd_kb_signature *out);
int gd_kb_signature_get(const gd_kb *kb, const char *id,
			struct gd_kb_signature *out);
/* causes{}: what a cause code (as signatures[].causes name it) means;
 * alternatives{} or evidence[]: the cause code of an alternative explain's
 * evidence names (its alternative_id). NULL when the kb has none. */
const char *gd_kb_cause_text(const gd_kb *kb, const char *code);
const char *gd_kb_alternative_cause(const gd_kb *kb, const char *alt_id);

/* evidence[] (docs/kb.md "evidence"): a cause only a log's other lines
 * point to. A match of one of signatures whose log also holds one of
 * markers gets cause first, with text saying what tells them apart. Tried
 * in the kb's order. */
struct gd_kb_evidence {
	const char *id, *cause, *text;
	struct gd_kb_list signatures, markers;
};
#define GD_KB_EVIDENCE_MAX 256 /* rules; the validator refuses more */
size_t gd_kb_evidence_count(const gd_kb *kb);
int gd_kb_evidence_at(const gd_kb *kb, size_t i, struct gd_kb_evidence *out);

/* nvidia.gpus[] by PCI id; nvidia.compute_capabilities[] by sm, written
 * "sm_90", "sm90", "compute_90", "9.0". */
struct gd_kb_nvidia_gpu {
	const char *name, *sm;
};
int gd_kb_nvidia_gpu_get(const gd_kb *kb, unsigned device_id,
			 struct gd_kb_nvidia_gpu *out);
struct gd_kb_cc {
	const char *sm, *cc, *arch, *min_cuda, *last_cuda, *note;
	const char *pytorch_install; /* its own PyTorch line, or NULL */
	struct gd_kb_list sources;
};
int gd_kb_cc_get(const gd_kb *kb, const char *sm, struct gd_kb_cc *out);

/* nvidia.cuda_driver_min[]: fills at most cap rows, returns how many the
 * kb has. */
struct gd_kb_driver_min {
	const char *cuda;      /* "12.x", "12.4" */
	const char *linux_min; /* NULL: not verified */
	const char *windows_min;
};
size_t gd_kb_driver_mins(const gd_kb *kb, struct gd_kb_driver_min *out,
			 size_t cap);

/* nvidia_chips[]: the entry with the longest chip prefix of chip, a
 * pci.ids chip name ("GV100GL" -> the "GV100" entry). 0, or -1 (out
 * zeroed) when no prefix matches. */
struct gd_kb_nvidia_chip {
	const char *prefix; /* the matched chip prefix */
	const char *sm, *cc, *arch, *last_cuda, *last_driver, *note;
	struct gd_kb_list sources;
};
int gd_kb_nvidia_chip_get(const gd_kb *kb, const char *chip,
			  struct gd_kb_nvidia_chip *out);

/* pci_not_gpu[]: a display-class PCI device that is no GPU (a BMC's VGA,
 * an emulated adapter, an NPU or AI accelerator), by vendor and device id,
 * or by vendor and PCI base class (an entry with "class": "0x12" and no
 * device_ids: every device of that vendor and class). class_code: the
 * device's 24-bit class (0x120000), 0 when unknown. 0, or -1 (out zeroed)
 * when not listed. */
struct gd_kb_not_gpu {
	const char *kind; /* "bmc", "emulated", "npu", "accelerator" */
	const char *name, *note;
	struct gd_kb_list sources;
};
int gd_kb_not_gpu_get(const gd_kb *kb, unsigned vendor_id, unsigned device_id,
		      unsigned class_code, struct gd_kb_not_gpu *out);

/* amd_no_kfd[]: an AMD family KFD never supported, by PCI id or else by
 * the chip its pci.ids name starts with ("Cape Verde PRO [...]", not
 * "Cape Verdes"; pci_name may be NULL or ""). 0, or -1 (out zeroed). */
struct gd_kb_no_kfd {
	const char *family, *gfx, *note;
	int by_chip; /* found by the chip name, not by the PCI id */
	struct gd_kb_list sources;
};
int gd_kb_amd_no_kfd_get(const gd_kb *kb, unsigned device_id,
			 const char *pci_name, struct gd_kb_no_kfd *out);

/* libraries[]: the distribution package that provides a shared library,
 * by soname ("libGLdispatch.so.0"; a '*' in the kb's soname matches any
 * run of characters). debian (also Ubuntu) or fedora is NULL where no
 * package name was verified. 0, or -1 (out zeroed) when not listed. */
struct gd_kb_library {
	const char *soname, *debian, *fedora, *note;
	struct gd_kb_list dlopens; /* sonames it loads at run time (dlopen),
				      which no DT_NEEDED names */
	struct gd_kb_list sources;
};
int gd_kb_library_get(const gd_kb *kb, const char *soname,
		      struct gd_kb_library *out);

/* workloads.<w>.<stack> ("cuda", "rocm", "vulkan", "cpu"). 0, or -1 when
 * the kb has no such advice (out->present 0). */
int gd_kb_workload_get(const gd_kb *kb, enum gd_kb_workload w,
		       const char *stack, struct gd_kb_advice *out);
/* workloads.<w>.<stack>.install_by_cuda_major["13"], or NULL. */
const char *gd_kb_workload_install_for(const gd_kb *kb, enum gd_kb_workload w,
				       const char *stack, unsigned major);

/* kernel.firmware[]: a firmware version (device/fw_version/<file>) known
 * bad for some targets, and the step that follows. */
struct gd_kb_firmware {
	const char *id, *file, *text, *step;
	struct gd_kb_list targets, bad, good, sources;
};
size_t gd_kb_firmware_count(const gd_kb *kb);
int gd_kb_firmware_at(const gd_kb *kb, size_t i, struct gd_kb_firmware *out);
int gd_kb_firmware_get(const gd_kb *kb, const char *id,
		       struct gd_kb_firmware *out);
/* kernel.releases[]: kernels below "below" need something for these
 * targets: param ("amdgpu.cwsr_enable=0") in force, or a newer kernel. */
struct gd_kb_kernel_release {
	const char *id, *below, *param, *text, *step;
	struct gd_kb_list targets, sources;
};
size_t gd_kb_kernel_release_count(const gd_kb *kb);
int gd_kb_kernel_release_at(const gd_kb *kb, size_t i,
			    struct gd_kb_kernel_release *out);
/* kernel.params[]: what a module parameter in force means for targets. */
struct gd_kb_kparam {
	const char *id, *param, *value, *text;
	struct gd_kb_list targets, sources;
};
size_t gd_kb_kparam_count(const gd_kb *kb);
int gd_kb_kparam_at(const gd_kb *kb, size_t i, struct gd_kb_kparam *out);

#endif
