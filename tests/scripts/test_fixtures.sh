#!/usr/bin/env bash
# Golden reports of the captured machines (hwloc style): for every
# tests/fixtures/<machine>/ with a root/ tree, `check --no-probe` as text and
# as JSON must equal expected.txt / expected.json (diff -u on failure).
# GPUDOCTOR_UPDATE_EXPECTED=1 rewrites them after an intended change.
# An optional <machine>/env file holds NAME=VALUE lines for the run (e.g. an
# override); the run otherwise gets a clean environment.
set -u
. "$(dirname "$0")/machine_env.sh"
: "${GPUDOCTOR:?}" "${GD_SRCDIR:?}"
fix="$GD_SRCDIR/tests/fixtures"
fail=0 n=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run_gd() { # machine-dir, extra args...
  local d=$1; shift
  local envs=(PATH=/usr/bin:/bin LANG=C HOME=/nonexistent)
  machine_env "$d"
  # a relative --root, so the reports do not depend on where the tree is
  (cd "$d" && env -i "${envs[@]}" "$GPUDOCTOR" --root root "$@")
}

for d in "$fix"/*/; do
  d=${d%/}
  [ -d "$d/root" ] || continue
  name=$(basename "$d")
  # a Windows capture (issue #14) is compared once it has goldens; a blanket
  # update must not invent them (start one with: touch expected.txt, then update)
  if [ -d "$d/root/registry" ] && [ ! -f "$d/expected.txt" ]; then
    echo "skip $name: Windows capture without expected.txt yet"; continue
  fi
  n=$((n + 1))
  run_gd "$d" check --no-probe --color=never > "$tmp/$name.txt" 2> "$tmp/$name.stderr"
  echo "exit status: $?" >> "$tmp/$name.txt"
  # stderr after stdout, not interleaved with it (buffering would decide)
  if [ -s "$tmp/$name.stderr" ]; then
    echo "--- stderr ---" >> "$tmp/$name.txt"
    cat "$tmp/$name.stderr" >> "$tmp/$name.txt"
  fi
  run_gd "$d" --json check --no-probe > "$tmp/$name.json" 2>"$tmp/$name.err"
  if ! jq -e '.schema_version == 1 and (.gpus | type == "array")' "$tmp/$name.json" >/dev/null; then
    echo "FAIL $name: --json output is not a valid check document"; cat "$tmp/$name.err"; fail=$((fail + 1)); continue
  fi
  for ext in txt json; do
    if [ "${GPUDOCTOR_UPDATE_EXPECTED:-0}" = 1 ]; then
      cp "$tmp/$name.$ext" "$d/expected.$ext"
    elif [ ! -f "$d/expected.$ext" ]; then
      echo "FAIL $name: no expected.$ext (run with GPUDOCTOR_UPDATE_EXPECTED=1)"; fail=$((fail + 1))
    elif ! diff -u "$d/expected.$ext" "$tmp/$name.$ext"; then
      echo "FAIL $name: $ext report differs from expected.$ext"; fail=$((fail + 1))
    fi
  done
done
[ "$n" -gt 0 ] || { echo "FAIL: no captured machines found under $fix"; exit 1; }
echo "fixtures: $n machines, $fail failures"
[ "$fail" = 0 ]
