#!/usr/bin/env bash
# Per-call cost of libgpudoctor-trace.so on a machine without a GPU.
# The loop (bench/trace_loop.c) calls hipStreamSynchronize N times,
# min of 5 reps, plain, under `run --trace` and under `run --trace=log`:
#  - null: against bench/null_hip.c, a library whose call returns at
#    once: the difference is the shim's own cost (hook, slot, clock;
#    log: the line and its share of the write);
#  - cuda13: against the CUDA 13 runtime's cudaStreamSynchronize when
#    libcudart.so.13 is on the loader path (without a driver it returns
#    cudaErrorInsufficientDriver after a few hundred ns: a real runtime
#    call that is cheap enough to show the hook's cost);
#  - hip5.2: against Debian's libamdhip64 (HIP 5.2) with no device: the
#    call is real but retries the runtime's failing init each time
#    (~40 us, noisy), so it shows the hook forwards, not its cost.
# Usage: [RUNS=5] bench/trace-local.sh [path/to/gpudoctor] [calls]
set -u
gd=$(readlink -f "${1:-build/gpudoctor}")
n=${2:-1000000}
runs=${RUNS:-5} # processes per figure, least kept (a loaded machine)
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TMPDIR=$tmp

min_of() { # runs command...: the least ns/call of several processes
	local best="" t
	for _ in $(seq "$runs"); do
		t=$("$@") || return 1
		if [ -z "$best" ]; then best=$t; else
			best=$(awk "BEGIN{print ($t < $best) ? $t : $best}")
		fi
	done
	echo "$best"
}

bench() { # name calls program...
	local name=$1 calls=$2 plain hang logm
	shift 2
	plain=$(min_of "$@" "$calls") || { echo "$name: failed"; return 1; }
	hang=$(min_of "$gd" run -q --trace -- "$@" "$calls")
	logm=$(min_of "$gd" run -q --trace=log -- "$@" "$calls")
	printf '%-7s plain %9s ns/call  --trace %9s (%+.1f)  --trace=log %9s (%+.1f)\n' \
		"$name" "$plain" "$hang" "$(awk "BEGIN{print $hang - $plain}")" \
		"$logm" "$(awk "BEGIN{print $logm - $plain}")"
}

mkdir -p "$tmp/null"
cc -O2 -shared -fPIC -o "$tmp/null/libamdhip64.so" "$here/null_hip.c" &&
	cc -O2 -DGD_NO_INIT -o "$tmp/loop_null" "$here/trace_loop.c" \
		-L"$tmp/null" -Wl,-rpath,"$tmp/null" -lamdhip64 &&
	bench null "$n" "$tmp/loop_null"
# the CUPTI callback alone: a stand-in libcupti hands the loop the
# callback (bench/cupti_loop.c); --trace=log is the log mode's callback
cc -O2 -shared -fPIC -DGD_CUPTI_LIB -o "$tmp/libcupti_loop.so" \
	"$here/cupti_loop.c" &&
	cc -O2 -o "$tmp/loop_cupti" "$here/cupti_loop.c" -ldl &&
	GPUDOCTOR_CUPTI_LIB=$tmp/libcupti_loop.so bench cupti-cb "$n" \
		"$tmp/loop_cupti"
cudart=$(ldconfig -p | sed -n 's/.*libcudart\.so\.13 .*=> //p' | head -n1)
if [ -n "$cudart" ]; then
	cc -O2 -DGD_CUDA -DGD_NO_INIT -o "$tmp/loop_cuda" "$here/trace_loop.c" \
		"$cudart" && bench cuda13 $((n / 10)) "$tmp/loop_cuda"
else
	echo "cuda13  skipped: no libcudart.so.13 on the loader path"
fi
if [ -e /usr/lib/x86_64-linux-gnu/libamdhip64.so.5 ]; then
	cc -O2 -DGD_NO_INIT -o "$tmp/loop_hip" "$here/trace_loop.c" \
		/usr/lib/x86_64-linux-gnu/libamdhip64.so.5 &&
		bench hip5.2 $((n / 500 > 1000 ? n / 500 : 1000)) "$tmp/loop_hip"
else
	echo "hip5.2  skipped: no libamdhip64.so.5"
fi
