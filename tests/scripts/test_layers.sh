#!/usr/bin/env bash
# DESIGN.md's layers, enforced: (1) the include check the build runs
# (tools/check-layers.sh) passes on the tree and fails on a forbidden
# include; (2) each layer's library calls only into the layers it links
# (nm on the per-layer static libraries CMake builds).
set -u
: "${GD_SRCDIR:?}" "${GD_BINDIR:?}"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
graph=$(cat "$GD_BINDIR/generated/layers.txt")
# shellcheck disable=SC2086
sh "$GD_SRCDIR/tools/check-layers.sh" "$GD_SRCDIR/src" $graph || { echo "FAIL: the tree breaks the layering"; fail=1; }

# a copy of the tree with doctor/ including a cli/ header, and core/ a kb/ one
cp -r "$GD_SRCDIR/src" "$tmp/src"
echo '#include "cli/cli.h"' >> "$tmp/src/doctor/verdict_util.c"
echo '#include "../kb/kb.h"' >> "$tmp/src/core/util.c"
# shellcheck disable=SC2086
if sh "$GD_SRCDIR/tools/check-layers.sh" "$tmp/src" $graph 2> "$tmp/err"; then
  echo "FAIL: forbidden includes passed the check"; fail=1
fi
grep -q 'doctor/verdict_util.c:[0-9]*: doctor/ may not include cli/cli.h' "$tmp/err" || { echo "FAIL: doctor -> cli not named:"; cat "$tmp/err"; fail=1; }
grep -q 'core/util.c:[0-9]*: core/ may not include ../kb/kb.h' "$tmp/err" || { echo "FAIL: core -> kb not named:"; cat "$tmp/err"; fail=1; }

# symbols: what a layer's library needs from another layer's library
declare -A deps
for e in $graph; do deps[${e%%=*}]=${e#*=}; done
closure() { # layer -> every layer below it
  local l d out=""
  for d in ${deps[$1]//,/ }; do out="$out $d $(closure "$d")"; done
  echo "$out"
}
layers="${!deps[*]}"
for l in $layers; do
  lib="$GD_BINDIR/libgd_$l.a"
  [ -f "$lib" ] || { echo "FAIL: no $lib"; fail=1; continue; }
  nm --defined-only -g "$lib" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u > "$tmp/def.$l"
  nm -u "$lib" 2>/dev/null | awk '{ print $NF }' | sort -u > "$tmp/und.$l"
done
for l in $layers; do
  allowed=" $l $(closure "$l") "
  for o in $layers; do
    [[ "$allowed" == *" $o "* ]] && continue
    used=$(comm -12 "$tmp/und.$l" "$tmp/def.$o" | head -3 | tr '\n' ' ')
    [ -z "$used" ] || { echo "FAIL: $l/ calls into $o/, which it does not link: $used"; fail=1; }
  done
done
echo "layers: $([ $fail = 0 ] && echo ok || echo failed)"
[ "$fail" = 0 ]
