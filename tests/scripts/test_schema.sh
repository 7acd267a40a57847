#!/usr/bin/env bash
# The JSON contract (docs/schema/, JSON Schema 2020-12): every golden
# expected.json, the knowledge-base file, and the live --json output of every
# command (on captured machines and on this machine) validate against the
# schema their "$schema" key names; documents broken on purpose (a key
# dropped or renamed, a wrong type) are rejected, so the check can fail.
# Needs Debian's python3-jsonschema (/usr/bin/python3), or GD_PYTHON naming
# a python3 that has jsonschema.
set -u
: "${GPUDOCTOR:?}" "${GD_SRCDIR:?}"
G=$GPUDOCTOR S=$GD_SRCDIR/docs/schema FX=$GD_SRCDIR/tests/fixtures
py=
for p in /usr/bin/python3 ${GD_PYTHON:-}; do
  if [ -x "$p" ] && "$p" -c 'import jsonschema' 2>/dev/null; then py=$p; break; fi
done
[ -n "$py" ] || { echo "skipped: python3-jsonschema not installed (apt install python3-jsonschema)"; exit 77; }
check() { "$py" "$GD_SRCDIR/tests/scripts/schema_check.py" "$S" "$@"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# every schema file is named by its $id, and every command has one
for f in "$S"/*.json; do
  id=$(jq -r '."$id"' "$f")
  [ "$id" = "https://gpudoctor.dev/schema/v1/$(basename "$f")" ] || { echo "FAIL $f: \$id is $id"; fail=$((fail + 1)); }
done

# goldens and the knowledge base
check "$FX"/*/expected.json || fail=$((fail + 1))
check "$FX"/*/expected-brief.json || fail=$((fail + 1))
check --schema kb-file.json "$GD_SRCDIR/src/kb/gpudoctor-kb.json" || fail=$((fail + 1))

# live output: every command, on captured machines
live() { # name, args... (stdout is the document)
  local name=$1; shift
  "$@" > "$tmp/$name.json" 2> "$tmp/$name.err"
  jq -e . "$tmp/$name.json" >/dev/null 2>&1 || { echo "FAIL $name: not JSON: $*"; cat "$tmp/$name.err"; fail=$((fail + 1)); }
}
for d in "$FX"/*/root; do
  m=$(basename "$(dirname "$d")")
  live "list-$m" "$G" --root "$d" --json list
  live "check-$m" "$G" --root "$d" --json check --no-probe
  live "brief-$m" "$G" --root "$d" --json check --no-probe --brief
done
check "$FX"/*/expected-brief.json || fail=$((fail + 1))
R=$FX/rx5700xt/root N=$FX/nvidia-h200/root
live report "$G" --root "$R" --json report
live env "$G" --root "$R" --json env
live env-fish "$G" --root "$R" --json env --shell fish
live explain "$G" --root "$R" --json explain "$FX/logs/hip-no-binary.txt"
live explain-cuda "$G" --root "$N" --json explain "$FX/logs/cuda-no-kernel-image.txt"
live scan "$G" --json scan "$FX/binscan"
live scan-gpu "$G" --json scan --gpu gfx1030 --gpu sm_80 "$FX/binscan"
mkdir -p "$tmp/bad"; printf '\177ELF\002\001\001' > "$tmp/bad/short.so"
live scan-truncated "$G" --json scan "$tmp/bad"
live kb-all "$G" --json kb
live kb-gfx "$G" --json kb gfx1010
live kb-pci "$G" --json kb 0x731f
live kb-sm "$G" --json kb sm_90
live kb-nvidia "$G" --json kb 0x2330
live kb-issue "$G" --json kb rocm-2527
live kb-stale env SOURCE_DATE_EPOCH=4102444800 "$G" --json kb --stale
live try "$G" --root "$R" --json try -- true
live try-hang "$G" --root "$FX/rx5700xt-override-invalid/root" --json try --timeout 1 -- sleep 5
live env-nvidia "$G" --root "$N" --json env
W=$FX/windows-rx5700xt-hip62-hip71/root
live env-windows "$G" --root "$W" --json env
live env-windows-cmd "$G" --root "$W" --json env --shell cmd
live gather "$G" --root "$R" --json gather "$tmp/c.tar.gz"
# run writes its document on standard error (stdout belongs to CMD)
"$G" --root "$R" --json run -- true 2> "$tmp/run.json" || { echo "FAIL run --json"; fail=$((fail + 1)); }
# ... and on this machine
live live-list "$G" --json list
live live-check "$G" --json check
live live-probe-selftest "$G" --json probe --selftest
live live-probe "$G" --json probe
live live-env "$G" --json env
ls "$tmp"/*.json > "$tmp/list"
check $(cat "$tmp/list") || fail=$((fail + 1))

# broken on purpose: each must be rejected
b=$tmp/broken; mkdir -p "$b"
g=$FX/rx5700xt/expected.json
jq 'del(.gpus)' "$g" > "$b/no-gpus.json"
jq '.gpu = .gpus | del(.gpus)' "$g" > "$b/renamed-gpus.json"
jq 'del(.schema_version)' "$g" > "$b/no-schema-version.json"
jq '.schema_version = 2' "$g" > "$b/schema-version-2.json"
jq '.gpus[0].pci.boot_vga = 1' "$g" > "$b/boot-vga-int.json"
jq '.gpus[0].verdict.status = "fine"' "$g" > "$b/bad-status.json"
jq 'del(.gpus[0].verdict.headline)' "$g" > "$b/no-headline.json"
jq '.diagnostics = [{"level": "note", "source": "", "message": "x"}]' "$g" > "$b/level-note.json"
jq '."$schema" = "https://gpudoctor.dev/schema/v1/nothing.json"' "$g" > "$b/unknown-schema.json"
jq 'del(.gpus[0].verdict.usable)' "$g" > "$b/no-usable.json"
jq '.gpus[0].workaround = {"env": "x"}' "$FX/rx5700xt/expected-brief.json" > "$b/brief-bad-workaround.json"
jq 'del(.gpus[0].frameworks)' "$FX/rx5700xt/expected-brief.json" > "$b/brief-no-frameworks.json"
jq 'del(.files[0].path)' "$tmp/scan.json" > "$b/scan-no-path.json"
jq '.failed = "0"' "$tmp/gather.json" > "$b/gather-failed-string.json"
gb=$FX/rx5700xt/expected-brief.json
jq 'del(.lines)' "$gb" > "$b/brief-no-lines.json"
jq '.gpus[0].usable = "yes"' "$gb" > "$b/brief-usable-string.json"
jq '.gpus[0].frameworks = {"ctranslate2": {"device": "rocm", "compute_type": "float16"}}' "$gb" > "$b/brief-ct2-rocm.json"
jq '.gpus[0].workaround = {"env": [{"name": "A"}]}' "$gb" > "$b/brief-env-no-value.json"
check --expect-invalid "$b"/*.json || fail=$((fail + 1))
jq 'del(.targets)' "$GD_SRCDIR/src/kb/gpudoctor-kb.json" > "$b/kb-no-targets.json"
check --expect-invalid --schema kb-file.json "$b/kb-no-targets.json" || fail=$((fail + 1))

echo "schema: $fail failures"
[ "$fail" = 0 ]
