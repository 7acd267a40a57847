#!/usr/bin/env bash
# End to end: `gpudoctor check --json` renders the inventory of the fixture
# roots in tests/fixtures/inventory/ (see its README.md) as documented in
# docs/json-runtimes.md, and the text block names the same facts.
set -u
: "${GPUDOCTOR:?built binary}" "${GD_SRCDIR:?source dir}"
command -v jq >/dev/null || { echo "skipped: jq not installed"; exit 77; }
F=$GD_SRCDIR/tests/fixtures/inventory
fail=0
check() { # description, fixture, jq filter that must print true, [env...]
	local what=$1 fx=$2 filter=$3 out
	shift 3
	out=$(env -i PATH="$PATH" "$@" "$GPUDOCTOR" --root "$F/$fx/root" --json check 2>/dev/null |
	      jq -e "$filter" 2>&1)
	if [ "$out" != true ]; then
		echo "FAIL: $what ($fx): $filter -> $out"
		fail=1
	else
		echo "ok: $what"
	fi
}
rt='.runtimes[]'
check "Debian rocBLAS gfx1010 is fallback-only" debian-trixie-rocblas \
	"[$rt | select(.kind==\"rocblas\") | .targets[] | select(.target==\"gfx1010\") | .kind] == [\"fallback-only\"]"
check "Debian rocBLAS has both gfx90a xnack variants" debian-trixie-rocblas \
	"[$rt | select(.kind==\"rocblas\") | .targets[] | select(.gfx==\"gfx90a\") | .xnack] == [\"+\",\"-\"]"
check "ROCm 6.2.4 listed once with every way it was found" amd-rocm-6.2.4 \
	"[$rt | select(.kind==\"rocm\" and .resolved==\"/opt/rocm-6.2.4\") | .found_by] == [[\"ROCM_PATH\",\"/opt/rocm\",\"/opt/rocm-*\"]]" \
	ROCM_PATH=/opt/rocm
check "HIP_PATH at HIP 6 while the loader picks HIP 5" amd-rocm-6.2.4 \
	"[$rt | select(.kind==\"rocm\") | .hip_path_mismatch] == [true,false]" HIP_PATH=/opt/rocm-6.2.4
check "lazy rocBLAS nested in its install" amd-rocm-6.2.4 \
	"[$rt | select(.kind==\"rocm\") | .rocblas[].targets[] | select(.gfx==\"gfx1010\") | .kind] == [\"tensile-lazy\"]"
check "lavapipe is a CPU device" icds \
	"[$rt | select(.kind==\"vulkan\" and .driver==\"lvp\") | .device_type] == [\"cpu\"]"
check "broken manifest carries its error" icds \
	"[$rt | select(.kind==\"vulkan\") | select(.path|endswith(\"truncated_icd.json\")) | .error | startswith(\"not valid JSON\")] == [true]"
check "PoCL is a CPU device" icds \
	"[$rt | select(.kind==\"opencl\" and .driver==\"pocl\") | .device_type] == [\"cpu\"]"
check "CUDA driver from /proc" cuda-11.5 \
	"[$rt | select(.kind==\"cuda-driver\") | .version] == [\"515.76\"]"
check "CUDA toolkit version from version.json" cuda-11.5 \
	"[$rt | select(.kind==\"cuda-toolkit\") | .version_source | endswith(\"version.json\")] == [true]"
text=$(env -i PATH="$PATH" "$GPUDOCTOR" --root "$F/debian-trixie-rocblas/root" --color=never check 2>/dev/null)
if grep -q "fallback only (GEMM on slow generic kernels): gfx1010" <<<"$text"; then
	echo "ok: text names the fallback-only target"
else
	echo "FAIL: text block lacks the fallback-only line"; echo "$text"; fail=1
fi
exit $fail
