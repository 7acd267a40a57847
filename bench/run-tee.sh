#!/usr/bin/env bash
# What `gpudoctor run` costs a program that writes a lot: CMD's output
# passes through run (read, written on, its tail kept for explain) unless
# --no-explain. N times each, interleaved: cat of a 500 MB text file
# (60-byte lines) to /dev/null directly, through run, through
# run --no-explain; the median wall time of each.
#   bench/run-tee.sh [GPUDOCTOR] [N]
set -u
GD=${1:-build/gpudoctor}
N=${2:-5}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
yes "a typical log line of some sixty characters, repeated many times" | head -c 500M >"$T/big.txt"
t() { local s e; s=$(date +%s.%N); "$@" >/dev/null; e=$(date +%s.%N); echo "$e - $s" | bc; }
for _ in $(seq "$N"); do
	echo "direct $(t cat "$T/big.txt")"
	echo "run $(t "$GD" run -q -- cat "$T/big.txt")"
	echo "no-explain $(t "$GD" run -q --no-explain -- cat "$T/big.txt")"
done >"$T/times"
for w in direct run no-explain; do
	printf '%-11s median %.2f s over %d runs\n' "$w" \
		"$(awk -v w="$w" '$1 == w {print $2}' "$T/times" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')" "$N"
done
