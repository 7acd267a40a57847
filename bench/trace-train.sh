#!/usr/bin/env bash
# #12's "<= 2 % on a PyTorch training step": bench/trace_train.py's median
# step time, plain and under `gpudoctor run --trace=MODE` (hang: CUPTI
# runtime callbacks, the default; hooks: exported-symbol hooks only; log),
# alternating plain and traced runs 3 times, all in one run; prints each
# mode's median step and its ratio to plain.
# Usage: PYTHON=venv/bin/python bench/trace-train.sh [path/to/gpudoctor]
set -u
gd=$(readlink -f "${1:-build/gpudoctor}")
py=${PYTHON:-python3}
here=$(cd "$(dirname "$0")" && pwd)
if ! "$py" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
	echo "skipped: no NVIDIA GPU (or no PyTorch with CUDA at $py)"
	exit 0
fi
declare -A all
for rep in 1 2 3; do
	all[plain]+=" $("$py" "$here/trace_train.py")"
	for m in hang hooks log; do
		all[$m]+=" $("$gd" run -q --trace=$m -- "$py" "$here/trace_train.py")"
	done
done
med() { printf '%s\n' $1 | sort -n | sed -n 2p; }
p=$(med "${all[plain]}")
printf 'plain        %8.1f us/step  (runs:%s)\n' "$p" "${all[plain]}"
for m in hang hooks log; do
	t=$(med "${all[$m]}")
	printf -- '--trace=%-5s %8.1f us/step  ratio %.4f  (runs:%s)\n' "$m" "$t" \
		"$(awk "BEGIN{print $t / $p}")" "${all[$m]}"
done
