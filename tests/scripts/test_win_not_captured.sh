#!/usr/bin/env bash
# A registry-only capture (no fs/ part: `gather` on Windows without the file
# listing, or a registry export) proves nothing about the files: the same
# real machines with their fs/ part taken away must say "could not be
# checked", never "missing" with a reinstall step (issue #22 point 6).
#   AMD:    windows-rx5700xt-hip62-hip71 (HIP 6.2 and 7.1 SDKs, the driver's
#           amdhip64 in System32)
#   NVIDIA: windows-rtx4060-driver536-torch-cu130 (nvcuda.dll in System32)
set -u
GPUDOCTOR=${GPUDOCTOR:?set GPUDOCTOR to the built binary}
GD_SRCDIR=${GD_SRCDIR:?set GD_SRCDIR to the source tree}
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { printf 'ok   %s\n' "$1"; }
bad() { printf 'FAIL %s\n' "$1"; fail=1; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

for fx in windows-rx5700xt-hip62-hip71 windows-rtx4060-driver536-torch-cu130; do
	cp -a "$GD_SRCDIR/tests/fixtures/$fx/root" "$tmp/$fx"
	rm -rf "$tmp/$fx/fs"
	"$GPUDOCTOR" --root "$tmp/$fx" check --no-probe >"$tmp/$fx.txt" 2>&1
	"$GPUDOCTOR" --root "$tmp/$fx" --json check --no-probe >"$tmp/$fx.json" 2>/dev/null
done
a=$tmp/windows-rx5700xt-hip62-hip71
check "AMD without fs/: the HIP runtime and SDK 'could not be checked'" \
	'grep -q "could not be checked: this capture holds no file listing" "$a.txt"'
check "... no 'install or update AMD Software' step, no 'none in System32'" \
	'! grep -q "install or update AMD Software\|none in System32\|none under" "$a.txt"'
check "... the inventory says not captured" \
	'grep -q "driver HIP   not captured" "$a.txt" && grep -q "HIP SDK      not captured" "$a.txt"'
check "... the code win.hip_unchecked, status unknown (not cpu)" \
	'python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
v = [x for g in d[\"gpus\"] for x in [g[\"verdict\"]]][0]
codes = [f[\"code\"] for f in v[\"facts\"]]
assert \"win.hip_unchecked\" in codes, codes
assert v[\"status\"] == \"unknown\", v[\"status\"]
" "$a.json"'
check "... with fs/ the same machine still finds its runtime (control)" \
	'"$GPUDOCTOR" --root "$GD_SRCDIR/tests/fixtures/windows-rx5700xt-hip62-hip71/root" check --no-probe 2>&1 | grep -q "driver HIP   amdhip64"'
n=$tmp/windows-rtx4060-driver536-torch-cu130
check "NVIDIA without fs/: nvcuda.dll 'could not be checked', no reinstall step" \
	'grep -q "nvcuda.dll could not be checked" "$n.txt" && ! grep -q "reinstall the NVIDIA driver" "$n.txt"'
exit $fail
