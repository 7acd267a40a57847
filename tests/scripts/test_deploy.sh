#!/usr/bin/env bash
# deploy/kubernetes (issue #13): the manifests hold what the README promises
# (tests/python/k8s_check.py: structure, read-only host mounts, non-root,
# no capabilities), and the exact gpudoctor command lines in them run: with
# /host replaced by a captured machine and the two hostPath directories by
# temporary ones, they must write a valid NFD feature file and a textfile
# that parses as Prometheus exposition text.
set -u
: "${GPUDOCTOR:?}" "${GD_SRCDIR:?}"
py=${PYTHON:-python3}
"$py" -c 'import yaml' 2>/dev/null ||
  { echo "skipped: no python3-yaml"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
machine="$GD_SRCDIR/tests/fixtures/rx5700xt"

for m in "$GD_SRCDIR"/deploy/kubernetes/*.yaml; do
  name=$(basename "$m" .yaml)
  "$py" "$GD_SRCDIR/tests/python/k8s_check.py" "$GD_SRCDIR/tests/fixtures/k8s-schema" \
    "$m" > "$tmp/$name.cmds" || { echo "FAIL $name: manifest check"; fail=1; continue; }
  [ -s "$tmp/$name.cmds" ] || { echo "FAIL $name: no gpudoctor command found"; fail=1; continue; }
  mkdir -p "$tmp/$name/features.d" "$tmp/$name/textfile"
  while IFS= read -r line; do
    # the probe variant judges its own container (no --root): here a
    # captured machine stands in for it, so nothing is probed
    line=${line/gpudoctor --root \/host /gpudoctor }
    line=${line/\/features.d/$tmp/$name/features.d}
    line=${line/\/textfile/$tmp/$name/textfile}
    read -r -a argv <<< "$line"
    "$GPUDOCTOR" --root "$machine/root" "${argv[@]:1}" 2>/dev/null
    rc=$?
    [ "$rc" -le 2 ] || { echo "FAIL $name: '$line' exited $rc"; fail=1; }
  done < "$tmp/$name.cmds"
  "$py" "$GD_SRCDIR/tests/python/nfd_check.py" "$tmp/$name/features.d/gpudoctor" \
    "$machine/expected-brief.json" || { echo "FAIL $name: feature file"; fail=1; }
  "$py" "$GD_SRCDIR/tests/python/promtext.py" "$tmp/$name/textfile/gpudoctor.prom" \
    --no-timestamps --expect gpudoctor_gpu_verdict > /dev/null ||
    { echo "FAIL $name: textfile"; fail=1; }
done
[ "$fail" = 0 ] && echo "ok: deploy/kubernetes manifests"
exit "$fail"
