#!/usr/bin/env bash
# Issue 23's real case on an NVIDIA GPU newer than the binary (an H100 or
# H200, sm_90): a CUDA program built for one older architecture only
# (tests/run/nokernel.cu, -gencode arch=compute_ARCH,code=sm_ARCH: no PTX
# the driver could JIT) fails with "no kernel image is available for
# execution on the device". What scan, run and try say of it.
#   bench/nokernel.sh [GPUDOCTOR] [ARCH]     (ARCH default 80)
# Expected: scan "no code for sm_90 (has: sm_80)"; run exits 1 with the
# cause cuda-no-kernel-image, the fix "'nokernel' has no code for this GPU
# (sm_90): rebuild it for sm_90 (nvcc -gencode arch=compute_90,code=sm_90
# ..." and the same scan line; try: every strategy's cause, the same fix.
set -u
GD=${1:-build/gpudoctor}
ARCH=${2:-80}
SRC=$(cd "$(dirname "$0")/.." && pwd)/tests/run/nokernel.cu
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader
"$NVCC" --version | tail -1
"$NVCC" -gencode "arch=compute_$ARCH,code=sm_$ARCH" -o "$T/nokernel" "$SRC" || exit 1
echo "== gpudoctor scan"
"$GD" scan "$T/nokernel"
echo "== gpudoctor run (exit status after)"
"$GD" run -- "$T/nokernel"
echo "run exit: $?"
echo "== gpudoctor --json run (its outcome document)"
"$GD" --json run -- "$T/nokernel" 2>&1 >/dev/null | tail -1
echo "== gpudoctor try"
"$GD" try -- "$T/nokernel"
echo "try exit: $?"
