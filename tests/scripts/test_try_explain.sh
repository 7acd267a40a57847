#!/usr/bin/env bash
# `try` explains each failed strategy's own output (the cause and a fix for
# the program at hand, under the table), and `explain` gives a program its
# own fix for "no code for this GPU" unless the log is a framework's:
#  - a real HIP program (hipcc, HIP 5.2): the runtime's own error name
#    (hipErrorInvalidDevice / hipErrorNoDevice here, no GPU) comes back
#    decoded as a hipError_t;
#  - gpu-burn built for sm_80 on an H100/H200 (sm_90): its real output
#    ("Couldn't init a GPU test: %s" with the CUDA error string, then "No
#    clients are alive! Aborting"; source: docs/workarounds.md, "Sources of
#    the messages the tests replay"), replayed by a stand-in
#    script (no CUDA here): the fix names sm_90 and the program, not the
#    PyTorch wheels;
#  - the same error in a PyTorch traceback keeps the kb's framework fix.
set -u
: "${GPUDOCTOR:?set GPUDOCTOR to the built binary}"
: "${GD_SRCDIR:?set GD_SRCDIR to the source tree}"
command -v jq >/dev/null || { echo "skipped: no jq"; exit 77; }
GD=$GPUDOCTOR
FX=$GD_SRCDIR/tests/fixtures
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

cat >"$T/fake_gpu_burn" <<'SH'
#!/bin/sh
echo "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-00000000-0000-0000-0000-000000000000)"
echo "Initialized device 0 with 81079 MB of memory (80484 MB available, using 72435 MB of it), using FLOATS"
echo "Couldn't init a GPU test: Error in load module: no kernel image is available for execution on the device" >&2
echo "No clients are alive!  Aborting" >&2
exit 124
SH
chmod +x "$T/fake_gpu_burn"
"$GD" --root "$FX/nvidia-h200/root" try --json -- "$T/fake_gpu_burn" >"$T/j" 2>/dev/null
jq -e '.strategies | length > 0 and all(.cause | test("cuda-no-kernel-image"))' "$T/j" >/dev/null &&
	ok "try: every strategy's cause is cuda-no-kernel-image" || bad "try causes: $(jq -c '[.strategies[].cause]' "$T/j")"
fix=$(jq -r '.strategies[0].cause_fix' "$T/j")
case $fix in *"'fake_gpu_burn'"*sm_90*arch=compute_90,code=sm_90*) ok "try: fix for the program, sm_90" ;;
*) bad "try fix: $fix" ;; esac
case $fix in *wheel* | *PyTorch*) bad "try fix speaks of PyTorch: $fix" ;; esac
"$GD" --root "$FX/nvidia-h200/root" try -- "$T/fake_gpu_burn" >"$T/t" 2>/dev/null
grep -q "^Why (gpudoctor explain" "$T/t" && grep -q "fix: 'fake_gpu_burn' has no code for this GPU (sm_90)" "$T/t" &&
	ok "try: the cause under the table" || bad "try text: $(cat "$T/t")"


# The causes are ranked on this machine: "driver version is insufficient"
# (CTranslate2's words) where the driver here supports CUDA 13 (the H200
# tree) puts "driver older than the toolkit" last; with an old driver (515)
# it stays first. A fake: no driver here can be made too old on demand.
cat >"$T/fake_ct2" <<'SH'
#!/bin/sh
echo "RuntimeError: CUDA failed with error CUDA driver version is insufficient for CUDA runtime version" >&2
exit 1
SH
chmod +x "$T/fake_ct2"
"$GD" --root "$FX/nvidia-h200/root" try --json -- "$T/fake_ct2" >"$T/j" 2>/dev/null
got=$(jq -r '.strategies[0].causes | join(" ")' "$T/j")
case $got in nvidia-driver-missing*driver-older-than-toolkit) ok "try: causes ranked by this machine's new driver: $got" ;;
*) bad "try causes, new driver: $got" ;; esac
"$GD" --root "$FX/nvidia-h200-old-driver/root" try --json -- "$T/fake_ct2" >"$T/j" 2>/dev/null
got=$(jq -r '.strategies[0].causes[0]' "$T/j")
[ "$got" = driver-older-than-toolkit ] && ok "try: an old driver keeps it first" || bad "try causes, old driver: $got"
"$GD" --root "$FX/nvidia-h200-old-driver/root" try -- "$T/fake_ct2" >"$T/t" 2>/dev/null
grep -q "likeliest cause: the NVIDIA driver is older than the CUDA toolkit.*(driver-older-than-toolkit)" "$T/t" &&
	ok "try: the likeliest cause under the table" || bad "try text: $(cat "$T/t")"

"$T/fake_gpu_burn" >"$T/burn.log" 2>&1
"$GD" --root "$FX/nvidia-h200/root" explain --json "$T/burn.log" >"$T/e"
jq -e '.matches[0].id == "cuda-no-kernel-image" and (.matches[0].fix | test("rebuild it for sm_90"))' "$T/e" >/dev/null &&
	ok "explain: program fix for sm_90" || bad "explain fix: $(jq -c '.matches' "$T/e")"
printf '%s\n' 'Traceback (most recent call last):' '  File "train.py", line 3, in <module>' \
	'    import torch; torch.zeros(1).cuda()' \
	'RuntimeError: CUDA error: no kernel image is available for execution on the device' >"$T/torch.log"
"$GD" --root "$FX/nvidia-h200/root" explain --json "$T/torch.log" >"$T/e"
jq -e '.matches[0].id == "cuda-no-kernel-image" and (.matches[0].fix | test("rebuild it for") | not)' "$T/e" >/dev/null &&
	ok "explain: a PyTorch log keeps the kb's fix" || bad "torch fix: $(jq -c '.matches[0].fix' "$T/e")"

if command -v hipcc >/dev/null; then
	cat >"$T/k.hip" <<'HIP'
#include <hip/hip_runtime.h>
#include <stdio.h>
__global__ void k(float *x) { x[threadIdx.x] = 1.0f; }
int main(void)
{
	float *x = NULL;
	hipError_t e = hipMalloc((void **)&x, 256);
	if (e != hipSuccess) {
		fprintf(stderr, "hipMalloc failed: %s\n", hipGetErrorName(e));
		return 1;
	}
	hipLaunchKernelGGL(k, dim3(1), dim3(64), 0, 0, x);
	e = hipDeviceSynchronize();
	fprintf(stderr, "%s\n", hipGetErrorName(e));
	return e != hipSuccess;
}
HIP
	if hipcc --offload-arch=gfx900 -o "$T/hipk" "$T/k.hip" 2>"$T/hipcc.err"; then
		"$GD" --root "$FX/rx5700xt/root" try --json -- "$T/hipk" >"$T/j" 2>/dev/null
		got=$(jq -r '.strategies[0] | "\(.outcome) \(.cause)"' "$T/j")
		case $got in
		"ok "*) echo "skipped: the HIP program ran (a GPU is here)" ;;
		*"hipError"*"(hipError_t)"*) ok "try: real HIP error decoded: $got" ;;
		*) bad "HIP try cause: $got" ;;
		esac
		# the program's own code against the machine's GPU (gfx1010)
		jq -e '.program_scan | endswith(": no code for gfx1010 (has: gfx900)")' "$T/j" >/dev/null &&
			ok "try: scan of the program: no code for gfx1010 (has: gfx900)" ||
			bad "program_scan: $(jq -c .program_scan "$T/j")"
	else
		echo "skipped: hipcc failed: $(head -3 "$T/hipcc.err")"
	fi
else
	echo "skipped: no hipcc"
fi
exit $fail
