#!/usr/bin/env bash
# Per-call overhead of libgpudoctor-trace.so: a loop of idle
# {hip,cuda}StreamSynchronize calls (bench/trace_loop.c), min of 5 reps,
# run plain, under `run --trace` (in-flight slots) and `run --trace=log`
# (one log line per call). Needs a GPU; prints "skipped: no GPU" otherwise.
# Usage: bench/trace.sh [path/to/gpudoctor] [calls]
set -u
gd=$(readlink -f "${1:-build/gpudoctor}")
n=${2:-1000000}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TMPDIR=$tmp

bench() { # name program
	local plain hang logm
	plain=$("$2" "$n") || { echo "$1: $plain"; return; }
	hang=$("$gd" run -q --trace -- "$2" "$n")
	logm=$("$gd" run -q --trace=log -- "$2" "$n")
	printf '%-6s plain %8s ns/call  --trace %8s (+%s)  --trace=log %8s (+%s)\n' \
		"$1" "$plain" "$hang" "$(echo "$hang - $plain" | bc)" \
		"$logm" "$(echo "$logm - $plain" | bc)"
}

ran=0
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 &&
	command -v nvcc >/dev/null; then
	# plain C against the shared libcudart (the loop declares the two
	# calls itself; nvcc's own headers would clash with those)
	cudalib=$(dirname "$(command -v nvcc)")/../lib64
	cc -O2 -DGD_CUDA -o "$tmp/loop_cuda" "$here/trace_loop.c" \
		-L"$cudalib" -Wl,-rpath,"$cudalib" -lcudart &&
		bench cuda "$tmp/loop_cuda" && ran=1
fi
if [ -e /dev/kfd ] && command -v hipcc >/dev/null &&
	ls /sys/class/kfd/kfd/topology/nodes/*/gpu_id >/dev/null 2>&1 &&
	grep -qv '^0$' /sys/class/kfd/kfd/topology/nodes/*/gpu_id; then
	hipcc -O2 -x c -o "$tmp/loop_hip" "$here/trace_loop.c" -lamdhip64 &&
		bench hip "$tmp/loop_hip" && ran=1
fi
[ $ran = 1 ] || echo "skipped: no GPU"
