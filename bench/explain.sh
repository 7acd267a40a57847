#!/usr/bin/env bash
# gpudoctor explain vs GNU `grep -E -f` with the kb's own signature regexes
# on the same 16 MiB log: a llama.cpp/ollama run log (the lines of the
# corpus that match no signature) repeated to 16 MiB, with real failures
# from the corpus at its start and end. Prints medians and the ratio
# (goal: explain <= 2 x grep).
#   bench/explain.sh [GPUDOCTOR] [RUNS]   (default: build/gpudoctor, 7 runs)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
GD=${1:-$here/build/gpudoctor}
RUNS=${2:-7}
logs=$here/tests/fixtures/logs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/root" # an empty machine: time the matching, not discovery

python3 - "$here/src/kb/gpudoctor-kb.json" "$logs" "$tmp" <<'PY'
import json, os, re, sys, warnings
# POSIX classes ("[[:space:]]") read to Python as a possibly nested set: a
# FutureWarning only, the filler check below is unaffected.
warnings.simplefilter("ignore", FutureWarning)
kb, logs, tmp = sys.argv[1:4]
sigs = json.load(open(kb))["signatures"]
with open(os.path.join(tmp, "patterns"), "w") as f:
    for s in sigs:
        f.write(s["regex"] + "\n")
rx = [re.compile(s["regex"]) for s in sigs]
filler = []
for name in ("illegal-address-ollama-10265.txt", "invalid-devfn-igpu-llamacpp-22013.txt",
             "ring-timeout-blender-rocmarch-829.txt", "tensile-gfx1201-migraphx-3517.txt"):
    for line in open(os.path.join(logs, name), encoding="utf-8"):
        if not any(r.search(line) for r in rx):
            filler.append(line)
block = "".join(filler).encode()
head = open(os.path.join(logs, "rocblas-no-tensile.txt"), "rb").read()
tail = open(os.path.join(logs, "ring-timeout-mes-bazzite-4464.txt"), "rb").read()
size = 16 * 1024 * 1024 - len(head) - len(tail)
with open(os.path.join(tmp, "log"), "wb") as f:
    f.write(head)
    f.write((block * (size // len(block) + 1))[:size].rsplit(b"\n", 1)[0] + b"\n")
    f.write(tail)
PY

python3 - "$GD" "$tmp" "$RUNS" <<'PY'
import os, statistics, subprocess, sys, time
gd, tmp, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
log = os.path.join(tmp, "log")
out = open(os.path.join(tmp, "out"), "wb")  # a file: grep stops early on /dev/null
cmds = {
    "grep -E -f": ["grep", "-E", "-f", os.path.join(tmp, "patterns"), log],
    "gpudoctor explain": [gd, "--root", os.path.join(tmp, "root"), "explain", log],
}
t = {k: [] for k in cmds}
for _ in range(runs):
    for k, c in cmds.items():
        s = time.perf_counter()
        subprocess.run(c, stdout=out, stderr=subprocess.DEVNULL)
        t[k].append(time.perf_counter() - s)
print(f"log: {os.path.getsize(log)} bytes, {sum(1 for _ in open(log, 'rb'))} lines; "
      f"{sum(1 for _ in open(os.path.join(tmp, 'patterns')))} patterns; {runs} runs")
print(f"{'command':<20} {'median ms':>10} {'min ms':>8} {'max ms':>8}")
for k in cmds:
    v = t[k]
    print(f"{k:<20} {statistics.median(v)*1e3:>10.1f} {min(v)*1e3:>8.1f} {max(v)*1e3:>8.1f}")
r = statistics.median(t["gpudoctor explain"]) / statistics.median(t["grep -E -f"])
print(f"explain / grep = {r:.2f} (goal <= 2.00): {'PASS' if r <= 2 else 'FAIL'}")
PY
