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
  case $d in
  */windows-*) continue ;; # Windows captures: test_gather_windows.sh
  esac
  roundtrip "$(basename "$(dirname "$d")")" --root "$d"
  n=$((n + 1))
done
# The deep-switch machine: its /sys/bus/pci/devices link (118 bytes) is in
# the archive with its exact target (pax linkpath), read back by GNU tar.
deep=$GD_SRCDIR/tests/fixtures/rx5700xt-deep-switch/root
want=$(readlink "$deep/sys/bus/pci/devices/0000:28:00.0")
got=$(readlink "$tmp/rx5700xt-deep-switch/sys/bus/pci/devices/0000:28:00.0")
if [ "${#want}" -le 100 ] || [ "$got" != "$want" ]; then
  echo "FAIL deep-switch: link target '$got', want '$want' (${#want} bytes)"; fail=$((fail + 1))
fi
if command -v python3 >/dev/null && ! python3 -c 'import sys, tarfile
m = {i.name: i for i in tarfile.open(sys.argv[1])}
assert m["sys/bus/pci/devices/0000:28:00.0"].linkname == sys.argv[2]' "$tmp/rx5700xt-deep-switch.tar.gz" "$want"; then
  echo "FAIL deep-switch: Python's tarfile reads another link target"; fail=$((fail + 1))
fi

# Reproducible: the same tree gathered twice (a second apart) is the same
# archive, byte for byte; SOURCE_DATE_EPOCH sets every mtime.
"$GPUDOCTOR" --root "$deep" gather "$tmp/again.tar.gz" >/dev/null 2>&1
sleep 1
"$GPUDOCTOR" --root "$deep" gather "$tmp/again2.tar.gz" >/dev/null 2>&1
cmp -s "$tmp/again.tar.gz" "$tmp/again2.tar.gz" || { echo "FAIL: two gathers of one tree differ"; fail=$((fail + 1)); }
cmp -s "$tmp/again.tar.gz" "$tmp/rx5700xt-deep-switch.tar.gz" || { echo "FAIL: gather output depends on the file name or time"; fail=$((fail + 1)); }
SOURCE_DATE_EPOCH=1700000000 "$GPUDOCTOR" --root "$deep" gather "$tmp/sde.tar.gz" >/dev/null 2>&1
[ "$(tar tvzf "$tmp/sde.tar.gz" --full-time --utc | awk '{print $4}' | sort -u)" = 2023-11-14 ] ||
  { echo "FAIL: SOURCE_DATE_EPOCH not used as the mtime"; fail=$((fail + 1)); }
[ "$(od -An -tx1 -j4 -N4 "$tmp/again.tar.gz" | tr -d ' ')" = 00000000 ] ||
  { echo "FAIL: the gzip header holds a timestamp"; fail=$((fail + 1)); }

# Destinations (reliability D4, D12): an existing file is kept without
# --force; a symlink is not written through; a FIFO is refused at once.
expect_refused() { # label, want-in-message, args...
  local label=$1 want=$2; shift 2
  if timeout 10 "$GPUDOCTOR" --root "$deep" gather "$@" > "$tmp/out" 2> "$tmp/err"; then
    echo "FAIL $label: gather succeeded"; fail=$((fail + 1))
  elif [ "$(wc -l < "$tmp/err")" != 1 ] || ! grep -q -- "$want" "$tmp/err"; then
    echo "FAIL $label: want one line with '$want', got:"; cat "$tmp/err"; fail=$((fail + 1))
  fi
}
echo precious > "$tmp/notes.txt"
expect_refused existing "exists (use --force to replace it)" "$tmp/notes.txt"
[ "$(cat "$tmp/notes.txt")" = precious ] || { echo "FAIL: an existing file was replaced"; fail=$((fail + 1)); }
"$GPUDOCTOR" --root "$deep" gather --force "$tmp/notes.txt" >/dev/null 2>&1 && cmp -s "$tmp/notes.txt" "$tmp/again.tar.gz" ||
  { echo "FAIL: --force did not replace the file with the archive"; fail=$((fail + 1)); }
echo precious > "$tmp/target"; ln -s target "$tmp/link.tar.gz"
expect_refused symlink "symbolic link" --force "$tmp/link.tar.gz"
[ "$(cat "$tmp/target")" = precious ] || { echo "FAIL: written through a symlink"; fail=$((fail + 1)); }
mkfifo "$tmp/fifo"
expect_refused fifo "FIFO" "$tmp/fifo"
expect_refused missing-dir "No such file" "$tmp/no/such/dir/c.tar.gz"
ls "$tmp" | grep -q '\.tmp\.' && { echo "FAIL: a temporary file was left behind"; fail=$((fail + 1)); }

# What the archive cannot hold is said, never counted as stored: a variable
# whose value has a newline (environ is one NAME=VALUE a line) makes gather
# list it and exit 3; the rest of the archive is still written.
ROCM_PATH=$'/opt/rocm\nx' "$GPUDOCTOR" --root "$deep" --json gather "$tmp/nl.tar.gz" > "$tmp/nl.json" 2> "$tmp/nl.err"; rc=$?
if [ $rc != 3 ] || ! grep -q "not stored: ROCM_PATH: " "$tmp/nl.err" || [ ! -s "$tmp/nl.tar.gz" ] ||
   ! jq -e '.failed == 1 and (.failures[0] | startswith("ROCM_PATH: "))' "$tmp/nl.json" >/dev/null; then
  echo "FAIL: an entry not stored is not reported (exit $rc)"; cat "$tmp/nl.err"; fail=$((fail + 1))
fi

# A full disk: a one-line reason, the old file untouched, nothing left
# behind. A 64 KiB tmpfs in a private mount namespace (skipped when the
# kernel or container does not allow one).
full_disk() {
  local mnt=$tmp/small
  mkdir -p "$mnt"
  unshare -rm sh -c '
    mount -t tmpfs -o size=64k tmpfs "$1" || exit 77
    head -c 40000 /dev/urandom > "$1/old.tar.gz"; sum=$(md5sum < "$1/old.tar.gz")
    "$2" --root "$3" gather --force "$1/old.tar.gz" 2> "$1/../full.err" && exit 1
    [ "$(md5sum < "$1/old.tar.gz")" = "$sum" ] || exit 2
    [ "$(ls "$1")" = old.tar.gz ] || exit 3
    exit 0' sh "$mnt" "$GPUDOCTOR" "$1"
}
cp -a "$deep" "$tmp/bigroot"
head -c 3000000 /dev/urandom > "$tmp/bigroot/usr/share/misc/pci.ids"
full_disk "$tmp/bigroot"; rc=$?
if [ $rc = 77 ]; then
  echo "skipped full disk: no tmpfs mount here"
elif [ $rc != 0 ] || [ "$(wc -l < "$tmp/full.err")" != 1 ] || ! grep -q "No space left on device" "$tmp/full.err"; then
  echo "FAIL full disk (step $rc):"; cat "$tmp/full.err" 2>/dev/null; fail=$((fail + 1))
else
  echo "ok full disk: $(cat "$tmp/full.err")"
fi

echo "gather: $n round trips, $fail failures"
[ "$fail" = 0 ]
