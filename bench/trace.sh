#!/usr/bin/env bash
# Per-call overhead of libgpudoctor-trace.so on a GPU machine: a loop of
# idle {hip,cuda}StreamSynchronize calls (bench/trace_loop.c), min of 5
# reps per process, plain and under `gpudoctor run --trace=MODE` taking
# turns ROUNDS times (default 7) on one CPU (PIN_CPU, default 1), the
# median process of each; ns per call and the difference to plain, all
# in one run.
#  CUDA (loop linked with the shared libcudart):
#    cupti-null  the anchor: CUPTI with an empty runtime-domain callback
#            (bench/cupti_null.c), no gpudoctor at all
#    hooks   exported-symbol hooks on libcudart (no CUPTI)
#    hang    the default: CUPTI runtime-API callbacks (CUDA_INJECTION64_PATH)
#    deep    CUPTI runtime + driver API
#    log     CUPTI runtime + the call log
#    hooks,log  exported hooks + the call log
#  HIP: hang (exported hooks), log.
# First a short --trace=log run prints the route the library took (the
# "note ... cuda route" line: CUPTI and which libcupti, or why not).
# Without a GPU: "skipped: no GPU" (bench/trace-local.sh measures the
# shim's own cost on any machine).
# Usage: [PYTHON=venv/bin/python] bench/trace.sh [path/to/gpudoctor] [calls]
set -u
gd=$(readlink -f "${1:-build/gpudoctor}")
n=${2:-1000000}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TMPDIR=$tmp

route() { # program: the library's notes from a short logged run
	"$gd" run -q --trace=log -- "$1" 1000 >/dev/null 2>"$tmp/route.err"
	log=$(sed -n 's/^gpudoctor: trace log: //p' "$tmp/route.err")
	grep -h '^note ' "$log" 2>/dev/null | sed 's/^/  /'
	grep -v '^gpudoctor: trace log' "$tmp/route.err" | sed 's/^/  /'
}

rounds=${ROUNDS:-7}
# one CPU for every process: the loop's figure also depends on where the
# scheduler puts it (a fast and a slow mode 400 ns apart on the H100)
pin=""
command -v taskset >/dev/null && pin="taskset -c ${PIN_CPU:-1}"
run_mode() { # program mode: ns/call of one process
	case $2 in
	plain) $pin "$1" "$n" ;;
	cupti-null) CUDA_INJECTION64_PATH=$tmp/libcupti_null.so $pin "$1" "$n" ;;
	*) $pin "$gd" run -q --trace="$2" -- "$1" "$n" 2>/dev/null ;;
	esac
}

median() { tr ' ' '\n' | grep . | sort -g | awk '{v[NR]=$1} END{print v[int((NR+1)/2)]}'; }

# Plain and every mode take turns, ROUNDS times; each row is the median
# of its processes (and their least, for the machine's fast mode): the
# drift between processes then weighs on all rows alike.
bench() { # name program mode...
	local name=$1 prog=$2 m t r p
	declare -A all=()
	shift 2
	for r in $(seq "$rounds"); do
		for m in plain "$@"; do
			t=$(run_mode "$prog" "$m") || {
				echo "$name $m: $t"
				return 1
			}
			all[$m]+=" $t"
		done
	done
	p=$(echo "${all[plain]}" | median)
	printf '%-5s %-10s %9s ns/call  (least %s)\n' "$name" plain "$p" \
		"$(echo "${all[plain]}" | tr ' ' '\n' | grep . | sort -g | head -n1)"
	for m in "$@"; do
		t=$(echo "${all[$m]}" | median)
		# awk, not bc: the GPU machines have no bc
		printf '%-5s %-10s %9s ns/call  (%+.1f, ratio %.3f; least %s)\n' \
			"$name" "$m" "$t" "$(awk "BEGIN{print $t - $p}")" \
			"$(awk "BEGIN{print $t / $p}")" \
			"$(echo "${all[$m]}" | tr ' ' '\n' | grep . | sort -g | head -n1)"
	done
}

ran=0
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 &&
	command -v nvcc >/dev/null; then
	# plain C against the shared libcudart (the loop declares the two
	# calls itself; nvcc's own headers would clash with those)
	cudalib=$(dirname "$(command -v nvcc)")/../lib64
	if cc -O2 -DGD_CUDA -o "$tmp/loop_cuda" "$here/trace_loop.c" \
		-L"$cudalib" -Wl,-rpath,"$cudalib" -lcudart; then
		route "$tmp/loop_cuda"
		if cc -O2 -shared -fPIC -o "$tmp/libcupti_null.so" \
			"$here/cupti_null.c" -L"$cudalib" -Wl,-rpath,"$cudalib" \
			-lcupti; then
			bench cuda "$tmp/loop_cuda" cupti-null hooks hang deep \
				log hooks,log && ran=1
		else
			bench cuda "$tmp/loop_cuda" hooks hang deep log \
				hooks,log && ran=1
		fi
	fi
fi
# PyTorch (PYTHON=/path/to/venv/bin/python): the route shows which
# libcupti the library found (the wheel's, next to its libcudart)
if [ -n "${PYTHON:-}" ] && "$PYTHON" -c 'import sys, torch
sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
	printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$PYTHON" \
		"$here/trace_torch.py" >"$tmp/loop_torch"
	chmod +x "$tmp/loop_torch"
	route "$tmp/loop_torch"
	n=$((n / 10)) bench torch "$tmp/loop_torch" hooks hang log && ran=1
fi
if [ -e /dev/kfd ] && command -v hipcc >/dev/null &&
	ls /sys/class/kfd/kfd/topology/nodes/*/gpu_id >/dev/null 2>&1 &&
	grep -qv '^0$' /sys/class/kfd/kfd/topology/nodes/*/gpu_id; then
	hipcc -O2 -x c -o "$tmp/loop_hip" "$here/trace_loop.c" -lamdhip64 &&
		bench hip "$tmp/loop_hip" hang log && ran=1
fi
[ $ran = 1 ] || echo "skipped: no GPU"
