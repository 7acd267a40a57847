#!/usr/bin/env bash
# The Python package (python/, issue #13): installed offline with pip
# (--no-index --no-build-isolation: Debian's setuptools), then a small real
# app (tests/python/onboard_app.py) prints the onboarding line of every
# captured machine, which must be the machine's expected-brief.txt lines.
# Faults: no binary, a binary that fails, hangs, or prints no JSON (fake_*
# stand-ins written here) must give a CPU-mode line, never an exception.
set -u
. "$(dirname "$0")/machine_env.sh"
: "${GPUDOCTOR:?}" "${GD_SRCDIR:?}"
# a Python whose pip can build the package offline: setuptools and wheel
# (Debian: python3-setuptools, python3-wheel); Debian's own first
py=
for c in ${PYTHON:-} /usr/bin/python3 python3; do
  if "$c" -c 'import setuptools, wheel' 2>/dev/null; then py=$c; break; fi
done
[ -n "$py" ] || { echo "skipped: no Python with setuptools and wheel (Debian: python3-setuptools python3-wheel)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# offline install into a target dir: proves the packaging metadata works
if ! "$py" -m pip install -q --no-build-isolation --no-index --no-deps \
     --target "$tmp/site" "$GD_SRCDIR/python" > "$tmp/pip.log" 2>&1; then
  cat "$tmp/pip.log"; echo "FAIL: pip install ./python"; exit 1
fi
[ -f "$tmp/site/gpudoctor/__init__.py" ] || { echo "FAIL: package not installed"; exit 1; }
app() { (cd "$tmp" && PYTHONPATH="$tmp/site" "$py" "$GD_SRCDIR/tests/python/$@"); }

n=0
for d in "$GD_SRCDIR"/tests/fixtures/*/; do
  d=${d%/}
  [ -f "$d/expected-brief.txt" ] || continue
  name=$(basename "$d") n=$((n + 1))
  envs=()
  machine_env "$d"
  # the expected lines: the text brief without "GPU n: " and the exit status
  sed -e '/^exit status:/d' -e 's/^GPU [0-9]*: //' "$d/expected-brief.txt" > "$tmp/want"
  env -i PATH=/usr/bin:/bin LANG=C.UTF-8 HOME=/nonexistent "${envs[@]}" \
    GPUDOCTOR_BIN="$GPUDOCTOR" PYTHONPATH="$tmp/site" PYTHONIOENCODING=utf-8 \
    "$py" "$GD_SRCDIR/tests/python/onboard_app.py" "$d/root" > "$tmp/got" 2>&1
  grep -v '^device: ' "$tmp/got" > "$tmp/got.lines"
  if ! diff -u "$tmp/want" "$tmp/got.lines"; then
    echo "FAIL $name: onboarding lines differ"; fail=1
  fi
  # the device an app picks follows the verdict: CPU exactly when no GPU is usable
  if grep -q '"usable": true' "$d/expected-brief.json"; then
    grep -q '^device: [A-Za-z]* (GPU [0-9]*)$' "$tmp/got" || { echo "FAIL $name: no GPU picked"; fail=1; }
  else
    grep -qx 'device: cpu' "$tmp/got" || { echo "FAIL $name: should pick the CPU"; fail=1; }
  fi
done
[ "$n" -gt 0 ] || { echo "FAIL: no machines"; fail=1; }

# faults: each must still print the plain CPU-mode line and exit 0; why is
# in d.error, never in the user's line (issue #24)
printf '#!/bin/sh\necho "gpudoctor: broken" >&2\nexit 3\n' > "$tmp/fake_gpudoctor_error"
printf '#!/bin/sh\necho not json\nexit 1\n' > "$tmp/fake_gpudoctor_garbage"
printf '#!/bin/sh\nexec sleep 60\n' > "$tmp/fake_gpudoctor_hang"
chmod +x "$tmp"/fake_*
for bin in /nonexistent/gpudoctor "$tmp/fake_gpudoctor_error" \
           "$tmp/fake_gpudoctor_garbage" "$tmp/fake_gpudoctor_hang"; do
  start=$SECONDS
  out=$(GPUDOCTOR_BIN=$bin PYTHONPATH="$tmp/site" timeout 60 "$py" -c '
import gpudoctor
d = gpudoctor.detect(timeout=2)
assert d.error and d.error_kind and d.cpu_only and not d.gpus, d
print(d.lines[0]); print(gpudoctor.dll_directories(timeout=2))' 2>/dev/null)
  rc=$?
  case "$out" in
    "No supported GPU found — CPU mode"$'\n[]') ;;
    *) echo "FAIL $(basename "$bin"): rc=$rc: $out"; fail=1 ;;
  esac
  [ $((SECONDS - start)) -le 10 ] || { echo "FAIL $(basename "$bin"): took too long"; fail=1; }
done

# the binary shipped inside the package is found without GPUDOCTOR_BIN or PATH
mkdir -p "$tmp/site/gpudoctor/bin" && cp "$GPUDOCTOR" "$tmp/site/gpudoctor/bin/gpudoctor"
out=$(env -i PATH=/usr/bin:/bin PYTHONPATH="$tmp/site" PYTHONIOENCODING=utf-8 "$py" -c '
import gpudoctor, sys
d = gpudoctor.detect(root=sys.argv[1])
print(d.error or d.lines[0])' "$GD_SRCDIR/tests/fixtures/no-gpu/root" 2>&1)
[ "$out" = "No supported GPU found — CPU mode" ] || { echo "FAIL packaged binary: $out"; fail=1; }

PYTHONPATH="$tmp/site" "$py" "$GD_SRCDIR/tests/python/test_dll_directories.py" || fail=1
# framework device strings and the workaround as data; E8/E9 (issue #20)
PYTHONPATH="$tmp/site" "$py" "$GD_SRCDIR/tests/python/test_frameworks.py" \
  "$GD_SRCDIR/tests/fixtures" || fail=1
mkdir -p "$tmp/faults"
PYTHONPATH="$tmp/site" "$py" "$GD_SRCDIR/tests/python/test_run_faults.py" "$tmp/faults" \
  2>/dev/null || fail=1
# E9 with the real program: a CUDA driver whose cuInit forks a helper and
# hangs (fake_hang_libcuda built with GD_FAKE_FORK_HELPER); the Python
# timeout stops gpudoctor with SIGTERM, and gpudoctor ends its probe
# child's process group, helper included (SIGKILL left both running)
if command -v cc > /dev/null 2>&1; then
  mkdir -p "$tmp/fakecuda"
  cc -shared -fPIC -DGD_FAKE_FORK_HELPER -o "$tmp/fakecuda/libcuda.so.1" \
    "$GD_SRCDIR/tests/fake/fake_hang_libcuda.c"
  GPUDOCTOR_BIN=$GPUDOCTOR GPUDOCTOR_LIB_PATH="$tmp/fakecuda" FAKE_HELPER_PID="$tmp/helper.pid" \
    PYTHONPATH="$tmp/site" "$py" -c '
import gpudoctor
d = gpudoctor.detect(probes=True, timeout=3)
assert d.error_kind == "GpudoctorTimeoutError", d' 2>/dev/null || { echo "FAIL E9 real: no timeout"; fail=1; }
  sleep 0.5
  if [ ! -s "$tmp/helper.pid" ]; then
    echo "FAIL E9 real: the fake cuInit never ran"; fail=1
  elif kill -0 "$(cat "$tmp/helper.pid")" 2>/dev/null; then
    echo "FAIL E9 real: the probe's helper is still running"; kill "$(cat "$tmp/helper.pid")"; fail=1
  fi
else
  echo "SKIPPED E9 with the real program: no C compiler"
fi
# explain(): an app that hands the error it caught to gpudoctor. The real
# error: dlopen of a CUDA 12 runtime on a machine without one (where one is
# installed the app loads it, and that half is skipped).
out=$(cd "$tmp" && GPUDOCTOR_BIN=$GPUDOCTOR PYTHONPATH="$tmp/site" "$py" "$GD_SRCDIR/tests/python/explain_app.py" 2>&1)
case $out in
"loaded: "*) echo "skipped: explain_app: this machine has libcudart.so.12" ;;
*"signature: cuda-libs-missing"*"likeliest cause: cuda-libs-missing"*"fix: "?*) ;;
*) echo "FAIL explain_app (the caught dlopen error): $out"; fail=1 ;;
esac
# real logs of tests/fixtures/logs through explain(): signature and causes
# (the OOM line shows this process holding the GPU, which rules out other
# processes; an APU's memory split stays a later cause)
L=$GD_SRCDIR/tests/fixtures/logs
out=$(cd "$tmp" && GPUDOCTOR_BIN=$GPUDOCTOR PYTHONPATH="$tmp/site" "$py" "$GD_SRCDIR/tests/python/explain_app.py" \
  "$L/cuda-oom.txt" "$L/nvrm-xid.txt" "$GD_SRCDIR/tests/python/explain_app.py" 2>&1)
want="cuda-oom.txt: cuda-oom gpu-oom apu-memory-split
nvrm-xid.txt: nvrm-xid gpu-lost nvidia-xid
explain_app.py: none "
[ "$out" = "$want" ] || { echo "FAIL explain() on real logs: got:"; echo "$out"; fail=1; }
# python -m gpudoctor passes its arguments and exit status through
out=$(cd "$GD_SRCDIR/tests/fixtures/no-gpu" && GPUDOCTOR_BIN=$GPUDOCTOR PYTHONPATH="$tmp/site" \
  "$py" -m gpudoctor --root root check --brief --no-probe 2>&1)
rc=$?
[ "$rc" = 2 ] && [ "$out" = "No supported GPU found — CPU mode" ] ||
  { echo "FAIL python -m gpudoctor: rc=$rc: $out"; fail=1; }
[ "$fail" = 0 ] && echo "ok: python package on $n captured machines, 4 faults and explain()"
exit "$fail"
