#!/usr/bin/env bash
# gpudoctor list against nvidia-smi -L (and rocminfo where present), run
# side by side, many times each, interleaved; prints the median wall time of
# each and the ratio. Usage: bench/list.sh [path/to/gpudoctor] [runs]
set -eu
gd=${1:-build/gpudoctor}
runs=${2:-200}
[ -x "$gd" ] || { echo "no gpudoctor binary at $gd (make first)" >&2; exit 1; }

tools=("$gd list")
command -v nvidia-smi >/dev/null && tools+=("nvidia-smi -L")
command -v rocminfo >/dev/null && tools+=("rocminfo")

python3 - "$runs" "${tools[@]}" <<'PY'
import statistics, subprocess, sys, time
runs = int(sys.argv[1]); tools = sys.argv[2:]
times = {t: [] for t in tools}
for t in tools:                       # warm the page cache and check it runs
    r = subprocess.run(t.split(), capture_output=True)
    print(f"$ {t}  (exit {r.returncode})")
    print("  " + r.stdout.decode(errors="replace").strip().replace("\n", "\n  "))
for _ in range(runs):                 # interleaved so drift hits all alike
    for t in tools:
        t0 = time.perf_counter()
        subprocess.run(t.split(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times[t].append(time.perf_counter() - t0)
base = statistics.median(times[tools[0]])
print(f"\n{'command':<28}{'median ms':>11}{'p10 ms':>9}{'p90 ms':>9}{'ratio':>9}")
for t in tools:
    xs = sorted(times[t]); m = statistics.median(xs)
    p10 = xs[len(xs) // 10]; p90 = xs[len(xs) * 9 // 10]
    print(f"{t[-28:]:<28}{m*1e3:>11.2f}{p10*1e3:>9.2f}{p90*1e3:>9.2f}{m/base:>9.2f}")
if "nvidia-smi -L" in times:
    r = base / statistics.median(times["nvidia-smi -L"])
    print(f"\ngpudoctor list / nvidia-smi -L = {r:.3f} (goal <= 0.20): {'PASS' if r <= 0.2 else 'FAIL'}")
PY
