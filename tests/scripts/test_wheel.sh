#!/usr/bin/env bash
# Wheels with the program inside (issue #24, tools/make_wheel.py):
# 1. a Linux wheel installs offline into a plain venv (no setuptools, no
#    wheel, no build backend: `pip install --no-index X.whl`), and right
#    after install `import gpudoctor; gpudoctor.detect()` answers through
#    the bundled program, with no GPUDOCTOR_BIN and nothing on PATH;
#    `python -m gpudoctor --version` runs it; pip's RECORD check passes
#    (pip verifies every sha256 on install; `pip uninstall` removes all);
# 2. the tag: a program that needs a shared library other than glibc's
#    (build/gpudoctor needs jansson) is refused; the static program
#    (GD_STATIC_BIN, `make static`), when built, gets manylinux_2_X from
#    its GLIBC_ symbol versions, and installs and answers the same way;
# 3. Windows: no Windows Python in Debian's Wine, so the win_amd64 wheel
#    is checked as a zip (RECORD hashes, gpudoctor/bin/gpudoctor.exe) and
#    the package's own lookup, with sys.platform "win32", finds the exe in
#    the unpacked wheel; the exe itself runs under Wine when Wine works.
set -u
: "${GPUDOCTOR:?}" "${GD_SRCDIR:?}"
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3)
"$py" -c 'import venv, ensurepip' 2>/dev/null ||
  { echo "skipped: no python3 with venv and ensurepip (Debian: python3-venv)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
mk="$GD_SRCDIR/tools/make_wheel.py"
fixture="$GD_SRCDIR/tests/fixtures/rx5700xt/root"

# 2. a program with non-glibc libraries is refused
if "$py" "$mk" --binary "$GPUDOCTOR" --out "$tmp/no" > "$tmp/refused" 2>&1; then
  echo "FAIL: make_wheel took a program that needs $(objdump -p "$GPUDOCTOR" | awk '/NEEDED/ && $2 !~ /^lib(c|m)\.so/ {print $2; exit}')"; fail=1
elif ! grep -q "make static" "$tmp/refused"; then
  cat "$tmp/refused"; echo "FAIL: refusal does not say to build it static"; fail=1
fi

install_and_detect() { # WHEEL LABEL
  local v="$tmp/venv-$2"
  "$py" -m venv "$v" || { echo "FAIL $2: venv"; return 1; }
  # a plain venv: no setuptools, no wheel needed
  env -i PATH=/usr/bin:/bin HOME="$tmp" "$v/bin/python" -m pip install -q \
    --no-index --disable-pip-version-check "$1" > "$tmp/pip-$2.log" 2>&1 ||
    { cat "$tmp/pip-$2.log"; echo "FAIL $2: pip install"; return 1; }
  out=$(cd "$tmp" && env -i PATH=/nonexistent HOME="$tmp" PYTHONIOENCODING=utf-8 \
    "$v/bin/python" -c '
import gpudoctor, sys
print(gpudoctor.find_binary())
d = gpudoctor.detect(root=sys.argv[1])
print(d.error or d.lines[0])' "$fixture" 2>&1)
  case "$out" in
    "$v"/lib/python3*/site-packages/gpudoctor/bin/gpudoctor$'\n'"AMD Radeon RX 5700 (RDNA 1, gfx1010): usable with a workaround"*) ;;
    *) echo "FAIL $2: detect() after install: $out"; return 1 ;;
  esac
  out=$(env -i PATH=/nonexistent "$v/bin/python" -m gpudoctor --version 2>&1)
  case "$out" in gpudoctor\ *) ;; *) echo "FAIL $2: python -m gpudoctor: $out"; return 1 ;; esac
  env -i PATH=/usr/bin:/bin HOME="$tmp" "$v/bin/python" -m pip uninstall -q -y gpudoctor \
    > /dev/null 2>&1 && [ ! -e "$v"/lib/python3*/site-packages/gpudoctor ] ||
    { echo "FAIL $2: pip uninstall left files"; return 1; }
  echo "ok: $(basename "$1") installs offline in a plain venv; detect() uses the bundled program"
}

