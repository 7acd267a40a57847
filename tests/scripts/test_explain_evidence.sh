#!/usr/bin/env bash
# Evidence over symptom: a signature that names a symptom's common cause
# gets the set-up cause the log's other lines point to, and what tells the
# two apart (matches[].alternative); without such lines, nothing is added.
#  - "no CUDA-capable device" in a container: started without the NVIDIA
#    runtime;
#  - "no ROCm-capable device" on WSL2: no /dev/kfd there;
#  - "no kernel image" with nvidia-smi's "CUDA Version: 11.4" and a
#    +cu121 PyTorch: the driver is older than the build's CUDA;
#  - VK_ERROR_INCOMPATIBLE_DRIVER in a log from macOS (MoltenVK's own
#    start-up line): the program lacks portability enumeration;
#  - the machine's own facts: a WSL2 kernel (osrelease) with a silent log;
#  - "all CUDA-capable devices are busy or unavailable" on WSL2: the GPU
#    passthrough, not the compute mode;
#  - a log whose lines carry docker logs -t time stamps is from a container;
#  - "driver version is insufficient" in a container: the GPU not requested;
#  - nvidia-smi not found in a container: the GPU not requested;
#  - the web UI's CUDA check in its AMD fork: no AMD backend selected.
#  - MLX's "Failed to load the default metallib." followed by Metal's
#    "is using language version X.Y which is not supported on this OS":
#    a metallib built for a newer macOS, not a missing one.
#  - TensorRT's "getPluginCreator could not find plugin" with its
#    "Cannot deserialize plugin": an engine being loaded without its plugin
#    library, not an operator the ONNX parser lacks.

#  - PyTorch's MPS version refusals where Python reports macOS 10.16: an
#    x86_64 Python under Rosetta, not an old macOS.
#  - "nvcc: not found" where hipcc ran nvcc: hipcc's platform, not CUDA.
#  - wgpu finding no adapter in a log from a browser (the app's "modern
#    browser with either WebGL or WebGPU" line, wasm-bindgen frames): the
#    browser's WebGPU disabled, not a missing driver.
#  - "the provided PTX was compiled with an unsupported toolchain" on a
#    Jetson: server CUDA libraries, not the driver's age;
#  - a CUDA library missing in an L4T r32 (JetPack 4) image: the NVIDIA
#    runtime, which mounts them from the Jetson, was not used;
#  - nvidia-smi "couldn't communicate with the NVIDIA driver" on WSL2;
#  - the matched line's own numbers name a cause before all others: an Xid's
#    class (79: the GPU fell off the bus; 13: the application), a PyTorch
#    OOM whose sizes show other processes holding the GPU.
# Each alternative has a name (alternative_id) and says whether the log
# makes it the likelier cause (alternative_first); the match's causes list
# its cause first.
set -u
: "${GPUDOCTOR:?set GPUDOCTOR to the built binary}"
: "${GD_SRCDIR:?set GD_SRCDIR to the source tree}"
command -v jq >/dev/null || { echo "skipped: no jq"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir "$T/root"
fail=0
alt() { # LOGFILE ID: the alternative explain gives that match
	"$GPUDOCTOR" --root "$T/root" explain --json "$1" |
		jq -r --arg id "$2" '.matches[] | select(.id == $id) | .alternative // "none"'
}
check() { # NAME LOGFILE ID PATTERN ("none": no alternative)
	got=$(alt "$2" "$3")
	if [ "$4" = none ]; then
		[ "$got" = none ] && echo "ok: $1" || { echo "FAIL: $1: $got"; fail=1; }
	else
		case $got in *$4*) echo "ok: $1" ;; *) echo "FAIL: $1: $got"; fail=1 ;; esac
	fi
}
printf '%s\n' '$ docker run --rm -it pytorch/pytorch:2.1.0-cuda12.1-cudnn8-runtime python -c "import torch; torch.zeros(1).cuda()"' \
	'Traceback (most recent call last):' \
	'RuntimeError: No CUDA GPUs are available' >"$T/docker.log"
check "container: NVIDIA runtime named" "$T/docker.log" cuda-no-device "without the NVIDIA runtime"
printf '%s\n' 'Traceback (most recent call last):' 'RuntimeError: No CUDA GPUs are available' >"$T/plain.log"
check "no container: nothing added" "$T/plain.log" cuda-no-device none
printf '%s\n' '$ uname -a' 'Linux DESKTOP-1 5.15.167.4-microsoft-standard-WSL2 #1 SMP x86_64 GNU/Linux' \
	'ggml_cuda_init: failed to initialize ROCm: no ROCm-capable device is detected' >"$T/wsl.log"
check "WSL2: no KFD named" "$T/wsl.log" rocm-no-device "WSL2, which has no /dev/kfd"
printf '%s\n' '| NVIDIA-SMI 470.82.01    Driver Version: 470.82.01    CUDA Version: 11.4     |' \
	'torch 2.1.0+cu121' \
	'RuntimeError: CUDA error: no kernel image is available for execution on the device' >"$T/old.log"
check "driver older than the build's CUDA" "$T/old.log" cuda-no-kernel-image "supports CUDA 11.4 but the program was built with CUDA 12.1"
printf '%s\n' '| NVIDIA-SMI 550.54.14    Driver Version: 550.54.14    CUDA Version: 12.4     |' \
	'torch 2.1.0+cu121' \
	'RuntimeError: CUDA error: no kernel image is available for execution on the device' >"$T/new.log"
