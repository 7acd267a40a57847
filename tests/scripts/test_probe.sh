#!/usr/bin/env bash
# gpudoctor probe end to end: the supervisor's self-test, the Vulkan and
# OpenCL probes on Mesa lavapipe and PoCL for real, the real HIP 5.2 runtime
# answering "no device" (status no_device), `--only` from the op table, CUDA
# skipping visibly without an NVIDIA GPU, a missing library, and stand-in
# libraries (tests/fake/) for a driver that
# hangs in cuInit, one that crashes in hipInit, and a HIP runtime that hangs
# loading a code object (restart past the hang, the ROCm math libraries
# reported missing with where they were searched, the context cycle that
# outlasts the per-op deadline while making progress).
set -u
G=${GPUDOCTOR:?GPUDOCTOR must name the built binary}
SRC=${GD_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
# under ASan, let the fault probes die of their own signals
export ASAN_OPTIONS="handle_segv=0:handle_abort=0:${ASAN_OPTIONS:-}"

ok() { echo "ok   - $1"; }
bad() { echo "FAIL - $1"; fails=$((fails + 1)); }
# check DESC FILE JQ-EXPR
check() {
	if jq -e "$3" "$2" >/dev/null 2>&1; then ok "$1"; else
		bad "$1"; jq -c '.results' "$2" 2>/dev/null | head -c 2000; echo
	fi
}
# Nothing started by a probe may outlive gpudoctor.
no_leftovers() {
	# only this binary's children (other test runs may be going on)
	if pgrep -f -- "^$G __probe-child" >/dev/null 2>&1 ||
	   pgrep -f -- "$tmp" >/dev/null 2>&1; then
		bad "$1: probe processes left running"
		ps -ef | grep -e "$G __probe-child" | grep -v grep
	else
		ok "$1: nothing left running"
	fi
}
run() { # run NAME ARGS... -> $tmp/NAME.json, wall time in $tmp/NAME.time
	local name=$1; shift
	local t0 t1
	t0=$(date +%s.%N)
	"$G" probe --json "$@" >"$tmp/$name.json" 2>"$tmp/$name.err"
	echo $? >"$tmp/$name.rc"
	t1=$(date +%s.%N)
	python3 -c "print($t1 - $t0)" >"$tmp/$name.time"
}
lt() { python3 -c "import sys; sys.exit(0 if float('$1') < float('$2') else 1)"; }

# 1. self-test: every fault classified as expected, quickly, nothing left
run selftest --selftest
check "selftest: all 14 cases classified right" "$tmp/selftest.json" \
	'.selftest_passed == true and (.results | length) == 14 and
	 all(.results[]; .pass and .backend == "selftest")'
check "selftest: hang in the named phase" "$tmp/selftest.json" \
	'.results[] | select(.op == "hang_in_phase") |
	 .status == "hang" and .phase == "fake_driver_init" and .seconds < 1.5'
check "selftest: slow but progressing op is ok past the 1 s deadline" "$tmp/selftest.json" \
	'.results[] | select(.op == "slow_progress") |
	 .status == "ok" and .seconds > 1.5'
check "selftest: a stalled step after progress is a hang, on time" "$tmp/selftest.json" \
	'.results[] | select(.op == "progress_then_hang") |
	 .status == "hang" and .phase == "step 4, never returns" and
	 (.detail | test("no progress for 1.0 s")) and .seconds < 2.5'
check "selftest: abort message kept" "$tmp/selftest.json" \
	'.results[] | select(.op == "abort") | .detail | test("SIGABRT.*assertion")'
check "selftest: schema" "$tmp/selftest.json" \
	'.schema_version == 1 and .command == "probe" and
	 all(.results[]; has("backend") and has("device") and has("op") and
	     has("status") and has("phase") and has("seconds") and has("detail"))'
lt "$(cat "$tmp/selftest.time")" 4 && ok "selftest: under 4 s" ||
	bad "selftest took $(cat "$tmp/selftest.time") s"
[ "$(cat "$tmp/selftest.rc")" = 0 ] && ok "selftest: exit 0" || bad "selftest: exit $(cat "$tmp/selftest.rc")"
no_leftovers selftest

# 2. Vulkan on Mesa lavapipe
run vulkan --backend vulkan
check "vulkan: init and vector_add ok on lavapipe, marked software" "$tmp/vulkan.json" \
	'([.results[] | select(.op == "init")][0].status == "ok") and
	 ([.results[] | select(.op == "kernel_vector_add")] | length > 0 and
	  all(.[]; .status == "ok")) and
	 any(.devices[]; (.name | test("llvmpipe")) and .software == true)'
check "vulkan: copies ok" "$tmp/vulkan.json" \
	'[.results[] | select(.op == "copy_h2d" or .op == "copy_d2h")] |
	 length >= 2 and all(.[]; .status == "ok")'
check "vulkan: context_cycle bounded by time, ok" "$tmp/vulkan.json" \
	'[.results[] | select(.op == "context_cycle")] | length > 0 and
	 all(.[]; .status == "ok" and .seconds < 4 and
	     (.detail | test("^[0-9]+ devices created and destroyed from 4 threads")))'

# 3. OpenCL on PoCL
run opencl --backend opencl
check "opencl: init and vector_add ok on PoCL, marked software" "$tmp/opencl.json" \
	'([.results[] | select(.op == "init")][0].status == "ok") and
	 any(.results[]; .op == "kernel_vector_add" and .status == "ok") and
	 any(.devices[]; .software == true and .platform == "Portable Computing Language" and
	     (.library | test("Portable") | not))'

# 3b. --bench on the CPU implementations: every figure of both backends
run bench --backend vulkan,opencl --bench
check "bench: Vulkan and OpenCL figures incl. pageable and launch latency" "$tmp/bench.json" \
	'([.figures[] | select(.backend == "vulkan") | .name] | sort) ==
	 ["d2d_bandwidth","h2d_pageable","h2d_pinned","launch_latency"] and
	 ([.figures[] | select(.backend == "opencl") | .name] | sort) ==
	 ["d2d_bandwidth","d2h_pinned","h2d_pageable","h2d_pinned","launch_latency"] and
	 all(.figures[]; .value > 0) and
	 all(.results[] | select(.op == "bench"); .status == "ok")'

# 4. HIP: Debian's real libamdhip64.so.5, no AMD GPU -> the real answer
run hip --backend hip
check "hip: real runtime says no device: status no_device from hipErrorNoDevice" "$tmp/hip.json" \
	'.results[0].op == "init" and .results[0].status == "no_device" and
	 (.results[0].detail | test("hipErrorNoDevice \\(100\\)")) and
	 (.results[0].detail | test("libamdhip64"))'

# 4b. Level Zero: Debian's real loader (libze1) with no Intel GPU driver ->
# zeInit's ZE_RESULT_ERROR_UNINITIALIZED, no_device, the cause names the
# missing GPU driver (or, with no Intel GPU, says there is none)
if [ -e /dev/dri/renderD128 ] && grep -qs 0x8086 /sys/class/drm/renderD128/device/vendor; then
	echo "skip - levelzero: this machine has an Intel GPU; the no-driver path is not checked"
elif ldconfig -p | grep -q 'libze_loader.so.1 '; then
	run ze --backend levelzero
	check "levelzero: the real loader without a GPU driver says no_device" "$tmp/ze.json" \
		'.results[0].op == "init" and .results[0].status == "no_device" and
		 .results[0].backend == "levelzero" and
		 (.results[0].detail | test("ZE_RESULT_ERROR_UNINITIALIZED \\(0x78000001\\)")) and
		 (.results[0].detail | test("libze_intel_gpu"))'
	check "levelzero: diagnostics re-run with the loader's trace; ld.so did not find the GPU driver" "$tmp/ze.json" \
		'.results[0].diagnostics.ran == true and
		 (.results[0].diagnostics.not_found | index("libze_intel_gpu.so.1") != null) and
		 (.results[0].cause.code | IN("cause.no_gpu", "cause.not_installed"))'
	mkdir -p "$tmp/empty"
	GPUDOCTOR_LIB_PATH="$tmp/empty" run ze_missing --backend levelzero
	check "levelzero: no loader -> missing, where it looked" "$tmp/ze_missing.json" \
		'.results[0].status == "missing" and
		 (.results[0].detail | test("Level Zero loader not found"))'
else
	bad "levelzero: libze_loader.so.1 not installed (tools/install-deps.sh test installs libze1)"
fi

# 5. CUDA: skipped visibly without an NVIDIA GPU
if [ -e /dev/nvidia0 ]; then
	run cuda --backend cuda --quick
	check "cuda: init ok on the NVIDIA GPU" "$tmp/cuda.json" \
		'.results[0].op == "init" and .results[0].status == "ok"'
else
	run cuda --backend cuda
	check "cuda: skipped: no NVIDIA GPU" "$tmp/cuda.json" \
		'.results[0].op == "init" and .results[0].status == "skipped" and
		 (.results[0].detail | test("no NVIDIA GPU"))'
	echo "note - cuda: skipped: no NVIDIA GPU (GPU runs: bench/probe-cuda.sh)"
fi

# 6. missing library: search only an empty directory
mkdir -p "$tmp/empty"
GPUDOCTOR_LIB_PATH="$tmp/empty" run missing --backend vulkan,opencl,hip
check "missing: each backend names what it searched" "$tmp/missing.json" \
	'[.results[] | select(.op == "init")] | length == 3 and
	 all(.[]; .status == "missing" and (.detail | test("GPUDOCTOR_LIB_PATH")))'

# 7. stand-ins for faults no real runtime produces on demand
mkdir -p "$tmp/fakecuda"
cc -shared -fPIC -o "$tmp/fakecuda/libcuda.so.1" "$SRC/tests/fake/fake_hang_libcuda.c"
GPUDOCTOR_LIB_PATH="$tmp/fakecuda" run fakehang --backend cuda --timeout 1
check "fake_hang_libcuda: hang in cuInit" "$tmp/fakehang.json" \
	'.results[0].op == "init" and .results[0].status == "hang" and
	 .results[0].phase == "cuInit" and .results[0].seconds < 1.5'
lt "$(cat "$tmp/fakehang.time")" 2.5 && ok "fake_hang_libcuda: reported within deadline + 0.5 s (+ start-up)" ||
	bad "fake_hang_libcuda took $(cat "$tmp/fakehang.time") s"
no_leftovers fake_hang_libcuda

mkdir -p "$tmp/fakehip"
cc -shared -fPIC -o "$tmp/fakehip/libamdhip64.so.5" "$SRC/tests/fake/fake_crash_libamdhip64.c"
GPUDOCTOR_LIB_PATH="$tmp/fakehip" run fakecrash --backend hip
check "fake_crash_libamdhip64: crash in hipInit, SIGSEGV, message kept" "$tmp/fakecrash.json" \
	'.results[0].op == "init" and .results[0].status == "crash" and
	 .results[0].phase == "hipInit" and (.results[0].detail | test("SIGSEGV")) and
	 (.results[0].log | test("writes through NULL"))'

mkdir -p "$tmp/fakehiphang"
cc -shared -fPIC -o "$tmp/fakehiphang/libamdhip64.so.5" "$SRC/tests/fake/fake_hang_libamdhip64.c"
GPUDOCTOR_LIB_PATH="$tmp/fakehiphang" run fakehiphang --backend hip --timeout 1 --miopen-find-mode 2
check "fake_hang_libamdhip64: hang in hipModuleLoadData, restarted past it" "$tmp/fakehiphang.json" \
	'(.results[] | select(.op == "kernel_vector_add") | .status == "hang" and
	  .phase == "hipModuleLoadData") and
	 ([.results[].op] | index("gemm_fp32") > index("kernel_vector_add"))'
