#!/usr/bin/env bash
# One pipeline for every judged OS (issue #21): on every captured machine,
# Linux and Windows, `report`, `nfd` and `metrics` give results (no
# "Windows machine" refusal), and on a Windows capture no output of check,
# check -v, check --brief, report or env gives a Linux-only step (apt,
# modprobe, sudo, LD_LIBRARY_PATH, /dev/kfd, ...). The C API's results are
# compared with the command's on every machine by test_capi.sh, the brief
# with the full verdict by test_brief.sh.
set -u
. "$(dirname "$0")/machine_env.sh"
: "${GPUDOCTOR:?}" "${GD_SRCDIR:?}"
fix="$GD_SRCDIR/tests/fixtures"
fail=0 n=0 nwin=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run_gd() { # machine-dir, args...
  local d=$1; shift
  local envs=(PATH=/usr/bin:/bin LANG=C HOME=/nonexistent)
  machine_env "$d"
  (cd "$d" && env -i "${envs[@]}" "$GPUDOCTOR" --root root "$@")
}

linux_only='apt(-get)? install|\bdnf\b|modprobe|\bsudo\b|LD_LIBRARY_PATH|ld\.so|/dev/kfd|/sys/class|usermod|/etc/|\.so\.[0-9]|CONFIG_HSA'

for d in "$fix"/*/; do
  d=${d%/}
  [ -d "$d/root" ] || continue
  name=$(basename "$d")
  n=$((n + 1))
  for cmd in report nfd metrics; do
    run_gd "$d" "$cmd" --no-probe >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -gt 2 ] || [ ! -s "$tmp/out" ]; then
      echo "FAIL $name: $cmd exits $rc: $(head -c 300 "$tmp/err")"; fail=1
    fi
    cp "$tmp/out" "$tmp/$cmd"
  done
  [ -d "$d/root/registry" ] || continue
  nwin=$((nwin + 1))
  run_gd "$d" check --no-probe >"$tmp/check" 2>&1
  run_gd "$d" check --no-probe -v >"$tmp/check-v" 2>&1
  run_gd "$d" check --no-probe --brief >"$tmp/brief" 2>&1
  run_gd "$d" env >"$tmp/env" 2>&1
  run_gd "$d" --json env >"$tmp/env.json" 2>&1
  for f in check check-v brief report env env.json; do
    # the report embeds the JSON, which names the Linux facts it has no
    # value for ("kfd_nodes", ...): only its prose is read
    sed '/^<details>/,/^<\/details>/d' "$tmp/$f" |
      grep -n -E "$linux_only" >"$tmp/hits" &&
      { echo "FAIL $name: $f gives a Linux-only step on a Windows machine:"; head -5 "$tmp/hits"; fail=1; }
  done
done
[ "$nwin" -gt 0 ] || { echo "FAIL: no Windows captures found"; fail=1; }
[ "$fail" = 0 ] && echo "ok: report, nfd and metrics on $n captured machines; no Linux-only step on $nwin Windows captures"
exit "$fail"