check "driver new enough: nothing added" "$T/new.log" cuda-no-kernel-image none
printf '%s\n' '[mvk-info] MoltenVK version 1.2.4, supporting Vulkan version 1.2.250.' \
	'[CLVK] Could not create the instance : VK_ERROR_INCOMPATIBLE_DRIVER' >"$T/mac.log"
check "macOS: portability enumeration named" "$T/mac.log" vk-incompatible-driver "VK_KHR_portability_enumeration"
# the instance's extension list names the macOS surface extension (the
# Vulkan registry's VK_MVK_macos_surface), as libplacebo logs it
printf '%s\n' 'Creating vulkan instance with extensions:' '    VK_KHR_surface' \
	'    VK_MVK_macos_surface' 'Failed creating instance: VK_ERROR_INCOMPATIBLE_DRIVER' >"$T/mvk.log"
check "macOS surface extension: portability enumeration named" "$T/mvk.log" vk-incompatible-driver "VK_KHR_portability_enumeration"
echo '[CLVK] Could not create the instance : VK_ERROR_INCOMPATIBLE_DRIVER' >"$T/vk.log"
check "not macOS: nothing added" "$T/vk.log" vk-incompatible-driver none
# PaddlePaddle's own warning, in its own words (source: docs/workarounds.md)
printf '%s\n' 'W1114 22:57:33.949204    32 gpu_resources.cc:201] WARNING: device: 0. The installed Paddle is compiled with CUDNN 8.1, but CUDNN version in your machine is 8.0, which may cause serious incompatible bug. Please recompile or reinstall Paddle with compatible CUDNN version.' \
	'Could not load library cudnn_cnn_infer64_8.dll. Error code 193' >"$T/paddle.log"
check "Paddle: cuDNN older than the build" "$T/paddle.log" cudnn-win-load-error "compiled with a newer cuDNN"
echo 'Could not load library cudnn_cnn_infer64_8.dll. Error code 193' >"$T/cudnn.log"
check "no Paddle warning: nothing added" "$T/cudnn.log" cudnn-win-load-error none
# the machine itself: a WSL2 kernel (a captured root), the log silent
mkdir -p "$T/wslroot/proc/sys/kernel"
echo 5.15.167.4-microsoft-standard-WSL2 >"$T/wslroot/proc/sys/kernel/osrelease"
echo 'ggml_cuda_init: failed to initialize ROCm: no ROCm-capable device is detected' >"$T/rocm.log"
got=$("$GPUDOCTOR" --root "$T/wslroot" explain --json "$T/rocm.log" |
	jq -r '.matches[] | select(.id == "rocm-no-device") | .alternative // "none"')
case $got in "this machine is WSL2"*) echo "ok: a WSL2 machine" ;; *) echo "FAIL: WSL2 machine: $got"; fail=1 ;; esac
check "not WSL2: nothing added" "$T/rocm.log" rocm-no-device none
field() { # LOGFILE ID JQ: JQ on that match's JSON, space-joined
	"$GPUDOCTOR" --root "$T/root" explain --json "$1" |
		jq -r --arg id "$2" "[.matches[] | select(.id == \$id) | $3] | join(\" \")"
}
same() { # NAME GOT WANT
	[ "$2" = "$3" ] && echo "ok: $1" || { echo "FAIL: $1: got '$2', want '$3'"; fail=1; }
}
# NAME LOGFILE ID WANT: "alternative_id alternative_first" of that match
checkid() { same "$1" "$(field "$2" "$3" '"\(.alternative_id) \(.alternative_first)"')" "$4"; }
# NAME LOGFILE ID WANT: the cause codes that match names, in order
checkcauses() { same "$1" "$(field "$2" "$3" '.causes[].id')" "$4"; }
# NAME ID ALT ALONE LINE...: the log of the LINEs gets ALT (first) on match
# ID; the log of ALONE alone (the failure without the marker) gets none
pair() {
	local name=$1 id=$2 alt=$3 alone=$4
	shift 4
	printf '%s\n' "$@" >"$T/with.log"
	printf '%s\n' "$alone" >"$T/alone.log"
	checkid "$name: named" "$T/with.log" "$id" "$alt true"
	checkid "$name, alone: no name" "$T/alone.log" "$id" "null false"
}
checkid "container: named, likelier" "$T/docker.log" cuda-no-device "container-no-gpu-runtime true"
checkid "no container: no name" "$T/plain.log" cuda-no-device "null false"
checkid "WSL2 ROCm: named" "$T/wsl.log" rocm-no-device "wsl-no-kfd true"
checkid "old driver: named" "$T/old.log" cuda-no-kernel-image "driver-older-than-ptx true"
checkid "macOS: named" "$T/mac.log" vk-incompatible-driver "moltenvk-portability true"
checkid "Paddle: named" "$T/paddle.log" cudnn-win-load-error "cudnn-older-than-build true"
# a CUDA error and, later in the same log, nvidia-smi saying the GPU is lost
printf '%s\n' 'CUDA Error: no CUDA-capable device is detected' \
	'Unable to determine the device handle for GPU 0000:03:00.0: GPU is lost.  Reboot' >"$T/lost.log"
checkid "GPU lost later in the log: named" "$T/lost.log" cuda-no-device "gpu-lost-in-log true"
# busy or unavailable, and in dmesg the driver asking for a reset (scitix/sichek#51)
pair "GPU needs a reset (NV_ERR_RESET_REQUIRED)" cuda-devices-unavailable gpu-lost-in-log \
	"Test CUDA failure common.cu:1007 'CUDA-capable device(s) is/are busy or unavailable'" \
	"Test CUDA failure common.cu:1007 'CUDA-capable device(s) is/are busy or unavailable'" \
	'NVRM: nvAssertOkFailedNoLog: Assertion failed: Reset required [NV_ERR_RESET_REQUIRED] (0x00000062) returned from status @ kernel_channel.c:2874'
