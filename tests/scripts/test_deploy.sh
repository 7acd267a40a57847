#!/usr/bin/env bash
# deploy/kubernetes (issue #13): the manifests hold what the README promises
# (tests/python/k8s_check.py: structure, read-only host mounts, non-root,
# no capabilities), and the exact gpudoctor command lines in them run: with
# /host replaced by a captured machine and the two hostPath directories by
# temporary ones, they must write a valid NFD feature file and a textfile
# that parses as Prometheus exposition text. Every object is validated
# against the Kubernetes JSON schema of its kind (tests/fixtures/k8s-schema,
# python3-jsonschema), and a manifest broken on purpose must be refused, each
# of its mistakes by the schema.
set -u
: "${GPUDOCTOR:?}" "${GD_SRCDIR:?}"
py=${PYTHON:-python3}
"$py" -c 'import yaml' 2>/dev/null ||
  { echo "skipped: no python3-yaml"; exit 77; }
"$py" -c 'import jsonschema' 2>/dev/null ||
  { echo "skipped: no python3-jsonschema"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
machine="$GD_SRCDIR/tests/fixtures/rx5700xt"

for m in "$GD_SRCDIR"/deploy/kubernetes/*.yaml; do
  name=$(basename "$m" .yaml)
  "$py" "$GD_SRCDIR/tests/python/k8s_check.py" --require-schema "$GD_SRCDIR/tests/fixtures/k8s-schema" \
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
    [ "$rc" = 0 ] || { echo "FAIL $name: '$line' exited $rc after writing"; fail=1; }
  done < "$tmp/$name.cmds"
  # the container's loop itself, one cycle: host paths to temporary ones,
  # gpudoctor to the build's, the sleep to an exit. A good cycle is
  # silent and touches the health file; a cycle that cannot write prints
  # gpudoctor's messages and does not.
  "$py" -c 'import sys, yaml
for o in yaml.safe_load_all(open(sys.argv[1])):
    if o["kind"] == "DaemonSet":
        print(o["spec"]["template"]["spec"]["containers"][0]["args"][0])' "$m" > "$tmp/$name.loop"
  for case in good bad; do
    h="$tmp/$name-$case" && mkdir -p "$h/features.d" "$h/textfile" "$h/health"
    [ $case = bad ] && rmdir "$h/textfile"
    sed -e "s|^\( *\)gpudoctor |\1$GPUDOCTOR |" -e "s|/host|$machine/root|" \
        -e "s|/features.d|$h/features.d|" -e "s|/textfile|$h/textfile|" \
        -e "s|/run/gpudoctor|$h/health|" -e "s|sleep [0-9]*|exit 0|" \
        -e "s|gpudoctor metrics --timeout [0-9]*|gpudoctor --root $machine/root metrics --no-probe|" \
        "$tmp/$name.loop" > "$h/loop.sh"
    sed -i "s|$GPUDOCTOR metrics|$GPUDOCTOR --root $machine/root metrics --no-probe|" "$h/loop.sh"
    (cd "$h" && timeout 60 sh loop.sh > out 2>&1)
    if [ $case = good ]; then
      [ -f "$h/health/written" ] && [ ! -s "$h/out" ] && [ -s "$h/textfile/gpudoctor.prom" ] &&
        [ -s "$h/features.d/gpudoctor" ] ||
        { echo "FAIL $name: a good cycle must be silent and mark health:"; cat "$h/out"; fail=1; }
    else
      [ ! -e "$h/health/written" ] && grep -q "textfile" "$h/out" ||
        { echo "FAIL $name: a failed cycle must say why and not mark health"; cat "$h/out"; fail=1; }
    fi
  done
  "$py" "$GD_SRCDIR/tests/python/nfd_check.py" "$tmp/$name/features.d/gpudoctor" \
    "$machine/expected-brief.json" || { echo "FAIL $name: feature file"; fail=1; }
  "$py" "$GD_SRCDIR/tests/python/promtext.py" "$tmp/$name/textfile/gpudoctor.prom" \
    --no-timestamps --expect gpudoctor_gpu_verdict > /dev/null ||
    { echo "FAIL $name: textfile"; fail=1; }
done
# the image recipe (no container engine here to build it): a non-root
# numeric USER, the static program (GD_STATIC_DEPS=ON, NEEDED checked) in
# /usr/local/bin (on the PATH the loop gives env -i), every build package
# tools/install-deps.sh names, and a base with the loop's sh/find/touch/env
cf="$GD_SRCDIR/deploy/Containerfile"
grep -q '^USER 65534:65534$' "$cf" || { echo "FAIL Containerfile: not USER 65534"; fail=1; }
grep -q 'DGD_STATIC_DEPS=ON' "$cf" && grep -q 'readelf -d build-static/gpudoctor' "$cf" ||
  { echo "FAIL Containerfile: not the static program"; fail=1; }
grep -q '^COPY --from=build /src/build-static/gpudoctor /usr/local/bin/gpudoctor$' "$cf" ||
  { echo "FAIL Containerfile: program not in /usr/local/bin"; fail=1; }
for p in $(sed -n '/^build_pkgs="/,/"/p' "$GD_SRCDIR/tools/install-deps.sh" | tr -d '"' | sed 's/build_pkgs=//'); do
  grep -qw -- "$p" "$cf" || { echo "FAIL Containerfile: build package $p missing"; fail=1; }
done
grep -q '^ARG BASE=debian:bookworm-slim$' "$cf" || { echo "FAIL Containerfile: base"; fail=1; }

# the schema files are what derive.py makes of upstream's property lists
"$py" "$GD_SRCDIR/tests/fixtures/k8s-schema/derive.py" "$tmp" &&
  cmp -s "$tmp/daemonset-apps-v1.json" "$GD_SRCDIR/tests/fixtures/k8s-schema/daemonset-apps-v1.json" &&
  cmp -s "$tmp/namespace-v1.json" "$GD_SRCDIR/tests/fixtures/k8s-schema/namespace-v1.json" ||
  { echo "FAIL: tests/fixtures/k8s-schema/*.json differ from derive.py's output"; fail=1; }

# broken on purpose: every document refused, each by the schema
broken="$GD_SRCDIR/tests/fixtures/k8s-schema/broken.yaml"
if "$py" "$GD_SRCDIR/tests/python/k8s_check.py" --require-schema \
  "$GD_SRCDIR/tests/fixtures/k8s-schema" "$broken" > /dev/null 2> "$tmp/broken.err"; then
  echo "FAIL: broken.yaml passed the check"; fail=1
fi
docs=$("$py" -c 'import sys, yaml; print(len(list(yaml.safe_load_all(open(sys.argv[1])))))' "$broken")
for ((i = 0; i < docs; i++)); do
  grep -q "^FAIL broken.yaml\[$i\]: schema: " "$tmp/broken.err" ||
    { echo "FAIL: broken.yaml[$i] not refused by the schema:"; cat "$tmp/broken.err"; fail=1; }
done
[ "$fail" = 0 ] && echo "ok: deploy/kubernetes manifests ($(ls "$GD_SRCDIR"/deploy/kubernetes/*.yaml | wc -l) files, schema-valid), broken.yaml's $docs mistakes refused"
exit "$fail"
