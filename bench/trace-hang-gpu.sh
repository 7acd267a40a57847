#!/usr/bin/env bash
# Issue #19's GPU checks (NVIDIA machine, PyTorch with CUDA):
#  1. a PyTorch script whose .item() waits behind a kernel that spins
#     (torch.cuda._sleep) under `run --watch --trace=MODE` (hang: CUPTI,
#     hooks: exported hooks only): the report names the CUDA call, the
#     Python line ("hang_item.py:5 in step") and why the call blocks; the
#     same script without its warm-up step: the first launch of a kernel
#     behind the spinning one is named (cudaLaunchKernel, lazy module
#     loading) with CUDA_MODULE_LOADING=EAGER as the setting that changes it;
#  2. a hang inside CUDA's start: a CUDA injection library whose
#     InitializeInjection never returns (the driver calls it inside
#     cuInit; a user's CUDA_INJECTION64_PATH is kept by --trace) makes the
#     first CUDA call of the real runtime hang in the real driver: the
#     report names that call (cudaGetDeviceCount or another start call).
# Prints ok/FAIL per check; exit 1 on a failure.
# Usage: PYTHON=venv/bin/python bench/trace-hang-gpu.sh [path/to/gpudoctor]
set -u
gd=$(readlink -f "${1:-build/gpudoctor}")
py=${PYTHON:-python3}
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
	echo "skipped: no NVIDIA GPU"
	exit 0
fi
if ! "$py" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
	echo "skipped: no NVIDIA GPU (or no PyTorch with CUDA at $py)"
	exit 0
fi
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/hang_item.py" <<'PY'
import torch
def step(x, spin):
    if spin: torch.cuda._sleep(1 << 42)  # a kernel that spins for minutes
    y = (x * 2).sum()
    return y.item()  # line 5: waits for the spinning kernel
x = torch.ones(1024, device="cuda")
step(x, False)  # the kernels' modules loaded first (CUDA's lazy loading)
torch.cuda.synchronize()
print("step", flush=True)
step(x, True)
PY
# the same without the warm-up: the first launch of the multiply kernel
# waits behind the spinning one while CUDA loads its module (issue #19)
sed -e '/^step(x, False)/d' "$tmp/hang_item.py" >"$tmp/hang_lazy.py"
for mode in hang hooks; do
	err=$("$gd" run --watch 20 --trace=$mode -- "$py" "$tmp/hang_item.py" 2>&1 >/dev/null)
	echo "$err" | sed "s/^/  [$mode] /"
	if grep -Eq 'stuck [0-9.]+ s in (cudaStreamSynchronize|cudaMemcpyAsync|cudaMemcpy|a CUDA)' <<<"$err" &&
		grep -q 'python: hang_item.py:5 in step' <<<"$err" &&
		grep -q 'why: ' <<<"$err"; then
		echo "ok: --trace=$mode: .item() hang names the call, the Python line and why"
	else
		echo "FAIL: --trace=$mode: .item() hang"
		fail=1
	fi
done
err=$("$gd" run --watch 20 --trace -- "$py" "$tmp/hang_lazy.py" 2>&1 >/dev/null)
echo "$err" | sed "s/^/  [lazy] /"
if grep -Eq 'stuck [0-9.]+ s in _?_?cudaLaunchKernel' <<<"$err" &&
	grep -q 'python: hang_lazy.py:4 in step' <<<"$err" &&
	grep -q 'CUDA_MODULE_LOADING=EAGER' <<<"$err"; then
	echo "ok: a first launch behind a running kernel (lazy module loading) is named, with CUDA_MODULE_LOADING=EAGER"
else
	echo "FAIL: the lazy-loading launch hang"
	fail=1
fi
cat >"$tmp/hang_inject.c" <<'C'
#include <unistd.h>
int InitializeInjection(void);
int InitializeInjection(void)
{
	for (;;)
		pause();
	return 1;
}
C
cc -shared -fPIC -o "$tmp/libhang_inject.so" "$tmp/hang_inject.c" || exit 1
err=$(CUDA_INJECTION64_PATH=$tmp/libhang_inject.so "$gd" run --watch 20 --trace -- \
	"$py" -c 'import torch; print(torch.cuda.device_count()); torch.zeros(1, device="cuda")' \
	2>&1 >/dev/null)
echo "$err" | sed 's/^/  [init] /'
if grep -Eq 'stuck [0-9.]+ s in (cuda(GetDeviceCount|SetDevice|GetDeviceProperties|InitDevice|Free|Malloc|DeviceGetAttribute)|cu(Init|DeviceGetCount|DeviceGet|DevicePrimaryCtxRetain|CtxCreate))\(' <<<"$err" &&
	grep -q 'why: ' <<<"$err"; then
	echo "ok: a hang inside CUDA's start is named"
else
	echo "FAIL: hang inside CUDA's start not named (see above)"
	fail=1
fi
exit $fail
