#!/bin/sh
# The layering of DESIGN.md, checked on every build (CMakeLists.txt):
#   tools/check-layers.sh SRCDIR LAYER=DEP,DEP ... (direct edges)
# A file in SRCDIR/LAYER/ may include headers of its own layer and of the
# layers LAYER links, directly or through them; anything else fails with
# "file:line: why". Both "core/x.h" and "../core/x.h" forms are checked.
set -eu
src=$1
shift
graph="$*"
status=0
for arg in $graph; do
  layer=${arg%%=*}
  for f in "$src/$layer"/*.c "$src/$layer"/*.h; do
    [ -e "$f" ] || continue
    printf '%s\n' "$f"
  done
done | awk -v graph="$graph" '
function closure(l,    i, n, d, parts) {
  if (l in done) return
  done[l] = 1
  n = split(deps[l], parts, ",")
  for (i = 1; i <= n; i++) {
    d = parts[i]
    if (d == "") continue
    closure(d)
    allowed[l, d] = 1
    for (k in known) if ((d, k) in allowed) allowed[l, k] = 1
  }
}
BEGIN {
  n = split(graph, e, " ")
  for (i = 1; i <= n; i++) {
    split(e[i], kv, "=")
    deps[kv[1]] = kv[2]
    known[kv[1]] = 1
  }
  for (l in known) closure(l)
  bad = 0
}
{
  file = $0
  nparts = split(file, p, "/")
  layer = p[nparts - 1]
  line = 0
  while ((getline text < file) > 0) {
    line++
    if (text !~ /^[ \t]*#[ \t]*include[ \t]*"/) continue
    inc = text
    sub(/^[^"]*"/, "", inc)
    sub(/".*$/, "", inc)
    path = inc
    sub(/^(\.\.\/)+/, "", path)
    if (path !~ /\//) continue            # same folder
    target = path
    sub(/\/.*$/, "", target)
    if (!(target in known) || target == layer) continue
    if (!((layer, target) in allowed)) {
      printf "%s:%d: %s/ may not include %s (%s links: %s)\n", file, line,
             layer, inc, layer, deps[layer] == "" ? "nothing" : deps[layer] > "/dev/stderr"
      bad = 1
    }
  }
  close(file)
}
END { exit bad }
' || status=1
[ "$status" = 0 ] || echo "check-layers: an include crosses DESIGN.md's layers; link the layer in CMakeLists.txt (GD_DEPS_*) if the edge is intended" >&2
exit "$status"
