#!/usr/bin/env bash
# gpudoctor nfd (issue #13): on every captured machine the feature file
# passes NFD's format and the Kubernetes label rules (tests/python/
# nfd_check.py) and carries the verdicts check --brief gives; --dir writes
# it atomically (no dot file left, mode 0644), a bad directory exits 3.
set -u
. "$(dirname "$0")/machine_env.sh"
: "${GPUDOCTOR:?}" "${GD_SRCDIR:?}"
py=${PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0

for d in "$GD_SRCDIR"/tests/fixtures/*/; do
  d=${d%/}
  [ -f "$d/expected-brief.json" ] || continue
  case $d in */windows-*) continue ;; esac # Linux nodes only (refused below)
  name=$(basename "$d") n=$((n + 1))
  # each machine's env file applies, as in test_brief.sh
  envs=(PATH=/usr/bin:/bin LANG=C HOME=/nonexistent)
  machine_env "$d"
  (cd "$d" && env -i "${envs[@]}" \
     "$GPUDOCTOR" --root root nfd --no-probe --expiry 3600 > "$tmp/$name" 2>/dev/null)
  [ $? -le 2 ] || { echo "FAIL $name: nfd failed"; fail=1; continue; }
  "$py" "$GD_SRCDIR/tests/python/nfd_check.py" "$tmp/$name" "$d/expected-brief.json" |
    sed "s/^/FAIL $name: /" | grep . && fail=1
done

mkdir "$tmp/features.d"
# a written file exits 0 (cron and systemd timers), whatever the verdict
for m in strixhalo rx5700xt no-gpu; do
  (umask 077 && "$GPUDOCTOR" --root "$GD_SRCDIR/tests/fixtures/$m/root" nfd \
     --no-probe --dir "$tmp/features.d" 2>/dev/null)
  rc=$?
  [ $rc = 0 ] || { echo "FAIL --dir on $m: exit $rc after a successful write"; fail=1; }
done
(umask 077 && "$GPUDOCTOR" --root "$GD_SRCDIR/tests/fixtures/strixhalo/root" nfd \
   --no-probe --dir "$tmp/features.d" 2>/dev/null)
[ "$(ls -A "$tmp/features.d")" = gpudoctor ] || { echo "FAIL --dir: $(ls -A "$tmp/features.d")"; fail=1; }
[ "$(stat -c %a "$tmp/features.d/gpudoctor" 2>/dev/null)" = 644 ] || { echo "FAIL --dir: mode"; fail=1; }
grep -qx 'gpudoctor.io/gpu-0.target=gfx1151' "$tmp/features.d/gpudoctor" ||
  { echo "FAIL --dir: no gfx1151 label"; fail=1; }
"$GPUDOCTOR" --root "$GD_SRCDIR/tests/fixtures/no-gpu/root" nfd --no-probe \
  --dir "$tmp/nonexistent" 2>/dev/null
[ $? = 3 ] || { echo "FAIL --dir: a missing directory should exit 3"; fail=1; }
"$GPUDOCTOR" nfd --expiry 0 >/dev/null 2>&1
[ $? = 3 ] || { echo "FAIL: --expiry 0 should be a usage error"; fail=1; }

# --json: refused in one line (exit 3), never ignored
for cmd in nfd metrics guide; do
  out=$("$GPUDOCTOR" --json --root "$GD_SRCDIR/tests/fixtures/no-gpu/root" $cmd 2>&1)
  rc=$?
  { [ $rc = 3 ] && [ "$(echo "$out" | wc -l)" = 1 ] && echo "$out" | grep -q -- '--json'; } ||
    { echo "FAIL: --json $cmd: rc $rc: $out"; fail=1; }
done

# a Windows capture: judged like any machine (issue #21), the labels
# from its verdict (RX 5700 XT, HIP SDK 6.2 with steps: needs-setup)
out=$("$GPUDOCTOR" --root "$GD_SRCDIR/tests/fixtures/windows-rx5700xt-hip62-hip71/root" nfd --no-probe 2>&1)
rc=$?
{ [ $rc = 1 ] && echo "$out" | grep -qx 'gpudoctor.io/gpu-0.verdict=needs-setup' &&
  echo "$out" | grep -qx 'gpudoctor.io/gpu-0.target=gfx1010'; } ||
  { echo "FAIL: nfd on a Windows capture: rc $rc: $out"; fail=1; }

[ "$n" -gt 0 ] || { echo "FAIL: no machines"; fail=1; }
[ "$fail" = 0 ] && echo "ok: nfd feature files of $n captured machines"
exit "$fail"