check "fake_hang_libamdhip64: the MIOpen allocations of the report run" "$tmp/fakehiphang.json" \
	'[.results[] | select(.op == "alloc_noncoherent" or .op == "alloc_ext_flags") |
	  .status] == ["ok","ok"]'
check "fake_hang_libamdhip64: hipBLAS, rocBLAS, MIOpen missing, with the search" "$tmp/fakehiphang.json" \
	'[.results[] | select(.op | test("^gemm_|^conv_fwd$"))] as $m |
	 ($m | length) == 6 and all($m[]; .status == "missing" and
	   (.detail | test("GPUDOCTOR_LIB_PATH"))) and
	 ($m[] | select(.op == "gemm_fp16_ex_v1") | .detail | test("libhipblas.so.2, libhipblas.so.1")) and
	 ($m[] | select(.op == "gemm_fp32_rocblas") | .detail | test("librocblas.so.4")) and
	 ($m[] | select(.op == "conv_fwd") | .detail | test("libMIOpen.so.1.*MIOPEN_FIND_MODE=2"))'
check "fake_hang_libamdhip64: context_cycle outlasts the 1 s deadline, progressing: ok" "$tmp/fakehiphang.json" \
	'.results[] | select(.op == "context_cycle") | .status == "ok" and
	 .seconds > 1.5 and (.detail | test("hipDeviceReset"))'