# egui-wgpu's no-adapter error in the Rerun web viewer, with its browser hint (rerun-io/rerun#4915)
pair "wgpu in a web browser" wgpu-no-adapter wgpu-in-browser \
	"WGPU error: Failed to create wgpu adapter, no suitable adapter found." \
	'Failed to create wgpu adapter, no suitable adapter found.' \
	'Make sure you use a modern browser with either WebGL or WebGPU support enabled.'
# the kernel's Xid line: 79 (fallen off the bus) is the GPU gone, from its
# own number; no other line's evidence is needed, and an application Xid
# gets none (illinois-scicomp/machine-shop-maintenance#80 quotes the first)
printf '%s\n' "NVRM: Xid (PCI:0000:02:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus." >"$T/xid79.log"
checkcauses "Xid 79: the GPU lost first" "$T/xid79.log" nvrm-xid "gpu-lost nvidia-xid"
echo "NVRM: Xid (PCI:0000:02:00): 13, pid=1234, name=python3, Graphics SM Warp Exception" >"$T/xid13.log"
checkid "Xid 13: no name" "$T/xid13.log" nvrm-xid "null false"
# rocminfo as ROCm threads show it in a container without kmod and with amdgpu
# built in: its module check fails, then it opens /dev/kfd and goes on
printf '%s\n' 'sh: 1: lsmod: not found' 'ROCk module is NOT loaded, possibly no GPU devices' \
	'Able to open /dev/kfd read-write' >"$T/nolsmod.log"
checkid "rocminfo without lsmod: named" "$T/nolsmod.log" rocm-kfd-not-loaded "rocminfo-no-lsmod true"
printf '%s\n' 'ROCk module is NOT loaded, possibly no GPU devices' 'fireburn is member of video group' \
	'=====================    ' 'HSA System Attributes    ' '=====================    ' \
	'==========               ' 'HSA Agents               ' '==========               ' >"$T/kfdok.log"
checkid "rocminfo that lists agents: named" "$T/kfdok.log" rocm-kfd-not-loaded "rocminfo-kfd-present true"
echo 'ROCk module is NOT loaded, possibly no GPU devices' >"$T/norock.log"
checkid "rocminfo alone: no name" "$T/norock.log" rocm-kfd-not-loaded "null false"
# coollabsio/coolify#2430: the container's log as docker logs -t shows it
printf '%s\n' '2024-06-10T10:42:32.734568571Z     torch._C._cuda_init()' \
	'2024-06-10T10:42:32.734587025Z RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx' >"$T/stamped.log"
checkid "docker logs -t stamps: a container" "$T/stamped.log" nvidia-driver-missing "container-no-gpu-runtime true"
# a stamp of another shape (milliseconds, no Z) says nothing
printf '%s\n' '2024-06-10 10:42:32,734 RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx' >"$T/unstamped.log"
checkid "other time stamps: no container" "$T/unstamped.log" nvidia-driver-missing "null false"
# CTranslate2's "driver version is insufficient" (cudart's error 35, also its
# answer when no libcuda is there at all) from a container: the GPU not requested
printf '%s\n' '$ docker run --rm lscr.io/linuxserver/faster-whisper:gpu' \
	'RuntimeError: CUDA failed with error CUDA driver version is insufficient for CUDA runtime version' >"$T/insuff.log"
checkid "insufficient driver in a container: named" "$T/insuff.log" cuda-driver-insufficient "container-no-gpu-runtime true"
# the same in a container started with the GPU (nvidia-docker run, as in
# tests/fixtures/explain-corpus/b12nv-insuffdrv-nvidia-docker-414.txt;
# --gpus, the nvidia runtime): the GPU was requested
printf '%s\n' '$ nvidia-docker run --rm nvidia/cuda nvidia-smi' \
	'THCudaCheck FAIL file=/root/torch/extra/cutorch/lib/THC/THCGeneral.c line=66 error=35 : CUDA driver version is insufficient for CUDA runtime version' >"$T/insuff-gpus.log"
checkid "insufficient driver, container with the GPU: no name" "$T/insuff-gpus.log" cuda-driver-insufficient "null false"
printf '%s\n' '$ docker run --gpus all --rm lscr.io/linuxserver/faster-whisper:gpu' \
	'RuntimeError: CUDA failed with error CUDA driver version is insufficient for CUDA runtime version' >"$T/insuff-gpus2.log"
checkid "insufficient driver, docker run --gpus: no name" "$T/insuff-gpus2.log" cuda-driver-insufficient "null false"
# --gpus on a trainer's own command line (latent-diffusion's training
# command, docs/workarounds.md "Sources of the messages the tests replay")
# asks no container for anything
printf '%s\n' 'CUDA_VISIBLE_DEVICES=0 python main.py --base configs/latent-diffusion/cin-ldm-vq-f8.yaml -t --gpus 0,' >"$T/trainer-gpus.log"
cat "$T/docker.log" >>"$T/trainer-gpus.log"
checkid "--gpus of a trainer, in a container: still named" "$T/trainer-gpus.log" cuda-no-device "container-no-gpu-runtime true"
echo 'RuntimeError: CUDA failed with error CUDA driver version is insufficient for CUDA runtime version' >"$T/insuff0.log"
checkid "insufficient driver, no container: no name" "$T/insuff0.log" cuda-driver-insufficient "null false"
busy='RuntimeError: CUDA error: all CUDA-capable devices are busy or unavailable'
pair "WSL2: busy devices are the passthrough" cuda-devices-unavailable wsl-gpu-passthrough "$busy" \
	'Linux DESKTOP-1 5.15.167.4-microsoft-standard-WSL2 #1 SMP x86_64 GNU/Linux' "$busy"
