#!/usr/bin/env bash
# gather round trip (as hwloc tests its gatherer): capture the live machine,
# unpack, and the report from --root on the capture equals the live report.
# The same for every captured fixture machine (a capture of a capture).
set -u
: "${GPUDOCTOR:?}" "${GD_SRCDIR:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

roundtrip() { # label, root-args...
  local label=$1; shift
  local cap="$tmp/$label.tar.gz" dir="$tmp/$label"
  if ! "$GPUDOCTOR" "$@" gather "$cap" > "$tmp/$label.gather.out" 2>&1; then
    echo "FAIL $label: gather failed"; cat "$tmp/$label.gather.out"; fail=$((fail + 1)); return
  fi
  mkdir -p "$dir" && tar xzf "$cap" -C "$dir" || { echo "FAIL $label: archive does not unpack"; fail=$((fail + 1)); return; }
  for cmd in list check; do
    extra=(); [ $cmd = check ] && extra=(--no-probe)
    # a hand-made tree says it records no environment; its capture does
    "$GPUDOCTOR" "$@" --json $cmd "${extra[@]}" 2>/dev/null |
      jq -S 'del(.root) | .diagnostics |= map(select(.source != ".gpudoctor/environ"))' > "$tmp/$label.$cmd.orig.json"
    "$GPUDOCTOR" --root "$dir" --json $cmd "${extra[@]}" 2>/dev/null | jq -S 'del(.root)' > "$tmp/$label.$cmd.replay.json"
    if ! diff -u "$tmp/$label.$cmd.orig.json" "$tmp/$label.$cmd.replay.json"; then
      echo "FAIL $label: '$cmd' on the capture differs from the original"; fail=$((fail + 1))
    fi
  done
  [ -f "$dir/.gpudoctor/environ" ] || { echo "FAIL $label: no .gpudoctor/environ in capture"; fail=$((fail + 1)); }
  echo "ok $label: $(head -n1 "$tmp/$label.gather.out")"
}

roundtrip live
n=1
for d in "$GD_SRCDIR"/tests/fixtures/*/root; do
  [ -d "$d" ] || continue
  roundtrip "$(basename "$(dirname "$d")")" --root "$d"
  n=$((n + 1))
done
echo "gather: $n round trips, $fail failures"
[ "$fail" = 0 ]
