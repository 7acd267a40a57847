#!/usr/bin/env bash
# Run on an NVIDIA GPU machine: gpudoctor's CUDA probes and --bench, and a
# PyTorch reference measured the same way in the same run, side by side.
#   bench/probe-cuda.sh [PATH/TO/gpudoctor]      (builds build-bench/ if none)
#   PYTHON=/path/to/venv/bin/python bench/probe-cuda.sh
# Prints: the full probe matrix, the quick-set wall time, and a table
# gpudoctor | PyTorch | ratio per figure (goal: within 5%; launch_latency
# is shown but not compared, see docs/probe.md). Then the probe's own time
# on all backends (--bench), for the "each backend's bench under 2 s" goal.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
G=${1:-}
PY=${PYTHON:-python3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

if [ -z "$G" ]; then
	cmake -S "$root" -B "$root/build-bench" -DCMAKE_BUILD_TYPE=Release >/dev/null &&
		cmake --build "$root/build-bench" -j"$(nproc)" >/dev/null || exit 1
	G=$root/build-bench/gpudoctor
fi

# pip-installed PyTorch ships cuBLAS/cuDNN/NVRTC under site-packages/nvidia/*/lib:
# let gpudoctor find the same libraries PyTorch uses.
nvlibs=$("$PY" - <<'PY' 2>/dev/null
import glob, os
try:
    import nvidia
    roots = list(nvidia.__path__)
except Exception:
    roots = []
print(":".join(d for r in roots for d in sorted(glob.glob(os.path.join(r, "*", "lib")))))
PY
)
[ -n "$nvlibs" ] && export LD_LIBRARY_PATH="$nvlibs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

echo "== machine"
nvidia-smi -L 2>/dev/null || echo "(no nvidia-smi)"
"$PY" -c 'import torch; print("torch", torch.__version__, "CUDA", torch.version.cuda)' 2>/dev/null
echo
echo "== gpudoctor probe --backend cuda (full matrix)"
"$G" probe --backend cuda
echo
echo "== gpudoctor probe --quick (wall time, all backends)"
s=$(date +%s.%N); "$G" probe --quick >/dev/null; e=$(date +%s.%N)
python3 -c "print('quick set: %.2f s wall' % ($e - $s))"
echo
echo "== gpudoctor probe --backend cuda --bench"
s=$(date +%s.%N)
"$G" probe --backend cuda --bench --json >"$out/g.json"
e=$(date +%s.%N)
python3 -c "print('cuda probe with bench: %.2f s wall' % ($e - $s))"
echo "== gpudoctor probe --bench, all backends (op and bench times)"
"$G" probe --bench --json >"$out/all.json"
python3 - "$out/all.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d.get("results", []):
    if r["op"] in ("bench", "context_cycle") or r["status"] not in ("ok", "skipped"):
        print("  %-7s dev %2d %-16s %-8s %6.2f s  %s" % (r["backend"], r["device_index"],
              r["op"], r["status"], r["seconds"], r["detail"][:100]))
for f in d.get("figures", []):
    print("  %-7s dev %2d %-16s %10.2f %-8s" % (f["backend"], f["device_index"],
          f["name"], f["value"], f["unit"]))
PY
echo "== PyTorch reference (same sizes, same timing method)"
"$PY" "$root/bench/torch_ref.py" >"$out/t.json" || echo "PyTorch reference failed"
python3 - "$out/g.json" "$out/t.json" <<'PY'
import json, sys
g = json.load(open(sys.argv[1]))
try:
    t = json.load(open(sys.argv[2]))
except Exception:
    t = {}
print("device:", t.get("_device", "?"), "| torch", t.get("_torch", "?"), "CUDA", t.get("_cuda", "?"))
print("%-16s %12s %12s %8s  %s" % ("figure", "gpudoctor", "pytorch", "ratio", "unit"))
for f in g.get("figures", []):
    if f["backend"] != "cuda" or f["device_index"] != 0:
        continue
    ref = t.get(f["name"])
    ratio = f["value"] / ref if ref else float("nan")
    flag = "" if ref is None else ("ok" if abs(ratio - 1) <= 0.05 else "OFF >5%")
    if f["name"] == "launch_latency":
        flag = "n/c (see below)"
    print("%-16s %12.2f %12s %8.3f  %-8s %s" % (f["name"], f["value"],
          "%.2f" % ref if ref else "-", ratio, f["unit"], flag))
print()
print("launch_latency is not comparable (docs/probe.md): PyTorch cannot launch")
print("without its Python/ATen dispatch. For information, PyTorch measured:")
for k in ("launch_latency_eager", "launch_latency_graph"):
    if k in t:
        print("  %-22s %8.2f us" % (k, t[k]))
if "launch_latency_graph_error" in t:
    print("  launch_latency_graph: failed:", t["launch_latency_graph_error"])
print()
for f in g.get("figures", []):
    print("  %s: %s" % (f["name"], f["note"]))
bad = [r for r in g.get("results", []) if r["status"] not in ("ok", "skipped")]
for r in bad:
    print("probe %s %s: %s: %s" % (r["backend"], r["op"], r["status"], r["detail"]))
PY