echo 'RuntimeError: Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDLINE_ARGS variable to disable this check' >"$T/sd.log"
checkid "web UI check alone: no name" "$T/sd.log" sdwebui-torch-gpu-check "null false"
# nvidia-smi missing inside a container (mudler/LocalAI#2117): the GPU not requested
pair "nvidia-smi missing in a container" nvidia-smi-not-found container-no-gpu-runtime \
	'bash: nvidia-smi: command not found' \
	' ===> LocalAI All-in-One (AIO) container starting...' \
	'/aio/entrypoint.sh: line 52: nvidia-smi: command not found'

# the PTX toolchain error on a Jetson (ollama/ollama#6591's discovery line and
# #6921's failure): CUDA libraries for arm64 servers, not the driver's age
ptx='Error: llama runner process has terminated: CUDA error: the provided PTX was compiled with an unsupported toolchain.'
pair "PTX toolchain on a Jetson" cuda-ptx-toolchain jetson-server-cuda "$ptx" \
	'time=2024-08-30T16:57:23.032Z level=DEBUG source=gpu.go:123 msg="detected GPUs" count=1 library=/usr/lib/aarch64-linux-gnu/tegra/libcuda.so.1.1' "$ptx"
# a CUDA library missing inside an L4T r32 image (dusty-nv/jetson-containers#93):
# r32 images get CUDA from the host through the NVIDIA runtime
curand='OSError: libcurand.so.10: cannot open shared object file: No such file or directory'
pair "CUDA library missing in an L4T r32 image" cuda-libs-missing l4t-r32-cuda-not-mounted "$curand" \
	'Status: Downloaded newer image for dustynv/ros:noetic-pytorch-l4t-r32.5.0' '>>> import torch' "$curand"
# nvidia-smi cannot reach the driver in WSL2 (microsoft/WSL#3847's message)
smi="NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running."
pair "nvidia-smi no driver in WSL2" nvidia-smi-no-driver wsl-gpu-passthrough "$smi" \
	'Linux DESKTOP 5.15.90.1-microsoft-standard-WSL2 #1 SMP x86_64 GNU/Linux' "$smi"

# hipcc (chipStar's, as its CHIP-SPV/chipStar#607 shows it) running nvcc: the
# NVIDIA platform was taken; nvcc missing without hipcc says nothing of it
pair "hipcc ran nvcc: the platform" cuda-toolkit-not-found hipcc-nvidia-platform \
	'sh: 1: /usr/local/cuda/bin/nvcc: not found' 'sh: 1: /usr/local/cuda/bin/nvcc: not found' \
	'failed to execute:/usr/local/cuda/bin/nvcc  -Wno-deprecated-gpu-targets -lcuda -lcudart -L/usr/local/cuda/lib64  ./ccompat.o ./saxpy.o -o "ccompat" -g -pthread'

# rocWMMA's static assertion for gfx906 (tests/fixtures/logs/
# rocwmma-unsupported-arch.txt), which has no matrix instructions: no
# rocWMMA supports it, newer or not
wmma='/therock/src/rocm-libraries/projects/rocwmma/library/include/rocwmma/internal/config.hpp:79:15: error: static assertion failed: Unsupported architecture'
pair "rocWMMA and a target without matrix cores" rocwmma-unsupported-arch rocwmma-no-matrix-cores "$wmma" \
	"$wmma" '1 error generated when compiling for gfx906.'

# hipBLASLt's kernel library missing from ollama's own ROCm bundle
# (lib/ollama/rocm, ollama's CMakeLists.txt; tests/fixtures/logs/
# hipblaslt-no-library.txt): the ROCm that release ships lacks the target;
# another program's copy (lemonade-sdk/llamacpp-rocm#10) adds nothing
pair "hipBLASLt library missing from ollama's bundle" hipblaslt-no-library ollama-bundled-rocm \
	'rocblaslt error: Cannot read "TensileLibrary_lazy_gfx1151.dat": No such file or directory' \
	'rocblaslt error: Cannot read /usr/local/lib/ollama/rocm/hipblaslt/library/TensileLibrary_lazy_gfx1201.dat: No such file or directory'
# a cublasLt call rejected after hipBLASLt said it has no kernel library for
# the target (vladmandic/sdnext#4574, ZLUDA on gfx1030; tests/fixtures/logs/
# zluda-hipblaslt-gfx1030-sdnext-4574.txt): hipBLASLt lacks the GPU; the
# cuBLAS status alone stays the generic failure
cublt='15:30:32-897234 ERROR    Prompt parser encode: CUDA error: CUBLAS_STATUS_INVALID_VALUE when calling'
pair "cublasLt failure where hipBLASLt lacks the target" cublas-invalid-value hipblaslt-lacks-target "$cublt" \
	'rocblaslt error: Could not load "C:\\Program Files\\AMD\\ROCm\\6.2\\bin\\hipblaslt\\library\\TensileLibrary_lazy_gfx1030.dat"' "$cublt"
# MLX's failure with Metal's own NSError after it, line by line as vMLX shows
# it (jjang-ai/vmlx#169): the metallib is there but built for a newer macOS
mlx='Process exited before becoming ready: RuntimeError: Failed to load the default metallib.'
pair "MLX metallib of a newer Metal language" mlx-metallib-not-found metallib-language-too-new "$mlx" \
	"$mlx" 'This library is using language version 4.0 which is not supported on this OS.' 'library not found'
