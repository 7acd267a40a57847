#!/usr/bin/env bash
# gpudoctor report fits where it goes (issue #24):
# - every captured machine's report is under GitHub's 65,536-character
#   issue limit (nvidia-dgx2-16gpu was 184 KB), the JSON kept when it fits
#   and else replaced by a line saying how to attach it;
# - identical GPUs are one section ("### 15× Tesla V100...") with a table of
#   their addresses: every GPU's PCI address is still in the report;
# - sources a reader cannot open (internal notes: no address, no docs/) are
#   not listed; the lists stay numbered 1, 2, 3...;
# - the top names what the report reveals; --redact replaces user names in
#   home directories and the kernel command line (a capture given a venv
#   under /home/alice and a /proc/cmdline).
set -u
: "${GPUDOCTOR:?}" "${GD_SRCDIR:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
for d in "$GD_SRCDIR"/tests/fixtures/*/; do
  d=${d%/}
  [ -d "$d/root" ] || continue
  case $d in */windows*) continue ;; esac
  name=$(basename "$d") n=$((n + 1))
  "$GPUDOCTOR" --root "$d/root" report --no-probe > "$tmp/$name.md" 2>/dev/null
  size=$(wc -m < "$tmp/$name.md")
  [ "$size" -lt 65536 ] || { echo "FAIL $name: report has $size characters"; fail=1; }
  sed -n 3p "$tmp/$name.md" | grep -q '^> Before you post it: .*--redact' ||
    { echo "FAIL $name: no note on what the report reveals"; fail=1; }
  if grep -q -e '^[0-9]*\. field report:' -e 'MATRIX\.md' "$tmp/$name.md"; then
    echo "FAIL $name: internal sources listed: $(grep -m1 -e 'field report:' -e MATRIX.md "$tmp/$name.md")"; fail=1
  fi
  # numbered lists stay 1, 2, 3 after dropped entries
  awk -v m="$name" '/^Sources:/ {s = 1; k = 0; next} s && /^[0-9]+\. / {
      k++; if ($1 != k ".") { print "FAIL " m ": source numbered " $1 " after " k - 1; bad = 1 } next }
    {s = 0} END {exit bad}' "$tmp/$name.md" || fail=1
  # nothing lost: every GPU's PCI address is in the report
  "$GPUDOCTOR" --root "$d/root" --json list 2>/dev/null |
    python3 -c 'import json,sys; [print(g["pci"]["bdf"]) for g in json.load(sys.stdin)["gpus"]]' > "$tmp/$name.bdf" 2>/dev/null
  while read -r bdf; do
    grep -q "$bdf" "$tmp/$name.md" || { echo "FAIL $name: GPU $bdf not in the report"; fail=1; }
  done < "$tmp/$name.bdf"
  # the JSON is there whenever it fits
  if grep -q '^<details><summary>gpudoctor check --json' "$tmp/$name.md"; then :; else
    grep -q "would take this report over" "$tmp/$name.md" || { echo "FAIL $name: no JSON and no word why"; fail=1; }
    "$GPUDOCTOR" --root "$d/root" --json check --no-probe 2>/dev/null | wc -c > "$tmp/jn"
    [ $(( $(cat "$tmp/jn") + size )) -gt 60000 ] || { echo "FAIL $name: JSON left out though it fits"; fail=1; }
  fi
done
dgx="$tmp/nvidia-dgx2-16gpu.md"
grep -q '^### 15× Tesla V100-SXM3-32GB-H (sm_70)' "$dgx" && [ "$(grep -c '^| [0-9]* | 0000:' "$dgx")" = 15 ] ||
  { echo "FAIL dgx2: the 15 identical V100s are not one section with their addresses"; fail=1; }
h100="$tmp/nvidia-h100x8-pci-order.md"
grep -q '^<details><summary>gpudoctor check --json' "$h100" || { echo "FAIL h100x8: its JSON fits and is left out"; fail=1; }

# --redact
r="$tmp/red" && cp -r "$GD_SRCDIR/tests/fixtures/rx5700xt/root" "$r"
S=$r/home/alice/venv/lib/python3.11/site-packages
mkdir -p "$S/torch" "$S/torch-2.5.1+rocm6.2.dist-info" "$r/home/alice/venv/bin" "$r/.gpudoctor"
printf "__version__ = '2.5.1+rocm6.2'\nhip = '6.2.41133'\ncuda = None\n" > "$S/torch/version.py"
echo "home = /usr/bin" > "$r/home/alice/venv/pyvenv.cfg" && : > "$r/home/alice/venv/bin/python"
mkdir -p "$r/proc" && echo "BOOT_IMAGE=/vmlinuz root=/dev/sda1 amdgpu.ppfeaturemask=0xffffffff" > "$r/proc/cmdline"
printf 'VIRTUAL_ENV=/home/alice/venv\nPATH=/home/alice/venv/bin:/usr/bin\nHOME=/home/alice\n' > "$r/.gpudoctor/environ"
"$GPUDOCTOR" --root "$r" report --no-probe > "$tmp/plain.md" 2>/dev/null
"$GPUDOCTOR" --root "$r" report --no-probe --redact > "$tmp/red.md" 2>/dev/null
grep -q '/home/alice/venv' "$tmp/plain.md" && grep -q 'ppfeaturemask=0xffffffff' "$tmp/plain.md" ||
  { echo "FAIL redact: the test capture shows no home path or cmdline to redact"; fail=1; }
if grep -q -e alice -e 'BOOT_IMAGE' "$tmp/red.md" || ! grep -q '/home/USER/venv/lib/python3.11/site-packages' "$tmp/red.md" ||
   ! sed -n 3p "$tmp/red.md" | grep -q '^> Redacted'; then
  echo "FAIL --redact"; grep -n -e alice -e BOOT_IMAGE "$tmp/red.md" | head -3; fail=1
fi
"$GPUDOCTOR" --root "$r" --json report --redact > /dev/null 2>&1
[ $? = 3 ] || { echo "FAIL: --json report --redact should be refused"; fail=1; }
[ "$fail" = 0 ] && echo "ok: report on $n captured machines fits, groups identical GPUs, redacts"
exit "$fail"
