#!/usr/bin/env bash
# check --brief (issue #13) on every captured machine: the one-line-per-GPU
# text and the small JSON object must equal expected-brief.txt /
# expected-brief.json (diff -u on failure); GPUDOCTOR_UPDATE_EXPECTED=1
# rewrites them. Each GPU's brief fields equal its verdict's in check --json. Each machine's env file applies, as in test_fixtures.sh.
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
  (cd "$d" && env -i "${envs[@]}" "$GPUDOCTOR" --root root "$@")
}

compare() { # name, got, expected
  if [ -n "${GPUDOCTOR_UPDATE_EXPECTED:-}" ]; then
    cp "$2" "$3"
  elif ! diff -u "$3" "$2"; then
    echo "FAIL $1: $(basename "$3") differs"; fail=1
  fi
}

for d in "$fix"/*/; do
  d=${d%/}
  [ -d "$d/root" ] || continue
  name=$(basename "$d")
  n=$((n + 1))
  run_gd "$d" check --no-probe --brief > "$tmp/$name.txt" 2>/dev/null
  echo "exit status: $?" >> "$tmp/$name.txt"
  run_gd "$d" --json check --no-probe --brief > "$tmp/$name.json" 2>/dev/null
  compare "$name" "$tmp/$name.txt" "$d/expected-brief.txt"
  compare "$name" "$tmp/$name.json" "$d/expected-brief.json"
  # the text (and so the C API's gpudoctor_brief) says what the JSON
  # "lines" say, word for word: identical GPUs as one "N\u00d7" line
  py=${PYTHON:-python3}
  "$py" -c 'import json, sys; print("\n".join(json.load(open(sys.argv[1]))["lines"]))' \
    "$tmp/$name.json" > "$tmp/$name.jl"
  sed '/^exit status:/d' "$tmp/$name.txt" | cmp -s - "$tmp/$name.jl" ||
    { echo "FAIL $name: text brief and JSON lines differ"; fail=1; }
  # the brief and the full report read the same verdict fields (issue #21:
  # brief usable:true against verdict.usable:false on Windows captures)
  run_gd "$d" --json check --no-probe > "$tmp/$name.full.json" 2>/dev/null
  python3 - "$tmp/$name.json" "$tmp/$name.full.json" <<'PY' ||
import json, sys
brief = json.load(open(sys.argv[1])); full = json.load(open(sys.argv[2]))
keys = ("status", "usable", "backend", "label", "reason", "frameworks",
        "workaround")
bad = 0
for g in brief["gpus"]:
    v = full["gpus"][g["index"]]["verdict"]
    for k in keys:
        if k not in v or v[k] != g[k]:
            print("GPU %d %s: brief %r, check --json %r"
                  % (g["index"], k, g.get(k), v.get(k)))
            bad = 1
sys.exit(bad)
PY
    { echo "FAIL $name: check --brief --json and check --json disagree"; fail=1; }
  # the exit status is the full check's
  run_gd "$d" check --no-probe >/dev/null 2>&1; full=$?
  grep -qx "exit status: $full" "$tmp/$name.txt" ||
    { echo "FAIL $name: --brief exit status differs from check's ($full)"; fail=1; }
done
[ "$n" -gt 0 ] || { echo "no captured machines found"; exit 1; }
[ "$fail" = 0 ] && echo "ok: check --brief on $n captured machines"
exit "$fail"