# MLX's JIT build of its kernels rejected by the Metal compiler of this macOS,
# which does not know the language version asked (ml-explore/mlx-examples#1102,
# macOS 13 and -std=metal3.1; Apple's MTLLanguageVersion: 3.1 needs macOS 14):
# the build failure alone stays MLX's own problem
mlxjit='RuntimeError: [metal::Device] Unable to build metal library from source'
pair "MLX kernels built for a newer Metal language" mlx-metal-kernel-unavailable mlx-metal-std-too-new "$mlxjit" \
	"$mlxjit" "error: invalid value 'metal3.1' in '-std=metal3.1'" "note: use 'ios-metal1.0' for 'Metal 1.0 (iOS)' standard"
# ggml's Metal library failing in Apple's MetalPerformancePrimitives headers on
# an M5 (ollama/ollama#15835, #15748; the mixed bfloat/half kernels ollama PR
# #15257 removes): the shader source is there, its tensor-API kernels do not
# compile; the failure line alone stays a missing or unreadable shader
metallib='ggml_metal_init: error: failed to initialize the Metal library'
pair "ggml Metal tensor-API kernels rejected by MPP" metal-library-missing metal-tensor-api-kernels "$metallib" \
	"ggml_metal_library_init: error: Error Domain=MTLLibraryErrorDomain Code=3" \
	"/System/Library/Frameworks/MetalPerformancePrimitives.framework/Headers/__impl/MPPTensorOpsMatMul2dImpl.h:3267:5: error: static_assert failed due to requirement '__tensor_ops_detail::__is_same_v<half, bfloat>' \"Input types must match cooperative tensor types\"" \
	"$metallib"
# nvcc from CUDA 13 rejecting a pre-Turing target (horsicq/Formats#9; NVIDIA's
# CUDA Features Archive: 13.0 supports Turing through Grace Blackwell): the
# build lists a dropped architecture; the rejection alone stays the generic one
nvcc50="nvcc fatal   : Unsupported gpu architecture 'compute_50'"
pair "nvcc from CUDA 13 and a dropped architecture" gpu-arch-unsupported-by-compiler nvcc-cuda13-dropped-arch "$nvcc50" \
	"$nvcc50" 'Cuda compilation tools, release 13.3, V13.3.73'
# PyTorch's own NVRTC (its fuser prints "nvrtc compilation failed: " and the
# code; docs/workarounds.md): the wheel's CUDA is older than the GPU; the bare
# NVRTC line stays the generic one
nvrtcarch='nvrtc: error: invalid value for --gpu-architecture (-arch)'
pair "PyTorch's NVRTC and an unknown architecture" gpu-arch-unsupported-by-compiler torch-nvrtc-arch-unknown "$nvrtcarch" \
	"$nvrtcarch" '' 'nvrtc compilation failed: ' '' '#define NAN __int_as_float(0x7fffffff)'
# Triton's PTX with an ISA version older than the GPU's target
# (jax-ml/jax-triton#114): Triton predates the GPU; ptxas's line alone stays generic
ptxold='ptxas /tmp/filePpgwy4, line 6; error   : PTX .version 7.4 does not support .target sm_89'
pair "Triton's PTX too old for the target" ptx-version-too-old-for-target triton-ptx-too-old "$ptxold" \
	'RuntimeError: Internal Triton PTX codegen error: ' "$ptxold" 'ptxas fatal   : Ptx assembly aborted due to errors'
# ptxas rejecting the GPU's sm_ inside Triton's codegen error (RLinf/RLinf#92;
# docs/workarounds.md): Triton's bundled ptxas predates the GPU; the ptxas line
# alone stays the generic compiler one
sm120="(SGLangWorker pid=38135) ptxas fatal   : Value 'sm_120' is not defined for option 'gpu-name'"
pair "Triton's bundled ptxas and an unknown sm_" gpu-arch-unsupported-by-compiler triton-bundled-ptxas-unknown-arch "$sm120" \
	"(SGLangWorker pid=38135) RuntimeError: Internal Triton PTX codegen error:" "$sm120"
# ROCR_VISIBLE_DEVICES applied first, then CUDA_VISIBLE_DEVICES indexing the
# GPUs it left (docs/workarounds.md, from PyTorch's _parse_visible_devices):
# index 1 of a one-GPU mask leaves none
hipnone='RuntimeError: No HIP GPUs are available'
pair "ROCR_VISIBLE_DEVICES set: the index past its mask" torch-no-hip-gpu rocr-visible-devices-set "$hipnone" \
	'export ROCR_VISIBLE_DEVICES=1' 'export CUDA_VISIBLE_DEVICES=1' "$hipnone"
# TensorRT's plugin lookup failing while an engine is deserialized
# (TrojanXu/yolov5-tensorrt#22's lines): the registry is used to find plugins
# during engine deserialization (IPluginRegistry), so no ONNX parser is
# involved and the plugin library was not loaded; the lookup alone stays the
# parser's missing operator first
trtplug='[TensorRT] ERROR: INVALID_ARGUMENT: getPluginCreator could not find plugin BatchedNMS_TRT version 1'
pair "TensorRT plugin lookup while deserializing an engine" trt-onnx-plugin-not-found trt-engine-deserialize "$trtplug" \
	"$trtplug" '[TensorRT] ERROR: safeDeserializationUtils.cpp (293) - Serialization Error in load: 0 (Cannot deserialize plugin since ' \
	'[TensorRT] ERROR: INVALID_CONFIG: Deserialize the cuda engine failed.'
