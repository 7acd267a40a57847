#!/usr/bin/env bash
# Pageable host->device copies vary from run to run on a shared machine
# (the first H200 runs saw PyTorch at 7.75 and 7.26 GB/s). This runs
# gpudoctor's CUDA bench and the PyTorch reference ROUNDS times each,
# alternating, and compares the medians of the per-run figures.
#   bench/pageable.sh GPUDOCTOR [ROUNDS]     (PYTHON= for another python)
set -u
G=${1:?gpudoctor binary}
R=${2:-5}
PY=${PYTHON:-python3}
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for i in $(seq "$R"); do
	"$G" probe --backend cuda --bench --json >"$out/g$i.json" 2>/dev/null
	"$PY" "$root/bench/torch_ref.py" >"$out/t$i.json" 2>/dev/null
done
"$PY" - "$out" "$R" <<'PY'
import json, statistics, sys
d, r = sys.argv[1], int(sys.argv[2])
names = ["h2d_pageable", "h2d_pinned", "d2d_bandwidth", "gemm_fp32_rate"]
g = {n: [] for n in names}
t = {n: [] for n in names}
for i in range(1, r + 1):
    try:
        gj = json.load(open(f"{d}/g{i}.json"))
        for f in gj.get("figures", []):
            if f.get("backend") == "cuda" and f.get("name") in g:
                g[f["name"]].append(f["value"])
        tj = json.load(open(f"{d}/t{i}.json"))
        for n in names:
            if n in tj:
                t[n].append(tj[n])
    except Exception as e:
        print("run", i, "unreadable:", e)
print(f"{'figure':<16}{'gpudoctor runs':>40}  {'pytorch runs':>40}  ratio of medians")
for n in names:
    if g[n] and t[n]:
        mg, mt = statistics.median(g[n]), statistics.median(t[n])
        print(f"{n:<16}{' '.join('%.2f' % x for x in g[n]):>40}  {' '.join('%.2f' % x for x in t[n]):>40}  {mg/mt:.3f}")
PY
