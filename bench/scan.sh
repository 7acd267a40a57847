#!/usr/bin/env bash
# gpudoctor scan vs cuobjdump on PyTorch's libtorch_cuda.so (run on the
# NVIDIA machine). Runs `cuobjdump --list-elf`, `cuobjdump --list-ptx` and
# `gpudoctor scan --json` side by side RUNS times, prints medians, the
# ratio, peak RSS of each (wait4 rusage), and compares the target sets:
# exits non-zero when they differ.
#   bench/scan.sh [GPUDOCTOR] [RUNS]     (default: build with make, 5 runs)
#   LIBTORCH_CUDA=/path/libtorch_cuda.so CUOBJDUMP=/path/cuobjdump PYTHON=python3
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
GD=${1:-}
RUNS=${2:-5}
PY=${PYTHON:-python3}
if [ -z "$GD" ]; then
	make -C "$here" >/dev/null
	GD=$here/build/gpudoctor
fi
CUOBJDUMP=${CUOBJDUMP:-$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)}
[ -x "$CUOBJDUMP" ] || { echo "cuobjdump not found (set CUOBJDUMP)"; exit 2; }
LIB=${LIBTORCH_CUDA:-$($PY - <<'EOF'
import importlib.util, os
s = importlib.util.find_spec("torch")  # finds it without importing torch
print(os.path.join(os.path.dirname(s.origin), "lib", "libtorch_cuda.so") if s else "")
EOF
)}
[ -f "$LIB" ] || { echo "libtorch_cuda.so not found (set LIBTORCH_CUDA)"; exit 2; }

exec "$PY" - "$GD" "$CUOBJDUMP" "$LIB" "$RUNS" <<'EOF'
import collections, json, os, re, statistics, subprocess, sys, time
gd, cuobj, lib, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])

GNU_TIME = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None

def run(cmd):
    # Peak RSS: GNU time's %M when present; wait4's ru_maxrss otherwise,
    # which Linux floors at the launching python's RSS (printed as baseline).
    if GNU_TIME:
        cmd = [GNU_TIME, "-f", "GDRSS %M"] + cmd
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = p.stdout.read()
    err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t0
    rc = os.waitstatus_to_exitcode(status)
    err = err.decode(errors="replace")
    mx = ru.ru_maxrss / 1024.0
    m = re.search(r"GDRSS (\d+)", err)
    if m:
        mx = int(m.group(1)) / 1024.0
    return dt, mx, out.decode(errors="replace"), err, rc

cmds = {
    "cuobjdump --list-elf": [cuobj, "--list-elf", lib],
    "cuobjdump --list-ptx": [cuobj, "--list-ptx", lib],
    "gpudoctor scan --json": [gd, "scan", "--json", lib],
}
times = collections.defaultdict(list)
rss = collections.defaultdict(float)
outs = {}
for i in range(runs):
    for name, cmd in cmds.items():  # interleaved so caches treat all alike
        dt, mx, out, err, rc = run(cmd)
        if name.startswith("cuobjdump") and rc != 0:
            sys.exit(f"{name} failed ({rc}): {err.strip()[:300]}")
        times[name].append(dt)
        rss[name] = max(rss[name], mx)
        outs[name] = out

def cuobj_set(text, ext):
    c = collections.Counter()
    for m in re.finditer(r"\.(sm_\d+[af]?)\." + ext + r"\b", text):
        c[m.group(1)] += 1
    return c

elf = cuobj_set(outs["cuobjdump --list-elf"], "cubin")
ptx = cuobj_set(outs["cuobjdump --list-ptx"], "ptx")
doc = json.loads(outs["gpudoctor scan --json"])
f = doc["files"][0]
g_elf, g_ptx = collections.Counter(), collections.Counter()
for t in f["targets"]:
    if t["kind"] == "sass":
        g_elf[t["target"]] += t["count"]
    elif t["kind"] == "ptx":
        g_ptx["sm_" + t["target"].split("_", 1)[1]] += t["count"]

med = {k: statistics.median(v) for k, v in times.items()}
base = run(["/bin/true"])[1]
size = os.path.getsize(lib) / 2**20
print(f"## gpudoctor scan vs cuobjdump: {os.path.basename(lib)} ({size:.0f} MiB)\n")
print(f"file: `{lib}`, runs: {runs} (medians, wall), peak RSS over the runs "
      f"({'GNU time %M' if GNU_TIME else 'wait4, floor = /bin/true: %.1f MiB' % base})\n")
print("| command | median s | min s | peak RSS MiB |")
print("| --- | ---: | ---: | ---: |")
for k in cmds:
    print(f"| `{k}` | {med[k]:.3f} | {min(times[k]):.3f} | {rss[k]:.1f} |")
ratio = med["cuobjdump --list-elf"] / med["gpudoctor scan --json"]
print(f"\nscan is {ratio:.1f}x faster than `cuobjdump --list-elf` "
      f"(goal: >= 20x, i.e. scan <= {med['cuobjdump --list-elf'] / 20:.3f} s)\n")
print(f"cubins: cuobjdump {sum(elf.values())}, scan {sum(g_elf.values())}; "
      f"PTX: cuobjdump {sum(ptx.values())}, scan {sum(g_ptx.values())}\n")
print("| target | cuobjdump ELF | scan SASS | cuobjdump PTX | scan PTX |")
print("| --- | ---: | ---: | ---: | ---: |")
for k in sorted(set(elf) | set(g_elf) | set(ptx) | set(g_ptx),
                key=lambda s: (int(re.sub(r"\D", "", s)), s)):
    print(f"| {k} | {elf[k]} | {g_elf[k]} | {ptx[k]} | {g_ptx[k]} |")
same_sets = set(elf) == set(g_elf) and set(ptx) == set(g_ptx)
same_counts = elf == g_elf and ptx == g_ptx
print(f"\ntarget sets equal: {'yes' if same_sets else 'NO'}; "
      f"counts equal: {'yes' if same_counts else 'no'}")
if f.get("error"):
    print(f"scan error: {f['error']}")
sys.exit(0 if same_sets and not f.get("error") else 1)
EOF
