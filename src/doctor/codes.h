/* doctor/codes: the stable machine codes of verdict facts, steps,
 * workload advice and evidence lines (lower-case dotted identifiers, e.g.
 * "rocblas.no_kernels"). The text beside a code may change; the code does
 * not: fleet labels (NFD, Prometheus) key on it. This list is the one
 * place codes are defined; docs/codes.md is generated from it and checked
 * by tests/unit/test_codes.c. Add new codes at the end of their group;
 * never reuse or rename one. */
#ifndef GD_CODES_H
#define GD_CODES_H

#define GD_CODES(X)                                                            \
	X(GD_C_GPU_PCI, "gpu.pci",                                             \
	  "the GPU's PCI address, vendor:device ids, revision and bound "      \
	  "kernel driver")                                                     \
	X(GD_C_GPU_INTEGRATED, "gpu.integrated",                               \
	  "integrated (APU) or discrete, with the evidence")                   \
	X(GD_C_GPU_NOT_A_GPU, "gpu.not_a_gpu",                                 \
	  "a display device that is no GPU (a BMC's VGA, an emulated "         \
	  "adapter; kb pci_not_gpu)")                                          \
	X(GD_C_OTHER_LISTED_ONLY, "other.listed_only",                         \
	  "a vendor gpudoctor lists but has no compute rules for (Intel)")     \
	X(GD_C_OTHER_USE_VULKAN, "other.use_vulkan",                           \
	  "a GPU gpudoctor has no compute rules for: Vulkan is the portable "  \
	  "path")                                                              \
	X(GD_C_INTEL_FAMILY, "intel.family",                                   \
	  "the Intel GPU architecture (kb intel.families) and what matched "   \
	  "it")                                                                \
	X(GD_C_INTEL_FAMILY_UNKNOWN, "intel.family_unknown",                   \
	  "an Intel GPU whose architecture neither its platform nor its name " \
	  "tells")                                                             \
	X(GD_C_INTEL_RUNTIME, "intel.runtime",                                 \
	  "Intel's compute runtime found: Level Zero loader and GPU driver, "  \
	  "OpenCL driver, IGC, gmmlib, with versions")                         \
	X(GD_C_INTEL_RUNTIME_MISSING, "intel.runtime_missing",                 \
	  "Intel's Level Zero GPU driver (compute-runtime) is not installed")  \
	X(GD_C_INTEL_INSTALL_RUNTIME, "intel.install_runtime",                 \
	  "install Intel's compute runtime for this architecture (current or " \
	  "legacy1 packages)")                                                 \
	X(GD_C_INTEL_LEGACY, "intel.legacy",                                   \
	  "only the frozen legacy1 compute-runtime packages support this "     \
	  "architecture")                                                      \
	X(GD_C_INTEL_NO_COMPUTE, "intel.no_compute",                           \
	  "no Intel compute runtime with Level Zero supports this "            \
	  "architecture: Vulkan or the CPU")                                   \
	X(GD_C_INTEL_DRIVER, "intel.driver",                                   \
	  "the Intel GPU is not driven by i915 or xe: load one")               \
	X(GD_C_CPU_VULKAN_SOFTWARE, "cpu.vulkan_software",                     \
	  "a Vulkan driver that runs on the CPU (llvmpipe)")                   \
	X(GD_C_CPU_OPENCL_SOFTWARE, "cpu.opencl_software",                     \
	  "an OpenCL driver that runs on the CPU (PoCL)")                      \
	X(GD_C_CPU_RUN_ON_CPU, "cpu.run_on_cpu",                               \
	  "no GPU: how to run the workloads on the CPU")                       \
	X(GD_C_PROBE_WORKS, "probe.works",                                     \
	  "a probe of the vendor's own runtime ran every op right on this "    \
	  "GPU")                                                               \
	X(GD_C_PROBE_SOFTWARE, "probe.software",                               \
	  "a probe ran, but on a software (CPU) device")                       \
	X(GD_C_PROBE_PARTIAL, "probe.partial",                                 \
	  "a probe's ops failed, gave wrong results, hung or crashed on this " \
	  "device")                                                            \
	X(GD_C_PROBE_BROKEN, "probe.broken",                                   \
	  "a probe's runtime failed, hung or crashed at init")                 \
	X(GD_C_PROBE_ABSENT, "probe.absent",                                   \
	  "a probe found no library or no device")                             \
	X(GD_C_PROBE_INSTALL_FRAMEWORK, "probe.install_framework",             \
	  "the probe worked: what remains is the framework build for the "     \
	  "stack")                                                             \
	X(GD_C_PROBE_FAILED_TRY_WORKAROUNDS, "probe.failed_try_workarounds",   \
	  "a probe failed although the stack looks complete: probe and try")   \
	X(GD_C_FRAMEWORK_NO_CODE, "framework.no_code",                         \
	  "an installed framework carries no code for this GPU")               \
	X(GD_C_FRAMEWORK_ROCM_MISMATCH, "framework.rocm_mismatch",             \
	  "an installed framework needs another HIP runtime major than the "   \
	  "one installed")                                                     \
	X(GD_C_FRAMEWORK_ROCM_NOTE, "framework.rocm_note",                     \
	  "a note on the HIP runtime an installed framework uses")             \
	X(GD_C_FRAMEWORK_LIB_MISSING, "framework.lib_missing",                 \
	  "a library an installed framework needs is not found")               \
	X(GD_C_FRAMEWORK_CUDA_TOO_NEW, "framework.cuda_too_new",               \
	  "an installed framework is built for a CUDA newer than the driver "  \
	  "runs")                                                              \
	X(GD_C_AMD_GFX_TARGET, "amd.gfx_target",                               \
	  "the GPU's LLVM target (gfx) and where it was read")                 \
	X(GD_C_AMD_COMPUTE_UNITS, "amd.compute_units",                         \
	  "compute units and VRAM")                                            \
	X(GD_C_AMD_KFD_PARTITIONS, "amd.kfd_partitions",                       \
	  "one GPU exposed as several KFD nodes (partitions)")                 \
	X(GD_C_AMD_OVERRIDE_INVALID, "amd.override.invalid",                   \
	  "HSA_OVERRIDE_GFX_VERSION is set but does not parse")                \
	X(GD_C_AMD_OVERRIDE_FIX_INVALID, "amd.override.fix_invalid",           \
	  "fix or unset the invalid override")                                 \
	X(GD_C_AMD_OVERRIDE_ACTIVE, "amd.override.active",                     \
	  "HSA_OVERRIDE_GFX_VERSION makes ROCm treat the GPU as another "      \
	  "target")                                                            \
	X(GD_C_AMD_OVERRIDE_CAVEAT, "amd.override.caveat",                     \
	  "what the knowledge base knows against the active override")         \
	X(GD_C_AMD_OVERRIDE_UNSET_FOR_NATIVE_BUILDS,                           \
	  "amd.override.unset_for_native_builds",                              \
	  "builds made for the GPU's own target must run without the "         \
	  "override")                                                          \
	X(GD_C_AMD_OVERRIDE_USE_FOR_BUILDS, "amd.override.use_for_builds",     \
	  "run builds without code for this target with the kb's override")    \
	X(GD_C_AMD_VULKAN_DRIVER, "amd.vulkan_driver",                         \
	  "a hardware Vulkan driver (RADV, AMDVLK) is installed for "          \
	  "llama.cpp")                                                         \
	X(GD_C_AMD_VULKAN_INSTALL_RADV, "amd.vulkan.install_radv",             \
	  "install Mesa's RADV for llama.cpp's Vulkan backend")                \
	X(GD_C_AMD_APU_BESIDE_DGPU, "amd.apu_beside_dgpu",                     \
	  "this APU sits beside a discrete AMD GPU")                           \
	X(GD_C_AMD_IGPU_BESIDE, "amd.igpu_beside",                             \
	  "ROCm also sees an integrated GPU beside this discrete one")         \
	X(GD_C_AMD_APU_HIDE, "amd.apu.hide",                                   \
	  "hide the APU from ROCm with ROCR_VISIBLE_DEVICES")                  \
	X(GD_C_AMD_DRIVER_LOAD, "amd.driver.load",                             \
	  "load the amdgpu kernel driver")                                     \
	X(GD_C_AMD_KFD_MISSING, "amd.kfd.missing",                             \
	  "/sys/class/kfd is missing: amdgpu with CONFIG_HSA_AMD is needed")   \
	X(GD_C_AMD_KFD_NOT_IN_KERNEL, "amd.kfd.not_in_kernel",                 \
	  "amdgpu drives the GPU but the kernel has no KFD (CONFIG_HSA_AMD)")  \
	X(GD_C_AMD_NO_KFD_FAMILY, "amd.no_kfd_family",                         \
	  "a family KFD never supported (kb amd_no_kfd): ROCm cannot use it")  \
	X(GD_C_AMD_PRE_GCN, "amd.pre_gcn",                                     \
	  "a GPU older than GCN (TeraScale, R100-R500): no ROCm, no Vulkan")   \
	X(GD_C_AMD_VULKAN_BIND_AMDGPU, "amd.vulkan.bind_amdgpu",               \
	  "Vulkan (RADV) needs amdgpu, not radeon, bound to this GPU")         \
	X(GD_C_ROCM_NOT_INSTALLED, "rocm.not_installed",                       \
	  "no ROCm / HIP runtime is installed")                                \
	X(GD_C_ROCM_HIP_RUNTIME, "rocm.hip_runtime",                           \
	  "a HIP runtime install: version, soname major, path, how it was "    \
	  "found")                                                             \
	X(GD_C_ROCM_HIP_PATH_MISMATCH, "rocm.hip_path_mismatch",               \
	  "HIP_PATH points at another runtime than the loader uses")           \
	X(GD_C_ROCM_HIP_MAJORS_MIXED, "rocm.hip_majors_mixed",                 \
	  "several HIP runtime majors are installed side by side")             \
	X(GD_C_ROCM_INSTALL_SINCE, "rocm.install_since",                       \
	  "install ROCm at least the first release that supports this GPU")    \
	X(GD_C_ROCM_INSTALL, "rocm.install", "install the ROCm/HIP runtime")   \
	X(GD_C_ROCM_UPGRADE, "rocm.upgrade",                                   \
	  "the installed ROCm is older than the first release that supports "  \
	  "this GPU")                                                          \
	X(GD_C_ROCBLAS_NOT_FOUND, "rocblas.not_found",                         \
	  "no rocBLAS library directory found")                                \
	X(GD_C_ROCBLAS_TENSILE, "rocblas.tensile",                             \
	  "rocBLAS has Tensile GEMM kernels for the target")                   \
	X(GD_C_ROCBLAS_FALLBACK_ONLY, "rocblas.fallback_only",                 \
	  "rocBLAS has only slow fallback kernels for the target")             \
	X(GD_C_ROCBLAS_NO_KERNELS, "rocblas.no_kernels",                       \
	  "no rocBLAS library directory has kernels for the target")           \
	X(GD_C_ROCBLAS_INSTALL_KERNELS, "rocblas.install_kernels",             \
	  "install rocBLAS kernels for the target or point "                   \
	  "ROCBLAS_TENSILE_LIBPATH at them")                                   \
	X(GD_C_ACCESS_KFD, "access.kfd",                                       \
	  "/dev/kfd cannot be opened by this user")                            \
	X(GD_C_ACCESS_RENDER, "access.render",                                 \
	  "the GPU's render node cannot be opened by this user")               \
	X(GD_C_ACCESS_GRANT, "access.grant",                                   \
	  "give the user access to the GPU (groups)")                          \
	X(GD_C_ACCESS_CONTAINER, "access.container",                           \
	  "the container flags that pass the GPU in")                          \
	X(GD_C_VISIBILITY_NOTE, "visibility.note",                             \
	  "a *_VISIBLE_DEVICES variable hides or reorders GPUs")               \
	X(GD_C_VISIBILITY_UNHIDE_ROCM, "visibility.unhide_rocm",               \
	  "ROCR_VISIBLE_DEVICES / HIP_VISIBLE_DEVICES hide this GPU: unset "   \
	  "or list it")                                                        \
	X(GD_C_VISIBILITY_UNHIDE_CUDA, "visibility.unhide_cuda",               \
	  "CUDA_VISIBLE_DEVICES hides this GPU: unset or include it")          \
	X(GD_C_NVIDIA_UUID, "nvidia.uuid", "the GPU's UUID")                   \
	X(GD_C_NVIDIA_COMPUTE_CAPABILITY, "nvidia.compute_capability",         \
	  "compute capability, sm and architecture (kb)")                      \
	X(GD_C_NVIDIA_LAST_CUDA, "nvidia.last_cuda",                           \
	  "the last CUDA release that supports this GPU's architecture")       \
	X(GD_C_NVIDIA_DRIVER, "nvidia.driver",                                 \
	  "the NVIDIA driver version and the highest CUDA it runs")            \
	X(GD_C_NVIDIA_DRIVER_NOT_BOUND, "nvidia.driver.not_bound",             \
	  "the NVIDIA driver is installed but its module does not drive this " \
	  "GPU")                                                               \
	X(GD_C_NVIDIA_DRIVER_INSTALL, "nvidia.driver.install",                 \
	  "install NVIDIA's driver")                                           \
	X(GD_C_NVIDIA_ARCH_DROPPED, "nvidia.arch_dropped",                     \
	  "current CUDA releases no longer support this architecture: use "    \
	  "older builds")                                                      \
	X(GD_C_NVIDIA_ARCH_UNSUPPORTED, "nvidia.arch_unsupported",             \
	  "no CUDA 12 or newer supports this architecture, nor any current "   \
	  "driver")                                                            \
	X(GD_C_TREE_NOT_CAPTURED, "tree.not_captured",                         \
	  "a fact the tree given with --root does not hold (it is no gather "  \
	  "capture): not judged")                                              \
	X(GD_C_WSL_GPU_PV, "wsl.gpu_pv",                                       \
	  "WSL2's GPU paravirtualization adapter (/dev/dxg): the GPU is the "  \
	  "Windows host's")                                                    \
	X(GD_C_WSL_CUDA, "wsl.cuda",                                           \
	  "CUDA in WSL2 through the Windows driver's "                         \
	  "/usr/lib/wsl/lib/libcuda")                                          \
	X(GD_C_WSL_NO_LINUX_DRIVER, "wsl.no_linux_driver",                     \
	  "install no NVIDIA Linux driver inside WSL2")                        \
	X(GD_C_WSL_ROCM, "wsl.rocm",                                           \
	  "ROCm in WSL2: no /dev/kfd; AMD's librocdxg over /dev/dxg")          \
	X(GD_C_GPU_VFIO_PASSTHROUGH, "gpu.vfio_passthrough",                   \
	  "the GPU is bound to vfio-pci: reserved for a virtual machine")      \
	X(GD_C_CONTAINER_NO_GPU, "container.no_gpu",                           \
	  "a container started without its NVIDIA GPU: no /dev/nvidiactl")     \
	X(GD_C_CONTAINER_DOCKER, "container.docker",                           \
	  "Docker: --gpus all, with the NVIDIA Container Toolkit on the host") \
	X(GD_C_CONTAINER_CDI, "container.cdi",                                 \
	  "Podman and CDI engines: --device nvidia.com/gpu=all")               \
	X(GD_C_CONTAINER_KUBERNETES, "container.kubernetes",                   \
	  "Kubernetes: resources.limits nvidia.com/gpu")                       \
	X(GD_C_CONTAINER_NO_LIBCUDA, "container.no_libcuda",                   \
	  "the GPU's nodes are in the container, the driver's libcuda.so.1 "   \
	  "is not")                                                            \
	X(GD_C_CONTAINER_GPU_NOT_PASSED, "container.gpu_not_passed",           \
	  "a container with NVIDIA GPUs, but not this one: no "                \
	  "/dev/nvidia<minor>")                                                \
	X(GD_C_NVIDIA_NODE_MISSING, "nvidia.node_missing",                     \
	  "the GPU's /dev/nvidia<minor> does not exist")                       \
	X(GD_C_NVIDIA_NODE_ACCESS, "nvidia.node_access",                       \
	  "the GPU's /dev/nvidia<minor> or /dev/nvidia-uvm is not "            \
	  "read-write for this user")                                          \
	X(GD_C_NVIDIA_UVM_MISSING, "nvidia.uvm_missing",                       \
	  "/dev/nvidia-uvm, which CUDA opens, does not exist")                 \
	X(GD_C_AMD_SRIOV_HOST_GIM, "amd.sriov_host_gim",                       \
	  "the GPU is an SR-IOV physical function driven by AMD's gim host "   \
	  "driver")                                                            \
	X(GD_C_GPU_VIRTUAL_FUNCTION, "gpu.virtual_function",                   \
	  "the GPU is an SR-IOV virtual function (a slice of a physical GPU)") \
	X(GD_C_GPU_SRIOV_PF, "gpu.sriov_pf",                                   \
	  "the GPU is an SR-IOV physical function: its virtual functions, "    \
	  "listed under it, are made for virtual machines")                    \
	X(GD_C_NVIDIA_PRE_CUDA, "nvidia.pre_cuda",                             \
	  "a GPU older than CUDA (Curie and before): no CUDA at all")          \
	X(GD_C_NVIDIA_COMPUTE_CAPABILITY_UNKNOWN,                              \
	  "nvidia.compute_capability_unknown",                                 \
	  "the kb knows neither the GPU's PCI id nor its pci.ids chip name")   \
	X(GD_C_NVIDIA_SM_FROM_CHIP, "nvidia.sm_from_chip",                     \
	  "sm and architecture from the pci.ids chip name (kb nvidia_chips), " \
	  "not the PCI id")                                                    \
	X(GD_C_NVIDIA_LAST_DRIVER, "nvidia.last_driver",                       \
	  "the last NVIDIA driver series that supports this GPU's "            \
	  "architecture")                                                      \
	X(GD_C_NVIDIA_DRIVER_TOO_NEW, "nvidia.driver.too_new",                 \
	  "the installed driver is newer than the last series that drives "    \
	  "this GPU")                                                          \
	X(GD_C_NVIDIA_DRIVER_INSTALL_LEGACY, "nvidia.driver.install_legacy",   \
	  "install the legacy driver series, the last that supports this GPU") \
	X(GD_C_NVIDIA_DRIVER_STAY_LEGACY, "nvidia.driver.stay_legacy",         \
	  "stay on the legacy driver series: a newer one does not drive this " \
	  "GPU")                                                               \
	X(GD_C_CUDA_TOOLKIT, "cuda.toolkit", "an installed CUDA toolkit")      \
	X(GD_C_CUDA_DRIVER_TOO_OLD, "cuda.driver_too_old",                     \
	  "a CUDA library or toolkit needs a newer driver")                    \
	X(GD_C_CUDA_DRIVER_UPGRADE, "cuda.driver_upgrade",                     \
	  "upgrade the NVIDIA driver or use builds for an older CUDA")         \
	X(GD_C_DEPS_MISSING, "deps.missing",                                   \
	  "a runtime library would not load: a library of its DT_NEEDED "      \
	  "closure is found nowhere ld.so looks (the chain is named)")         \
	X(GD_C_DEPS_WRONG_ARCH, "deps.wrong_arch",                             \
	  "a runtime library would not load: the only file of a needed name "  \
	  "is 32-bit or for another CPU")                                      \
	X(GD_C_DEPS_SYMBOL_VERSION, "deps.symbol_version",                     \
	  "a runtime library would not load: a symbol version it needs "       \
	  "(GLIBCXX_3.4.30) is not defined by the library found")              \
	X(GD_C_DEPS_BAD_ELF, "deps.bad_elf",                                   \
	  "a runtime library would not load: a file of its closure is no "     \
	  "loadable ELF")                                                      \
	X(GD_C_DEPS_INSTALL, "deps.install",                                   \
	  "install the package that provides the missing library (Debian/"     \
	  "Ubuntu and Fedora names from the kb)")                              \
	X(GD_C_DEPS_UPGRADE, "deps.upgrade",                                   \
	  "the library found is too old or the wrong one: upgrade it, or "     \
	  "take the stale copy out of the search path")                        \
	X(GD_C_STRATEGY_TRY, "strategy.try",                                   \
	  "let 'gpudoctor try' test the kb's workarounds")                     \
	X(GD_C_STRATEGY_USER_STEP, "strategy.user_step",                       \
	  "a workaround only the user can apply (kernel parameter, firmware)") \
	X(GD_C_STRATEGY_IN_FORCE, "strategy.in_force",                         \
	  "a kb user-step strategy already in force on this machine (not "     \
	  "offered again)")                                                    \
	X(GD_C_KERNEL_PARAMS, "kernel.params",                                 \
	  "the driver module's parameters in force (/sys/module/M/"            \
	  "parameters)")                                                       \
	X(GD_C_KERNEL_PARAM_PENDING, "kernel.param_pending",                   \
	  "a parameter set in modprobe.d or on the command line that the "     \
	  "running module does not have")                                      \
	X(GD_C_KERNEL_REBUILD_INITRAMFS, "kernel.rebuild_initramfs",           \
	  "rebuild the initramfs and reboot so the module takes its options")  \
	X(GD_C_KERNEL_PARAM_NOTE, "kernel.param_note",                         \
	  "what a parameter in force means for this target (kb "               \
	  "kernel.params)")                                                    \
	X(GD_C_KERNEL_NO_DRIVER, "kernel.no_driver",                           \
	  "no kernel driver is bound to the GPU, or the wrong one")            \
	X(GD_C_KERNEL_LOAD_DRIVER, "kernel.load_driver",                       \
	  "load or unblock the GPU's kernel driver")                           \
	X(GD_C_KERNEL_SECURE_BOOT, "kernel.secure_boot",                       \
	  "Secure Boot refuses the unsigned nvidia module")                    \
	X(GD_C_KERNEL_SIGN_MODULE, "kernel.sign_module",                       \
	  "enrol the module signing key (MOK), sign via DKMS, or disable "     \
	  "Secure Boot")                                                       \
	X(GD_C_KERNEL_FIRMWARE, "kernel.firmware",                             \
	  "the firmware versions amdgpu reports (device/fw_version)")          \
	X(GD_C_KERNEL_FIRMWARE_BAD, "kernel.firmware_bad",                     \
	  "a firmware version known bad for this target (kb "                  \
	  "kernel.firmware)")                                                  \
	X(GD_C_KERNEL_FIRMWARE_UPDATE, "kernel.firmware_update",               \
	  "install a linux-firmware without the bad version")                  \
	X(GD_C_KERNEL_RELEASE, "kernel.release",                               \
	  "the running kernel against the kb's kernel ranges for this "        \
	  "target")                                                            \
	X(GD_C_KERNEL_RELEASE_STEP, "kernel.release_step",                     \
	  "the parameter or kernel the kb's range asks for")                   \
	X(GD_C_KERNEL_GPU_MEMORY, "kernel.gpu_memory",                         \
	  "an APU's memory for the GPU: carve-out, GTT, TTM limit, in GiB")    \
	X(GD_C_KERNEL_RAISE_GTT, "kernel.raise_gtt",                           \
	  "raise the TTM/GTT limit (ttm.pages_limit / amdttm.pages_limit)")    \
	X(GD_C_KB_KNOWN_ISSUE, "kb.known_issue",                               \
	  "a known issue of this target, from the knowledge base")             \
	X(GD_C_ADVICE_TARGET, "advice.target",                                 \
	  "per-workload advice for this GPU's target, from the knowledge "     \
	  "base")                                                              \
	X(GD_C_ADVICE_STACK, "advice.stack",                                   \
	  "per-workload advice for a whole stack (CUDA, CPU), from the "       \
	  "knowledge base")                                                    \
	X(GD_C_CAUSE_NO_GPU, "cause.no_gpu",                                   \
	  "a probe's init failed: this machine has no GPU of the runtime's "   \
	  "vendor")                                                            \
	X(GD_C_CAUSE_NOT_INSTALLED, "cause.not_installed",                     \
	  "a probe's init failed: the runtime's library is not installed "     \
	  "where the loader looks")                                            \
	X(GD_C_CAUSE_MISSING_LIBRARY, "cause.missing_library",                 \
	  "a probe's init failed: a library the runtime or its driver needs "  \
	  "is not found (the loader's or ld.so's own words)")                  \
	X(GD_C_CAUSE_LIBRARY_UNUSABLE, "cause.library_unusable",               \
	  "a probe's init failed: a library of the runtime is for another "    \
	  "CPU or word size, or lacks a symbol version it needs")              \
	X(GD_C_CAUSE_ICD_INCOMPLETE, "cause.icd_incomplete",                   \
	  "a Vulkan driver (ICD) loads but gives the loader no "               \
	  "vkCreateInstance")                                                  \
	X(GD_C_CAUSE_NO_ICD, "cause.no_icd",                                   \
	  "no Vulkan or OpenCL driver (ICD) is installed, or none the loader " \
	  "reads")                                                             \
	X(GD_C_CAUSE_DRIVER_NOT_LOADED, "cause.driver_not_loaded",             \
	  "the GPU has no kernel driver bound (module not loaded, "            \
	  "blacklisted or refused)")                                           \
	X(GD_C_CAUSE_NO_KFD, "cause.no_kfd",                                   \
	  "amdgpu drives the GPU but the kernel offers no KFD (/dev/kfd)")     \
	X(GD_C_CAUSE_PERMISSION, "cause.permission",                           \
	  "this user cannot open /dev/kfd or the GPU's render node")           \
	X(GD_C_CAUSE_CONTAINER, "cause.container",                             \
	  "a container started without the GPU's device nodes")                \
	X(GD_C_CAUSE_KERNEL_PARAMETER, "cause.kernel_parameter",               \
	  "a kernel module parameter in force stops the runtime "              \
	  "(kernel-state rules)")                                              \
	X(GD_C_CAUSE_FIRMWARE, "cause.firmware",                               \
	  "the GPU's firmware is a version known to fail (kernel-state "       \
	  "rules)")                                                            \
	X(GD_C_CAUSE_RUNTIME_SAYS, "cause.runtime_says",                       \
	  "no machine fact explains the failure; the runtime's own decisive "  \
	  "line (a kb signature) does")                                        \
	X(GD_C_CAUSE_UNKNOWN, "cause.unknown",                                 \
	  "no cause found: neither the machine's facts nor the runtime's "     \
	  "diagnostics say")                                                   \
	X(GD_C_CAUSE_TOTAL_TIMEOUT, "cause.total_timeout",                     \
	  "a probe op was stopped by the whole-run deadline "                  \
	  "(--total-timeout), "                                                \
	  "not its own: a slow or busy machine, not a fault")                  \
	X(GD_C_WIN_DRIVER_HIP, "win.driver_hip",                               \
	  "the HIP runtime the AMD driver put in System32 "                    \
	  "(amdhip64_N.dll)")                                                  \
	X(GD_C_WIN_NO_DRIVER_HIP, "win.no_driver_hip",                         \
	  "no HIP runtime in System32: the AMD driver provides it")            \
	X(GD_C_WIN_SDK_MATCH, "win.sdk_match",                                 \
	  "an installed HIP SDK whose HIP major is the driver's")              \
	X(GD_C_WIN_SDK_MISMATCH, "win.sdk_mismatch",                           \
	  "an installed HIP SDK of another HIP major than the driver's: "      \
	  "its programs see 0 devices")                                        \
	X(GD_C_WIN_HIP_PATH_DISTRUST, "win.hip_path_distrust",                 \
	  "HIP_PATH names an SDK that does not match the driver")              \
	X(GD_C_WIN_NO_COMGR, "win.no_comgr",                                   \
	  "amd_comgr is missing: HIP reports no ROCm-capable device")          \
	X(GD_C_WIN_ROCBLAS_COVERAGE, "win.rocblas_coverage",                   \
	  "the chosen SDK's rocBLAS has kernels for the GPU's target")         \
	X(GD_C_WIN_ROCBLAS_NO_TARGET, "win.rocblas_no_target",                 \
	  "the chosen SDK's rocBLAS has no kernels for the GPU's target")      \
	X(GD_C_WIN_USE_SDK, "win.use_sdk",                                     \
	  "use the HIP SDK whose HIP major is the driver's")                   \
	X(GD_C_WIN_HIP_PATH, "win.hip_path",                                   \
	  "do not trust HIP_PATH; point builds and apps at the matching "      \
	  "SDK")                                                               \
	X(GD_C_WIN_ROCBLAS_COMMUNITY, "win.rocblas_community",                 \
	  "install a community rocBLAS built for the target and the "          \
	  "SDK, or run BLAS on the CPU")                                       \
	X(GD_C_WIN_BUILD_FOR_TARGET, "win.build_for_target",                   \
	  "build the GPU code against the matching SDK for the GPU's "         \
	  "target")                                                            \
	X(GD_C_WIN_PYTHON_DLL_DIR, "win.python_dll_dir",                       \
	  "the os.add_dll_directory line a Python app needs for the "          \
	  "matching SDK")                                                      \
	X(GD_C_WIN_INSTALL_SDK, "win.install_sdk",                             \
	  "install a HIP SDK of the driver's HIP major")                       \
	X(GD_C_WIN_NVIDIA_DRIVER, "win.nvidia.driver",                         \
	  "the NVIDIA driver (nvcuda.dll) and the CUDA level it runs")         \
	X(GD_C_WIN_NVIDIA_NO_NVCUDA, "win.nvidia.no_nvcuda",                   \
	  "nvcuda.dll is missing from System32")                               \
	X(GD_C_WIN_INTEL_PYTORCH_XPU, "win.intel.pytorch_xpu",                 \
	  "an Intel GPU on Windows: what PyTorch's XPU build does for its "    \
	  "family")                                                            \
	X(GD_C_WIN_INTEL_VULKAN, "win.intel.vulkan",                           \
	  "an Intel GPU on Windows: llama.cpp's Vulkan backend through "       \
	  "Intel's graphics driver")                                           \
	X(GD_C_WIN_NVIDIA_NVCUDA_UNCHECKED, "win.nvidia.nvcuda_unchecked",     \
	  "nvcuda.dll not checked: the capture holds no System32 listing")     \
	X(GD_C_WIN_HIP_UNCHECKED, "win.hip_unchecked",                         \
	  "HIP runtime and SDK not checked: the capture holds no file "        \
	  "listing")                                                           \
	X(GD_C_WIN_NVIDIA_REINSTALL, "win.nvidia.reinstall",                   \
	  "reinstall the NVIDIA driver")                                       \
	X(GD_C_WIN_CUDA_TOOLKIT, "win.cuda_toolkit",                           \
	  "an installed CUDA toolkit (CUDA_PATH); wheels bring their "         \
	  "own CUDA runtime")                                                  \
	X(GD_C_WIN_NVIDIA_DRIVER_UPGRADE, "win.nvidia.driver_upgrade",         \
	  "upgrade the NVIDIA driver to one the framework's CUDA needs")       \
	X(GD_C_WIN_FRAMEWORK, "win.framework",                                 \
	  "a Python framework found in a Windows environment, with its "       \
	  "build")                                                             \
	X(GD_C_WIN_FRAMEWORK_DLL_MISSING, "win.framework.dll_missing",         \
	  "a DLL a framework's .pyd/.dll imports is not where Python >= "      \
	  "3.8 looks")                                                         \
	X(GD_C_WIN_FRAMEWORK_HIP_MISMATCH, "win.framework.hip_mismatch",       \
	  "a framework's DLL imports a HIP runtime of another major "          \
	  "than the driver's")                                                 \
	X(GD_C_WIN_FRAMEWORK_CUDA_TOO_NEW, "win.framework.cuda_too_new",       \
	  "a framework built for a CUDA newer than the driver runs")           \
	X(GD_C_WIN_FRAMEWORK_REPLACE, "win.framework.replace",                 \
	  "install a build of the framework for the driver's HIP or "          \
	  "CUDA")                                                              \
	X(GD_C_WIN_FRAMEWORK_OTHER_GPU, "win.framework.other_gpu",             \
	  "a framework built for another vendor's GPU: it runs on the CPU "    \
	  "here")                                                              \
	X(GD_C_WIN_APP_RUNTIME, "win.app_runtime",                             \
	  "an application folder keeps its own HIP runtime DLL, which the "    \
	  "app loads before System32's")                                       \
	X(GD_C_WIN_APP_RUNTIME_STALE, "win.app_runtime_stale",                 \
	  "an application folder's own HIP runtime DLL is older than the "     \
	  "driver's of the same name in System32, and the app loads it first") \
	X(GD_C_WIN_APP_RUNTIME_REMOVE, "win.app_runtime_remove",               \
	  "rename the app's older HIP runtime DLL (or update the app) so the " \
	  "driver's is used")                                                  \
	X(GD_C_WIN_APP_IMPORT_MISSING, "win.app_import_missing",               \
	  "an app's HIP backend DLL imports a DLL that Windows finds in "      \
	  "neither the app folder, System32 nor PATH: it cannot load")         \
	X(GD_C_WIN_APP_IMPORT_GET, "win.app_import_get",                       \
	  "get a build of the app that ships the missing DLL, or copy it "     \
	  "from the matching HIP SDK")                                         \
	X(GD_C_WIN_TARGET_UNSUPPORTED, "win.target_unsupported",               \
	  "the GPU's target is not in AMD's HIP SDK for Windows support "      \
	  "list: HIP programs and ROCm builds do not run on it")               \
	X(GD_C_WIN_NVIDIA_ARCH_UNSUPPORTED, "win.nvidia.arch_unsupported",     \
	  "an NVIDIA GPU that no current CUDA or driver supports (before "     \
	  "Maxwell), or that predates CUDA")                                   \
	X(GD_C_WIN_TARGET_COMMUNITY, "win.target_community",                   \
	  "the GPU's target is not in AMD's HIP SDK for Windows support "      \
	  "list; a community route (kb) runs HIP on it")                       \
	X(GD_C_WIN_OTHER_BACKEND, "win.other_backend",                         \
	  "a workload's backend that runs on this GPU without ROCm "           \
	  "(Vulkan), or the CPU (kb advice)")                                  \
	X(GD_C_WIN_APP_DLL_UNREADABLE, "win.app_dll_unreadable",               \
	  "an app's HIP-named DLL is unreadable or not a valid PE file: its "  \
	  "imports, and so whether the app's HIP backend loads, are unknown")  \
	X(GD_C_WIN_APP_DLL_REPLACE, "win.app_dll_replace",                     \
	  "replace the app's unreadable or broken DLL with its release's "     \
	  "copy (reinstall the app)")                                          \
	X(GD_C_WIN_NO_SDK, "win.no_sdk",                                       \
	  "no HIP SDK installed: apps use the driver's HIP runtime; an SDK "   \
	  "is for building HIP programs and running hipInfo")                  \
	X(GD_C_WIN_SDK_KNOWN_BROKEN, "win.sdk_known_broken",                   \
	  "an installed HIP SDK that a known issue (kb windows.hip_sdk) says " \
	  "does not see this GPU's target")

enum gd_code {
#define GD_CODE_ENUM(e, code, meaning) e,
	GD_CODES(GD_CODE_ENUM)
#undef GD_CODE_ENUM
	    GD_N_CODES
};

const char *gd_code_name(enum gd_code c);    /* "rocblas.no_kernels" */
const char *gd_code_meaning(enum gd_code c); /* one line for docs/codes.md */
/* By name; -1 when no code has it. */
int gd_code_find(const char *name);

#endif