# cuInit's unknown error with XLA's diagnostics saying the loaded libcuda is
# another driver's than the kernel module's (jax-ml/jax#25822's lines; the
# kb's dso-version-mismatch-in-log rule says why): a driver mismatch, not nvidia_uvm
dsounk='E external/xla/xla/stream_executor/cuda/cuda_driver.cc:152] failed call to cuInit: INTERNAL: CUDA error: Failed call to cuInit: CUDA_ERROR_UNKNOWN: unknown error'
pair "libcuda and kernel module versions differ" cuda-unknown-error-uvm dso-version-mismatch-in-log "$dsounk" \
	"$dsounk" 'E external/xla/xla/stream_executor/cuda/cuda_diagnostics.cc:262] kernel version 535.129.3 does not match DSO version 545.23.8 -- cannot find working devices in this configuration'

# nvidia.ko's probe finding the GPU held by another driver (the kb's
# nvrm-gpu-already-bound rule; beclab/Olares#3963's lines): the installer's load
# failure is then that driver's doing; the failure alone stays the module's
nvload="ERROR: Unable to load the kernel module 'nvidia.ko'."
pair "NVRM names the driver bound to the GPU" nvidia-module-load-failed nvrm-gpu-already-bound "$nvload" \
	"$nvload" '-> Kernel module load error: No such device' \
	'[  201.910514] NVRM: GPU 0000:01:00.0 is already bound to NovaCore.'

# nvidia-smi unable to reach the driver while the kernel log shows the driver
# refusing the GPU (docs/workarounds.md: the legacy-branch notice, the open
# module without GSP; NixOS/nixos-hardware#1828's lines): the GPU is outside the installed
# branch; the nvidia-smi line alone stays the module not loaded
pair "NVRM refuses the GPU (legacy branch)" nvidia-smi-no-driver nvrm-driver-refuses-gpu "$smi" \
	"$smi" 'Apr 13 16:41:14 nixos kernel: NVRM: The NVIDIA NVIDIA GeForce GTX 1050 GPU installed in this system>' \
	'                              NVRM:  supported through the NVIDIA 580.xx Legacy drivers. Please'
pair "NVRM refuses the GPU (open module, no GSP)" nvidia-smi-no-driver nvrm-driver-refuses-gpu "$smi" \
	"$smi" 'NVRM: nvidia.ko because it does not include the required GPU'

# a DKMS build failure whose log also shows the kernel's headers missing
# (docs/workarounds.md, from zen-kernel/zen-kernel#305): no headers, not the
# driver's age; the failure alone stays the kernel too new
dkmsfail='Error! Bad return status for module build on kernel: 6.2.6-zen1-1-zen (x86_64)'
pair "DKMS failure with the headers missing" dkms-module-build-failed dkms-headers-missing-in-log "$dkmsfail" \
	"$dkmsfail" '<command-line>: fatal error: /lib/modules/6.2.6-zen1-1-zen/build/include/linux/autoconf.h: No such file or directory'

# NVML's Unknown Error in a container while the toolkit's config.toml says
# no-cgroups = true (docs/workarounds.md): no device-cgroup rules for a
# rootful engine; the error alone stays the daemon-reload case
nvmlunk='Failed to initialize NVML: Unknown Error'
pair "NVML Unknown Error with no-cgroups = true" nvml-unknown-error-container nvct-no-cgroups-rootful "$nvmlunk" \
	"$nvmlunk" 'no-cgroups = true'

# DirectML 887A0004 at graph compile (DmlGraphFusionHelper, microsoft/DirectML#611
# on a Core Ultra NPU) is the NPU's unsupported model; from the provider factory
# it stays the old DirectML.dll / no Direct3D 12 first
dmlfac='  Message=[ErrorCode:RuntimeException] D:\a\_work\1\s\onnxruntime\core\providers\dml\dml_provider_factory.cc(518)\onnxruntime.DLL!69CE57A9: (caller: 69CE5911) Exception(1) tid(3ec4) 887A0004 The specified device interface or feature level is not supported on this system.'
pair "DirectML graph compile on an NPU" dml-unsupported dml-npu-graph-unsupported "$dmlfac" \
	'[E:onnxruntime:, inference_session.cc:1935 onnxruntime::InferenceSession::Initialize::<lambda_e09ac8a7667b49d27dc77a8205e26aa5>::operator ()] Exception during initialization: C:\__w\1\s\onnxruntime\core\providers\dml\DmlExecutionProvider\src\DmlGraphFusionHelper.cpp(451)\onnxruntime.dll!00007FFD7B82B069: (caller: 00007FFD7B7AEA84) Exception(1) tid(5610) 887A0004 The specified device interface or feature level is not supported on this system.'

# NCCL's unhandled system error whose last error is a connection to 127.0.0.1
# (awslabs/awsome-distributed-ai#192, fixed by NCCL_SOCKET_IFNAME): NCCL
# bootstrapped over loopback; the error alone stays the shared-memory case first
ncclsys='RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)'
pair "NCCL system error connecting to loopback" nccl-unhandled-system-error nccl-bootstrap-over-loopback "$ncclsys" \
	'torch.distributed.DistBackendError: NCCL error in: /opt/conda/conda-bld/pytorch_1696588393313/work/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1331, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.5' \
	'ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. ' \
	'Last error:' 'socketStartConnect: Connect to 127.0.0.1<45069> failed : Software caused connection abort'

