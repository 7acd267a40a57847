#!/usr/bin/env bash
# deploy/systemd (issue #24): the service and timer pass systemd's own
# checker (systemd-analyze verify: no unknown key, no bad value; its
# warnings are failures here), and the service's ExecStart line, run
# against a captured machine with the textfile directory moved to a
# temporary one, exits 0 and writes a textfile that parses.
set -u
: "${GPUDOCTOR:?}" "${GD_SRCDIR:?}"
py=${PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
src="$GD_SRCDIR/deploy/systemd"
if command -v systemd-analyze > /dev/null 2>&1; then
  sed "s|/usr/local/bin/gpudoctor|$GPUDOCTOR|g" "$src/gpudoctor.service" > "$tmp/gpudoctor.service"
  cp "$src/gpudoctor.timer" "$tmp/"
  (cd "$tmp" && systemd-analyze verify --man=no ./gpudoctor.service ./gpudoctor.timer) > "$tmp/verify" 2>&1
  rc=$?
  [ "$rc" = 0 ] && [ ! -s "$tmp/verify" ] || { cat "$tmp/verify"; echo "FAIL: systemd-analyze verify (rc $rc)"; fail=1; }
else
  echo "SKIPPED systemd-analyze verify: systemd not installed"
fi
line=$(sed -n 's/^ExecStart=//p' "$src/gpudoctor.service")
case $line in /usr/local/bin/gpudoctor\ *) ;; *) echo "FAIL: ExecStart: $line"; exit 1 ;; esac
mkdir "$tmp/tf"
line=${line//\/var\/lib\/node_exporter\/textfile_collector/$tmp/tf}
read -r -a argv <<< "$line"
"$GPUDOCTOR" --root "$GD_SRCDIR/tests/fixtures/rx5700xt/root" "${argv[@]:1}" 2>/dev/null
rc=$?
[ "$rc" = 0 ] || { echo "FAIL: ExecStart exited $rc (a successful write must be 0 for systemd)"; fail=1; }
"$py" "$GD_SRCDIR/tests/python/promtext.py" "$tmp/tf/gpudoctor.prom" --no-timestamps \
  --expect gpudoctor_gpu_verdict > /dev/null || { echo "FAIL: textfile"; fail=1; }
grep -q '^OnUnitActiveSec=' "$src/gpudoctor.timer" && grep -q '^WantedBy=timers.target' "$src/gpudoctor.timer" ||
  { echo "FAIL: timer"; fail=1; }
[ "$fail" = 0 ] && echo "ok: systemd service and timer"
exit "$fail"
