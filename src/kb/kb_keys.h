/* kb/: every member name of the knowledge base (docs/kb.md), in one
 * place. Only kb/ reads the JSON; a renamed key is changed here and in
 * the validator, and a typo is a compile error instead of a silent NULL. */
#ifndef GD_KB_KEYS_H
#define GD_KB_KEYS_H

/* top level */
#define GD_KBK_SCHEMA "schema_version"
#define GD_KBK_DATE "kb_date"
#define GD_KBK_SOURCES "sources"
#define GD_KBK_TARGETS "targets"
#define GD_KBK_ISSUES "issues"
#define GD_KBK_STRATEGIES "strategies"
#define GD_KBK_SIGNATURES "signatures"
#define GD_KBK_NVIDIA "nvidia"
#define GD_KBK_WORKLOADS "workloads"
#define GD_KBK_PCI_NOT_GPU "pci_not_gpu"
#define GD_KBK_NVIDIA_CHIPS "nvidia_chips"
#define GD_KBK_AMD_NO_KFD "amd_no_kfd"
#define GD_KBK_KERNEL "kernel"
#define GD_KBK_WINDOWS "windows"
#define GD_KBK_LIBRARIES "libraries"

/* shared */
#define GD_KBK_ID "id"
#define GD_KBK_TITLE "title"
#define GD_KBK_URL "url"
#define GD_KBK_NOTE "note"
#define GD_KBK_STATUS "status"
#define GD_KBK_SINCE "since"
#define GD_KBK_NAME "name"
#define GD_KBK_TEXT "text"
#define GD_KBK_INSTALL "install"
#define GD_KBK_CAVEAT "caveat"
#define GD_KBK_CAVEATS "caveats"

/* targets[] */
#define GD_KBK_GFX "gfx"
#define GD_KBK_GFX_VERSION "gfx_target_version"
#define GD_KBK_FAMILY "family"
#define GD_KBK_APU "apu"
#define GD_KBK_PRODUCTS "products"
#define GD_KBK_PCI_IDS "pci_ids"
#define GD_KBK_ROCM_LINUX "rocm_linux"
#define GD_KBK_ROCM_WINDOWS "rocm_windows"
#define GD_KBK_OVERRIDE "override"
#define GD_KBK_VALUE "value"
#define GD_KBK_ADVICE "advice"
#define GD_KBK_VERDICT "verdict"
#define GD_KBK_BACKEND "backend"

/* issues[] */
#define GD_KBK_SUMMARY "summary"
#define GD_KBK_WORKAROUND "workaround"

/* strategies[] */
#define GD_KBK_VENDOR "vendor"
#define GD_KBK_CONDITION "condition"
#define GD_KBK_ORDER "order"
#define GD_KBK_KIND "kind"
#define GD_KBK_ENV "env"
#define GD_KBK_UNSET "unset"
#define GD_KBK_STEPS "steps"
#define GD_KBK_REASON "reason"
#define GD_KBK_RECOMMENDED "recommended"
#define GD_KBK_KERNEL_PARAM "kernel_param"
#define GD_KBK_FIRMWARE_ID "firmware"

/* kernel{} (kb_kernel.c) */
#define GD_KBK_FIRMWARE "firmware"
#define GD_KBK_RELEASES "releases"
#define GD_KBK_PARAMS "params"
#define GD_KBK_FILE "file"
#define GD_KBK_BAD "bad"
#define GD_KBK_GOOD "good"
#define GD_KBK_STEP "step"
#define GD_KBK_BELOW "below"
#define GD_KBK_PARAM "param"

/* signatures[] */
#define GD_KBK_REGEX "regex"
#define GD_KBK_UNLESS "unless"
#define GD_KBK_ICASE "icase"
#define GD_KBK_MINOR "minor"
#define GD_KBK_MEANING "meaning"
#define GD_KBK_FIX "fix"
#define GD_KBK_CHECK "check"
#define GD_KBK_DECODE "decode"
#define GD_KBK_EXAMPLE "example"
#define GD_KBK_LITERALS "literals"
#define GD_KBK_CAUSES "causes" /* also the top-level causes{} */
#define GD_KBK_ALTERNATIVES "alternatives"
#define GD_KBK_EVIDENCE                                                        \
	"evidence" /* evidence[]: id, signatures, markers, cause, text,        \
		      sources */
#define GD_KBK_MARKERS "markers"
#define GD_KBK_CAUSE "cause"

/* nvidia */
#define GD_KBK_GPUS "gpus"
#define GD_KBK_PCI_ID "pci_id"
#define GD_KBK_SM "sm"
#define GD_KBK_CCS "compute_capabilities"
#define GD_KBK_CC "cc"
#define GD_KBK_ARCH "arch"
#define GD_KBK_MIN_CUDA "min_cuda"
#define GD_KBK_LAST_CUDA "last_cuda"
#define GD_KBK_PYTORCH_INSTALL "pytorch_install"
#define GD_KBK_DRIVER_MIN "cuda_driver_min"
#define GD_KBK_CUDA "cuda"
#define GD_KBK_LINUX "linux"
#define GD_KBK_WINDOWS "windows"

/* pci_not_gpu[] */
#define GD_KBK_VENDOR_ID "vendor_id"
#define GD_KBK_DEVICE_IDS "device_ids"
#define GD_KBK_CLASS "class" /* PCI base class, "0x12" */

/* nvidia_chips[], amd_no_kfd[] (with family, gfx, pci_ids) */
#define GD_KBK_CHIPS "chips"
#define GD_KBK_LAST_DRIVER "last_driver_branch"

/* workloads.<w>.<stack> */
#define GD_KBK_INSTALL_BY_MAJOR "install_by_cuda_major"

/* libraries[] */
#define GD_KBK_SONAME "soname"
#define GD_KBK_DEBIAN "debian"
#define GD_KBK_FEDORA "fedora"
#define GD_KBK_DLOPENS "dlopens"

/* windows{} (kb_windows.c) */
#define GD_KBK_HIP_SDK "hip_sdk"
#define GD_KBK_ISSUE "issue"
#define GD_KBK_RUNTIME "runtime"
#define GD_KBK_SDK "sdk"
#define GD_KBK_FIXED_IN "fixed_in"

/* intel{} (kb_intel.c) */
#define GD_KBK_INTEL "intel"
#define GD_KBK_FAMILIES "families"
#define GD_KBK_PLATFORMS "platforms"
#define GD_KBK_MATCH "match"
#define GD_KBK_COMPUTE_RUNTIME "compute_runtime"
#define GD_KBK_PYTORCH_XPU "pytorch_xpu"
#define GD_KBK_LLAMACPP_SYCL "llamacpp_sycl"
#define GD_KBK_VULKAN "vulkan"

#endif