# 1. the test build's program (it needs this machine's jansson: tagged by
# hand here; `make wheel` tags from the static build)
w=$("$py" "$mk" --binary "$GPUDOCTOR" --plat linux_x86_64 --out "$tmp/dist") ||
  { echo "FAIL: make_wheel"; exit 1; }
install_and_detect "$w" build || fail=1

# 2. the static program, when built
static=${GD_STATIC_BIN:-$GD_SRCDIR/build-static/gpudoctor}
if [ -x "$static" ]; then
  w=$("$py" "$mk" --binary "$static" --out "$tmp/dist-static") || { echo "FAIL: static wheel"; fail=1; }
  case $w in
    */gpudoctor-*-py3-none-manylinux_2_*_x86_64.whl)
      want=$(objdump -T "$static" | grep -o 'GLIBC_2\.[0-9]*' | sort -t. -k2 -n | tail -1)
      case $w in *"manylinux_${want#GLIBC_}"|*"manylinux_2_${want#GLIBC_2.}_x86_64.whl") ;;
        *) echo "FAIL: tag of $w does not match $want"; fail=1 ;; esac
      install_and_detect "$w" static || fail=1 ;;
    *) echo "FAIL: static wheel name $w"; fail=1 ;;
  esac
else
  echo "SKIPPED static wheel: no $static ('make static')"
fi

# 3. Windows
exe=${GD_WIN_EXE:-$GD_SRCDIR/build-win/gpudoctor.exe}
if [ ! -f "$exe" ]; then
  echo "SKIPPED Windows wheel: no $exe ('make windows')"
else
  w=$("$py" "$mk" --binary "$exe" --out "$tmp/dist-win") || { echo "FAIL: win wheel"; exit 1; }
  case $w in */gpudoctor-*-py3-none-win_amd64.whl) ;; *) echo "FAIL: win wheel name $w"; fail=1 ;; esac
  "$py" - "$w" "$tmp/win" <<'PY' || fail=1
import base64, hashlib, sys, zipfile
whl, dest = sys.argv[1], sys.argv[2]
z = zipfile.ZipFile(whl)
rec = [n for n in z.namelist() if n.endswith(".dist-info/RECORD")][0]
for line in z.read(rec).decode().splitlines():
    name, h, size = line.rsplit(",", 2)
    if name == rec:
        continue
    data = z.read(name)
    d = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    assert h == "sha256=" + d and int(size) == len(data), "RECORD: " + name
assert z.read("gpudoctor/bin/gpudoctor.exe")[:2] == b"MZ"
assert b"Tag: py3-none-win_amd64" in z.read(rec.replace("RECORD", "WHEEL"))
z.extractall(dest)
sys.path.insert(0, dest)
import gpudoctor._run as r
sys.platform = "win32"  # the lookup as on Windows (no execute bit there)
import os
got = r.packaged_binary(os.path.join(dest, "gpudoctor"))
assert got == os.path.join(dest, "gpudoctor", "bin", "gpudoctor.exe"), got
print("ok: win_amd64 wheel: RECORD hashes, gpudoctor/bin/gpudoctor.exe found by the package's lookup")
PY
  wr="$GD_SRCDIR/tools/wine-run.sh"
  if [ -x "$wr" ]; then
    out=$("$wr" "${GD_WIN_BUILD:-$GD_SRCDIR/build-win}" "$tmp/win/gpudoctor/bin/gpudoctor.exe" --version 2>/dev/null | tr -d '\r')
    case "$out" in gpudoctor\ *) echo "ok: the wheel's exe runs under Wine: $out" ;;
      *) echo "SKIPPED Wine run of the exe (Wine gave: ${out:-nothing})" ;; esac
  fi
fi
[ "$fail" = 0 ] && echo "ok: wheels"
exit "$fail"