# CMake's Visual Studio generator without CUDA's build customization
# (CESNET/GPUJPEG#79): 'No CUDA toolset found.'; a missing nvcc stays PATH first
pair "CMake VS generator without the CUDA toolset" cuda-toolkit-not-found cmake-vs-no-cuda-toolset \
	'  No CMAKE_CUDA_COMPILER could be found.' \
	'CMake Error at C:/Program Files/CMake/share/cmake-3.29/Modules/CMakeDetermineCompilerId.cmake:563 (message):' '  No CUDA toolset found.'

# TensorRT's "Unsupported SM" naming an architecture the release dropped
# (NVIDIA/TensorRT#3826: TensorRT 10.0.1 on a GTX 1080 Ti, SM 6.1): the GPU is
# older than the release; a new GPU's SM stays the release older than the GPU first
pair "TensorRT refuses a dropped SM" trt-unsupported-sm trt-sm-dropped-by-release \
	'[07/19/2025-23:34:55] [E] Error[9]: IBuilder::buildSerializedNetwork: Error Code 9: API Usage Error (Target GPU SM 120 is not supported by this TensorRT release.)  ' \
	'[04/25/2024-15:52:54] [TRT] [E] 1: Unsupported SM: 0x601' \
	'[04/25/2024-15:52:54] [TRT] [E] 1: [caskUtils.cpp::nvinfer1::rt::task::trtSmToCask::193] Error Code 1: Internal Error (Unsupported SM: 0x601)'

# ROCm clang naming a gfx target as a CUDA gpu architecture (leejet/stable-diffusion.cpp#464,
# ROCm/rocThrust#150): the HIP sources were compiled as CUDA; nvcc's unknown sm_ stays the
# compiler's age
pair "gfx target rejected as a CUDA gpu architecture" gpu-arch-unsupported-by-compiler hip-source-compiled-as-cuda \
	"nvcc fatal   : Unsupported gpu architecture 'compute_89'" \
	'clang++: error: unsupported CUDA gpu architecture: gfx1100'
pair "gfx target rejected as a CUDA gpu architecture (clang 11)" gpu-arch-unsupported-by-compiler hip-source-compiled-as-cuda \
	"nvcc fatal   : Unsupported gpu architecture 'compute_89'" \
	'clang-11: error: Unsupported CUDA gpu architecture: gfx900:xnack-'

# CTranslate2's compute-type refusal with the model loaded on device cuda
# (docs/workarounds.md: cuda only in a CUDA build, float16 on CUDA only from
# compute capability 7.0): the GPU's age; alone, the CPU first
ct2fp16='ValueError: Requested float16 compute type, but the target device or backend do not support efficient float16 computation.'
pair "CTranslate2 float16 on device cuda" ct2-compute-type-unsupported ct2-cuda-gpu-below-volta "$ct2fp16" \
	'    model = WhisperModel(model_size, device="cuda", compute_type="float16")' "$ct2fp16"

# PyTorch's MPS bfloat16 refusal where collect_env's Python platform is
# macOS-10.16 (docs/workarounds.md, pytorch/pytorch#146236): an x86_64 Python
# under Rosetta; alone it stays the data type MPS lacks
mpsbf16='MPS BFloat16 is only supported on MacOS 14 or newer'
pair "MPS bfloat16 refused to an x86_64 Python" mps-dtype-unsupported mps-x86-python-reports-10-16 "$mpsbf16" \
	"$mpsbf16" 'OS: macOS 15.3 (x86_64)' 'Python platform: macOS-10.16-x86_64-i386-64bit'

# Ray's /dev/shm fallback warning in a vLLM run with tensor parallelism over
# several GPUs (docs/workarounds.md, vLLM's Deploying with Docker page): the
# workers' shared memory, not just a slower object store
raytmp="2023-11-18 03:39:16,283 WARNING services.py:1996 -- WARNING: The object store is using /tmp instead of /dev/shm because /dev/shm has only 67108864 bytes available. This will harm performance!"
pair "Ray /dev/shm fallback with tensor parallelism" ray-object-store-on-tmp ray-shm-tensor-parallel "$raytmp" \
	'>    --tensor-parallel-size 2' "$raytmp"

# Numba's 'No supported GPU compute capabilities found' after its own warning
# that the CUDA toolkit is below its minimum (docs/workarounds.md): the
# toolkit's age, not a missing toolkit
nvvmcc='numba.cuda.cudadrv.error.NvvmSupportError: No supported GPU compute capabilities found. Please check your cudatoolkit version matches your CUDA version.'
pair "Numba: CUDA toolkit below its minimum" numba-nvvm-not-found numba-toolkit-below-minimum "$nvvmcc" \
	'/env/lib/python3.8/site-packages/numba/cuda/cudadrv/nvvm.py:400: UserWarning: CUDA Toolkit 10.1 is unsupported by Numba - 11.0 is the minimum required version.' "$nvvmcc"

# libcuda.so.1 missing for a program under ~/.var/app/ (janhq/jan#7825): a
# Flatpak sandbox without the host driver's GL.nvidia extension; alone, the
# container started without the GPU stays first
fplib='/home/u/.var/app/ai.jan.Jan/data/Jan/data/llamacpp/backends/b8149/linux-avx-cuda-cu12.0-x64/build/bin/llama-server: error while loading shared libraries: libcuda.so.1: cannot open shared object file: No such file or directory'
pair "Flatpak app without the host NVIDIA libraries" container-no-libcuda flatpak-no-host-nvidia-libs \
	'./llama-server: error while loading shared libraries: libcuda.so.1: cannot open shared object file: No such file or directory' "$fplib"