lt "$(cat "$tmp/fakehiphang.time")" 8 && ok "fake_hang_libamdhip64: under 8 s" ||
	bad "fake_hang_libamdhip64 took $(cat "$tmp/fakehiphang.time") s"
no_leftovers fake_hang_libamdhip64

# 8. text output: ASCII without a UTF-8 locale, no progress when piped
LC_ALL=C "$G" probe --backend vulkan >"$tmp/text.out" 2>"$tmp/text.err"
if grep -q "kernel_vector_add *ok" "$tmp/text.out" && ! grep -q "✔" "$tmp/text.out" &&
   ! grep -q "probing" "$tmp/text.err"; then
	ok "text: ASCII matrix, no live progress when not a terminal"
else
	bad "text output"; cat "$tmp/text.out" "$tmp/text.err"
fi

# 9. bad usage
"$G" probe --backend nosuch >/dev/null 2>&1
[ $? = 3 ] && ok "unknown backend: exit 3" || bad "unknown backend exit"

# 9b. --only: the named ops and what they need (the op table), nothing else
run only --backend opencl --only copy_d2h
check "only: copy_d2h brings init, alloc_device, copy_h2d" "$tmp/only.json" \
	'[.results[].op] == ["init","alloc_device","copy_h2d","copy_d2h"] and
	 all(.results[]; .status == "ok") and
	 ([.ops[].op] == [.results[].op])'
"$G" probe --only nosuch >/dev/null 2>"$tmp/only.err"
if [ $? = 3 ] && grep -q "unknown op 'nosuch' (init, alloc_device" "$tmp/only.err"; then
	ok "only: unknown op: exit 3, the ops listed"
else
	bad "only: unknown op"; cat "$tmp/only.err"
fi

# 10. the quick set, timed (every backend of the table) (the 3 s target is for a working GPU machine)
run quick --quick
check "quick: every backend reported" "$tmp/quick.json" \
	'[.results[].backend] | unique | length == 5'
echo "note - quick set: $(cat "$tmp/quick.time") s wall"

[ $fails = 0 ] && echo "test_probe: all passed" && exit 0
echo "test_probe: $fails failed"
exit 1
