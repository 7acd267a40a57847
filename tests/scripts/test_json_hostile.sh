#!/usr/bin/env bash
# Hostile bytes through every command's --json (code review A.1 row 3, A.3):
# bytes that are not UTF-8 (0xff, a lone continuation byte, an overlong '/'),
# ESC sequences and very long strings, in a file name, in a captured
# machine's ids file and sysfs link, in its recorded environment and in a
# log. Each document must parse (jq and Python's json), be plain ASCII
# (jansson escapes the rest), and keep its keys (scan's "path", the GPU's
# "name"); scan's text must not pass ESC or other control bytes raw.
set -u
: "${GPUDOCTOR:?}" "${GD_SRCDIR:?}"
G=$GPUDOCTOR FX=$GD_SRCDIR/tests/fixtures
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
fail=0 n=0
bad=$(printf '\xff\x80\xc0\xaf\033[31m\033]0;title\007')
long=$(head -c 70000 /dev/zero | tr '\0' 'x')

json_ok() { # name, file, jq-expression that must be true
  local name=$1 f=$2 want=$3
  n=$((n + 1))
  if ! jq -e . "$f" >/dev/null 2>&1; then
    echo "FAIL $name: jq cannot parse the output"; head -c 300 "$f"; echo; fail=$((fail + 1)); return
  fi
  if command -v python3 >/dev/null && ! python3 -m json.tool "$f" >/dev/null 2>&1; then
    echo "FAIL $name: python3 -m json.tool cannot parse the output"; fail=$((fail + 1)); return
  fi
  if LC_ALL=C grep -q '[^[:print:][:space:]]' "$f"; then
    echo "FAIL $name: raw control or non-ASCII bytes in the JSON"; fail=$((fail + 1)); return
  fi
  jq -e "$want" "$f" >/dev/null || { echo "FAIL $name: want $want"; fail=$((fail + 1)); return; }
  echo "ok $name"
}

# scan: a file whose name holds the hostile bytes (and a long one)
mkdir -p "$tmp/bin"
cp "$FX/binscan/libhip_gfx900_gfx1010_gfx90a.so" "$tmp/bin/lib${bad}.so"
cp "$FX/binscan/libhip_gfx900_gfx1010_gfx90a.so" "$tmp/bin/$(head -c 240 /dev/zero | tr '\0' "$(printf '\xff')")"
"$G" --json scan "$tmp/bin" > "$tmp/scan.json" 2>/dev/null
json_ok scan "$tmp/scan.json" '(.files | length == 2) and all(.files[]; (.path | type == "string") and (.path | test("\ufffd")))'
"$G" --color=always scan "$tmp/bin/" > "$tmp/scan.txt" 2>&1
n=$((n + 1))
# the only ESC bytes allowed are gpudoctor's own colours: ESC [ digits m
if LC_ALL=C sed 's/\x1b\[[0-9;]*m//g' "$tmp/scan.txt" | LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')"; then
  echo "FAIL scan text: control bytes from the file name reach the terminal"; fail=$((fail + 1))
elif grep -q '//' "$tmp/scan.txt"; then
  echo "FAIL scan text: a path joined with a double slash"; fail=$((fail + 1))
else
  echo "ok scan text"
fi

# a captured machine with hostile bytes: the product name in amdgpu.ids,
# the driver link's name, the recorded environment, a log
R=$tmp/root
cp -a "$FX/rx5700xt/root" "$R"
sed -i "s/^731F,\tC4,\tAMD Radeon RX 5700\$/731F,\tC4,\tAMD Radeon ${bad}RX 5700 $long/" "$R/usr/share/libdrm/amdgpu.ids"
ln -sfn "../../../../bus/pci/drivers/amd${bad}gpu" "$R/sys/bus/pci/devices/0000:28:00.0/driver"
mkdir -p "$R/.gpudoctor"
{ echo "HSA_OVERRIDE_GFX_VERSION=10.3.0${bad}"
  echo "ROCR_VISIBLE_DEVICES=0${bad}"
  echo "PATH=/usr/bin:/${bad}${long}"
  echo "HOME=/root${bad}"; } > "$R/.gpudoctor/environ"
{ echo "prelude ${bad}"; echo "hipErrorNoBinaryForGpu: Unable to find code object for all current devices! ${bad} ${long}"; } > "$tmp/log${bad}.txt"

for cmd in list check report env; do
  args=(); [ $cmd = check ] && args=(--no-probe)
  "$G" --root "$R" --json $cmd "${args[@]}" > "$tmp/$cmd.json" 2>/dev/null
done
json_ok list "$tmp/list.json" '.gpus[0].name | test("RX 5700")'
json_ok check "$tmp/check.json" '(.gpus[0].name | test("\ufffd")) and (.gpus[0].override.value | test("^10.3.0")) and (.gpus[0].pci.driver | test("amd")) and (.gpus[0].verdict.headline | length > 0)'
json_ok report "$tmp/report.json" '.gpus | length == 1'
json_ok env "$tmp/env.json" '.origin | type == "string"'
"$G" --root "$R" --json explain "$tmp/log${bad}.txt" > "$tmp/explain.json" 2>/dev/null
json_ok explain "$tmp/explain.json" '(.input | test("\ufffd")) and (.matches | length >= 1) and (.matches[0].text | length > 0)'
"$G" --root "$R" --json run -- true "$bad" 2> "$tmp/run.json" >/dev/null
json_ok run "$tmp/run.json" '.argv[1] | test("\ufffd")'
"$G" --root "$R" --json try --timeout 5 -- true "$bad" > "$tmp/try.json" 2>/dev/null
json_ok try "$tmp/try.json" '(.argv[1] | test("\ufffd")) and (.strategies | length >= 1)'
"$G" --json kb "gfx${bad}" > "$tmp/kb.json" 2>/dev/null
# an unknown target is an error (exit 3, nothing on stdout) or a document
if [ -s "$tmp/kb.json" ]; then json_ok kb "$tmp/kb.json" '.command == "kb"'; else echo "ok kb (no document for an unknown target)"; fi
"$G" --json kb gfx1010 > "$tmp/kb-ok.json"
json_ok kb-known "$tmp/kb-ok.json" '.result.target.gfx == "gfx1010"'
"$G" --root "$R" --json gather "$tmp/cap${bad}.tar.gz" > "$tmp/gather.json" 2>/dev/null
json_ok gather "$tmp/gather.json" '(.file | test("\ufffd")) and .failed == 0'
"$G" --root "$R" gather "$tmp/cap2${bad}.tar.gz" > "$tmp/gather.txt" 2>&1
"$G" --root "$R" gather "$tmp/cap2${bad}.tar.gz" >> "$tmp/gather.txt" 2>&1 # refused: exists
n=$((n + 1))
if LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$tmp/gather.txt"; then
  echo "FAIL gather text: control bytes from the file name reach the terminal"; fail=$((fail + 1))
else
  echo "ok gather text"
fi
"$G" --json probe --selftest > "$tmp/probe.json" 2>/dev/null
# pass or not (deadlines under load): the document is what is checked here
json_ok probe-selftest "$tmp/probe.json" '(.results | length > 0) and (.selftest_passed | type == "boolean")'

echo "hostile JSON: $n checks, $fail failures"
[ "$fail" = 0 ]
