#!/usr/bin/env bash
# Per-call cost of libgpudoctor-trace.so on a machine without a GPU.
# The loop (bench/trace_loop.c) calls hipStreamSynchronize N times,
# min of 5 reps, plain, under `run --trace` and under `run --trace=log`:
#  - null: against bench/null_hip.c, a library whose call returns at
#    once: the difference is the shim's own cost (hook, slot, clock;
#    log: the line and its share of the write);
#  - hip5.2: against Debian's libamdhip64 (HIP 5.2) with no device: the
#    call is real but retries the runtime's failing init each time
#    (~40 us, noisy), so it shows the hook forwards, not its cost.
# Usage: bench/trace-local.sh [path/to/gpudoctor] [calls]
set -u
gd=$(readlink -f "${1:-build/gpudoctor}")
n=${2:-5000000}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TMPDIR=$tmp

bench() { # name calls program...
	local name=$1 calls=$2 plain hang logm
	shift 2
	plain=$("$@" "$calls") || { echo "$name: $plain"; return 1; }
	hang=$("$gd" run -q --trace -- "$@" "$calls")
	logm=$("$gd" run -q --trace=log -- "$@" "$calls")
	printf '%-7s plain %9s ns/call  --trace %9s (%+.1f)  --trace=log %9s (%+.1f)\n' \
		"$name" "$plain" "$hang" "$(echo "$hang - $plain" | bc)" \
		"$logm" "$(echo "$logm - $plain" | bc)"
}

mkdir -p "$tmp/null"
cc -O2 -shared -fPIC -o "$tmp/null/libamdhip64.so" "$here/null_hip.c" &&
	cc -O2 -DGD_NO_INIT -o "$tmp/loop_null" "$here/trace_loop.c" \
		-L"$tmp/null" -Wl,-rpath,"$tmp/null" -lamdhip64 &&
	bench null "$n" "$tmp/loop_null"
if [ -e /usr/lib/x86_64-linux-gnu/libamdhip64.so.5 ]; then
	cc -O2 -DGD_NO_INIT -o "$tmp/loop_hip" "$here/trace_loop.c" \
		/usr/lib/x86_64-linux-gnu/libamdhip64.so.5 &&
		bench hip5.2 $((n / 500 > 1000 ? n / 500 : 1000)) "$tmp/loop_hip"
else
	echo "hip5.2  skipped: no libamdhip64.so.5"
fi