# The causes a match names (kb cause codes, likeliest first): the
# alternative's cause comes first, then the signature's own.
checkcauses "container: the GPU not requested, then the signature's causes" "$T/insuff.log" cuda-driver-insufficient "container-gpu-not-requested driver-older-than-toolkit nvidia-driver-missing container-toolkit-missing"
checkcauses "no container: the signature's causes in order" "$T/insuff0.log" cuda-driver-insufficient "driver-older-than-toolkit nvidia-driver-missing container-gpu-not-requested container-toolkit-missing"
checkcauses "old driver: driver older than the build first" "$T/old.log" cuda-no-kernel-image "driver-older-than-toolkit cuda-no-kernel-image"
# The line's own numbers: an Xid's class (tests/fixtures/logs/nvrm-xid.txt
# is a real Xid 79), a PyTorch OOM (public run logs as PyTorch 2.x prints
# them, tests/unit/test_explain_oom.c).
XID=$(dirname "$0")/../fixtures/logs/nvrm-xid.txt
checkcauses "Xid 79 (nvrm-xid fixture): the GPU lost first" "$XID" nvrm-xid "gpu-lost nvidia-xid"
printf '%s\n' "NVRM: Xid (PCI:0000:3b:00): 13, pid=2521, name=python, Graphics Exception: ESR 0x504648=0x2000d" >"$T/xid13.log"
checkcauses "Xid 13: the application first" "$T/xid13.log" nvrm-xid "program-bug nvidia-xid gpu-lost"
printf '%s\n' "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 5.50 GiB. GPU 0 has a total capacity of 79.20 GiB of which 3.50 GiB is free. Process 3283987 has 516.00 MiB memory in use. Process 3284604 has 75.19 GiB memory in use. Of the allocated memory 0 bytes is allocated by PyTorch, and 0 bytes is reserved by PyTorch but unallocated." >"$T/oomother.log"
checkcauses "OOM, another process holds the GPU: named first" "$T/oomother.log" cuda-oom "gpu-memory-held-by-other gpu-oom apu-memory-split"
printf '%s\n' "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.50 GiB. GPU 0 has a total capacty of 23.69 GiB of which 3.09 GiB is free. Including non-PyTorch memory, this process has 20.57 GiB memory in use. Of the allocated memory 20.13 GiB is allocated by PyTorch, and 755.50 KiB is reserved by PyTorch but unallocated." >"$T/oomself.log"
checkcauses "OOM, this process holds the GPU: the GPU's memory first; other processes ruled out by the numbers" "$T/oomself.log" cuda-oom "gpu-oom apu-memory-split"
# This machine's facts rank them too: on the H200 tree (driver 580, CUDA 13)
# the check contradicts "driver older than the toolkit", which goes last.
H200=$(dirname "$0")/../fixtures/nvidia-h200/root
same "a new driver here puts the old-driver cause last" "$("$GPUDOCTOR" --root "$H200" explain --json "$T/insuff0.log" |
	jq -r '.matches[0] | "\(.check.verdict) \([.causes[].id] | join(" "))"')" "contradicted nvidia-driver-missing container-gpu-not-requested container-toolkit-missing driver-older-than-toolkit"
"$GPUDOCTOR" --root "$T/root" explain "$T/insuff0.log" >"$T/insuff0.txt"
grep -q "causes:  one of 4, likeliest first: (1) the NVIDIA driver is older" "$T/insuff0.txt" &&
	echo "ok: text names the four causes in order" || { echo "FAIL: text names the four causes in order"; fail=1; }
# The marker rules are data (docs/kb.md "evidence"): a rule added to a kb
# given with --kb changes the answer, with no new code: its alternative comes
# first, then the signature's own causes in the kb's order.
python3 - "$GD_SRCDIR/src/kb/gpudoctor-kb.json" "$T/ev.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["evidence"].append({"id": "test-traceback-rule", "signatures": ["cuda-no-device"],
    "markers": ["Traceback (most recent call last)"], "cause": "program-bug",
    "text": "a rule of this test only: the log holds a Python traceback"})
json.dump(d, open(sys.argv[2], "w"))
PY
same "a kb's own evidence rule names its alternative" "$("$GPUDOCTOR" --root "$T/root" --kb "$T/ev.json" explain --json "$T/plain.log" |
	jq -r '.matches[0] | "\(.alternative_id) \([.causes[].id] | join(" "))"')" "test-traceback-rule program-bug $(jq -r '.signatures[] | select(.id == "cuda-no-device") | .causes | join(" ")' "$GD_SRCDIR/src/kb/gpudoctor-kb.json")"
checkid "the shipped kb has no such rule" "$T/plain.log" cuda-no-device "null false"
# Which lines carry numbers to read is data too (signatures[].decode): a kb
# whose nvrm-xid does not ask for the Xid decoder names the signature's own
# causes in order for Xid 79, with no line of its class.
python3 - "$GD_SRCDIR/src/kb/gpudoctor-kb.json" "$T/nodecode.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for s in d["signatures"]:
    if s["id"] == "nvrm-xid":
        assert s.pop("decode") == "xid"
json.dump(d, open(sys.argv[2], "w"))
PY
same "nvrm-xid without decode: the kb's causes, no Xid class" "$("$GPUDOCTOR" --root "$T/root" --kb "$T/nodecode.json" explain --json "$XID" |
	jq -r '.matches[0] | "\(.detail // "none") \([.causes[].id] | join(" "))"')" "none $(jq -r '.signatures[] | select(.id == "nvrm-xid") | .causes | join(" ")' "$GD_SRCDIR/src/kb/gpudoctor-kb.json")"
exit $fail
