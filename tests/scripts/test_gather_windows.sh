#!/usr/bin/env bash
# gather and Windows captures (issue #14, tests/fixtures/windows/FORMAT.md):
#  - every windows-* capture: replay -> gather -> replay gives the same
#    report (this binary), the archive in the documented layout;
#  - Linux captures replayed by the Windows build under Wine give the same
#    report as here, links included (.gpudoctor/links.tsv: Wine cannot read
#    a symlink's target);
#  - gather by gpudoctor.exe in Wine's own environment (its real registry
#    and file system, in a private WINEPREFIX set up with `reg add` and a
#    MinGW-built DLL with a version resource in system32), replayed here and
#    by the exe: the same report; its .reg files read back by Wine's
#    `reg import`; one windows-* capture round trip done by the exe.
set -u
: "${GPUDOCTOR:?built binary}" "${GD_SRCDIR:?source dir}"
command -v jq >/dev/null || { echo "skipped: jq not installed"; exit 77; }
FX=$GD_SRCDIR/tests/fixtures
EXE=${GD_WIN_EXE:-$GD_SRCDIR/build-win/gpudoctor.exe}
WINE_RUN=$GD_SRCDIR/tools/wine-run.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 checks=0
ok() { checks=$((checks + 1)); [ "$1" = 0 ] || { echo "FAIL: $2"; fail=$((fail + 1)); }; }

report() { # gpudoctor-command root -> normalised check --json on stdout
	"$@" --json check --no-probe 2>/dev/null | tr -d '\r' |
	  jq -S 'del(.root) | .diagnostics |= map(select(.source != ".gpudoctor/environ"))'
}
same() { # label, file, file
	diff -u "$2" "$3" > "$tmp/diff" 2>&1
	ok $? "$1: $(head -c 3000 "$tmp/diff")"
}

# ---- windows-* captures: replay -> gather -> replay (native) ----
for d in "$FX"/windows-*/root; do
	name=$(basename "$(dirname "$d")")
	cap=$tmp/$name.tar.gz x=$tmp/$name
	"$GPUDOCTOR" --root "$d" gather "$cap" > "$tmp/out" 2>&1
	ok $? "$name: gather failed: $(cat "$tmp/out")"
	mkdir -p "$x" && tar xzf "$cap" -C "$x"
	ok $? "$name: archive does not unpack"
	for f in registry/10-display-class.reg .gpudoctor/environ; do
		[ -f "$x/$f" ]; ok $? "$name: no $f in the capture"
	done
	head -c 2 "$x/registry/30-environment.reg" | od -An -tx1 | grep -q 'ff fe'
	ok $? "$name: 30-environment.reg is not UTF-16LE with a BOM"
	report "$GPUDOCTOR" --root "$d" > "$tmp/a.json"
	report "$GPUDOCTOR" --root "$x" > "$tmp/b.json"
	same "$name: replay of its gather differs" "$tmp/a.json" "$tmp/b.json"
	# a DLL is stored cut down (a PE file) or empty, never whole
	big=$(find "$x/fs" -type f -size +64k | head -n1)
	[ -z "$big" ]; ok $? "$name: $big stored whole"
done
echo "ok windows-* round trips ($checks checks)"

if [ ! -f "$EXE" ]; then
	echo "skipped (Wine part): $EXE not built (make windows)"
	echo "test_gather_windows: $checks checks, $fail failed"; [ "$fail" = 0 ]; exit
fi
if ! command -v wine64 >/dev/null && ! command -v wine >/dev/null &&
   [ ! -x /usr/lib/wine/wine64 ]; then
	echo "skipped (Wine part): wine not installed (Debian: wine64)"
	echo "test_gather_windows: $checks checks, $fail failed"; [ "$fail" = 0 ]; exit
fi

# A private prefix: a hard-linked copy of the build's (Wine replaces the
# registry files it saves, so the original is left as it was).
[ -f "$GD_SRCDIR/build-win/wineprefix/system.reg" ] ||
  "$WINE_RUN" "$GD_SRCDIR/build-win" "$EXE" --version >/dev/null 2>&1
mkdir -p "$tmp/bw" && cp -al "$GD_SRCDIR/build-win/wineprefix" "$tmp/bw/wineprefix" &&
  rm -f "$tmp/bw/wineprefix/"*.reg && cp "$GD_SRCDIR/build-win/wineprefix/"*.reg "$tmp/bw/wineprefix/"
ok $? "no Wine prefix to copy"
W() { "$WINE_RUN" "$tmp/bw" "$EXE" "$@"; }
WR() { "$WINE_RUN" "$tmp/bw" "$@"; } # a program of Wine's own (reg)
zpath() { printf 'Z:%s' "$1" | tr / '\\'; }

# ---- Linux captures replayed under Wine (symlinks from links.tsv) ----
# rx5700xt: a relative driver link; nvidia-h200: links through links, and
# absolute ones whose targets Wine looks for on this machine
for m in rx5700xt nvidia-h200; do
	x=$tmp/lin-$m
	mkdir -p "$x" && "$GPUDOCTOR" --root "$FX/$m/root" gather "$tmp/lin-$m.tar.gz" >/dev/null 2>&1 &&
	  tar xzf "$tmp/lin-$m.tar.gz" -C "$x"
	ok $? "$m: native gather"
	report "$GPUDOCTOR" --root "$x" > "$tmp/a.json"
	report W --root "$(zpath "$x")" > "$tmp/b.json"
	same "$m: Wine replay of a Linux capture differs" "$tmp/a.json" "$tmp/b.json"
done
grep -q '"driver": "nvidia"' "$tmp/b.json"
ok $? "Wine replay: no bound driver read through the capture's links"

# ---- gather in Wine's own environment ----
pfx=$tmp/bw/wineprefix
# one `reg import` (each Wine start costs seconds): the HIP SDK's machine
# variables, a per-user Python and a 32-bit one (PEP 514 keys)
cat > "$tmp/setup.txt" <<'EOF'
Windows Registry Editor Version 5.00

[HKEY_LOCAL_MACHINE\SYSTEM\CurrentControlSet\Control\Session Manager\Environment]
"HIP_PATH"="C:\\Program Files\\AMD\\ROCm\\6.2\\"
"HIP_PATH_62"="C:\\Program Files\\AMD\\ROCm\\6.2\\"

[HKEY_CURRENT_USER\SOFTWARE\Python\PythonCore\3.12\InstallPath]
@="C:\\Python312\\"

[HKEY_LOCAL_MACHINE\SOFTWARE\WOW6432Node\Python\PythonCore\3.11-32\InstallPath]
@="C:\\Python311-32\\"
EOF
WR reg import "$(zpath "$tmp/setup.txt")" >/dev/null 2>&1
ok $? "reg import in the private prefix"
# a real DLL: MinGW-built, a version resource, importing KERNEL32
cat > "$tmp/v.rc" <<'EOF'
1 VERSIONINFO
FILEVERSION 10,0,3628,0
PRODUCTVERSION 6,2,41134,0
BEGIN
END
EOF
printf 'int __stdcall DllMain(void *h, unsigned r, void *p) { (void)h; (void)r; (void)p; return 1; }\n' > "$tmp/d.c"
sys32=$pfx/drive_c/windows/system32 sdk="$pfx/drive_c/Program Files/AMD/ROCm/6.2/bin"
if x86_64-w64-mingw32-windres "$tmp/v.rc" -O coff -o "$tmp/v.o" 2>/dev/null &&
   x86_64-w64-mingw32-gcc -shared -o "$tmp/amdhip64_6.dll" "$tmp/d.c" "$tmp/v.o" 2>/dev/null; then
	cp "$tmp/amdhip64_6.dll" "$sys32/amdhip64_6.dll"
	mkdir -p "$sdk/rocblas/library" && cp "$tmp/amdhip64_6.dll" "$sdk/amdhip64_6.dll" &&
	  : > "$sdk/rocblas/library/TensileLibrary_lazy_gfx1030.dat" && : > "$sdk/amd_comgr0602.dll"
	ok $? "files in the private prefix"
else
	echo "note: no MinGW-w64 windres/gcc: the live gather has no DLL"
fi
W gather "$(zpath "$tmp/live.tar.gz")" > "$tmp/out" 2>&1
ok $? "wine: gather failed: $(cat "$tmp/out")"
mkdir -p "$tmp/live" && tar xzf "$tmp/live.tar.gz" -C "$tmp/live"
ok $? "wine: the live capture does not unpack with GNU tar"
for f in 10-display-class 20-enum-pci 30-environment 40-python; do
	[ -f "$tmp/live/registry/$f.reg" ]; ok $? "wine: no registry/$f.reg"
done
iconv -f UTF-16 -t UTF-8 "$tmp/live/registry/40-python.reg" 2>/dev/null | grep -qF 'WOW6432Node\Python\PythonCore\3.11-32\InstallPath]'
ok $? "wine: 40-python.reg lacks the WOW6432Node key"
if [ -f "$tmp/amdhip64_6.dll" ]; then
	d=$(find "$tmp/live/fs" -ipath '*/system32/amdhip64_6.dll')
	[ -n "$d" ] && [ "$(stat -c %s "$d")" -lt "$(stat -c %s "$tmp/amdhip64_6.dll")" ] &&
	  strings -el "$d" >/dev/null
	ok $? "wine: system32/amdhip64_6.dll not stored cut down ($d)"
	report "$GPUDOCTOR" --root "$tmp/live" | grep -q "10.0.3628.0"
	ok $? "wine: the replay does not read the DLL's FileVersion 10.0.3628.0"
fi
grep -q '^HIP_PATH=' "$tmp/live/.gpudoctor/environ"
ok $? "wine: environ lacks HIP_PATH"
report W > "$tmp/live-wine.json"
report "$GPUDOCTOR" --root "$tmp/live" > "$tmp/replay-lin.json"
report W --root "$(zpath "$tmp/live")" > "$tmp/replay-wine.json"
same "wine live capture: replay here differs from the exe's replay" "$tmp/replay-lin.json" "$tmp/replay-wine.json"
jq -S 'del(.diagnostics)' "$tmp/live-wine.json" > "$tmp/l1.json"
jq -S 'del(.diagnostics)' "$tmp/replay-lin.json" > "$tmp/l2.json"
same "wine live capture: replay differs from the live run" "$tmp/l1.json" "$tmp/l2.json"
# Wine rewrites the display class key at each start (an adapter added there
# does not stay): its own "Wine Adapter" (PCI 0000:0000) is what is judged
iconv -f UTF-16 -t UTF-8 "$tmp/live/registry/20-enum-pci.reg" | grep -qF 'VEN_0000&DEV_0000'
ok $? "wine live capture: Wine's adapter is not in 20-enum-pci.reg"
jq -e '.exit_code == 2 and .platform == "windows"' "$tmp/replay-lin.json" >/dev/null
ok $? "wine live capture: the replay is not Wine's no-GPU machine"

# the exported files are what Wine's regedit imports: into a fresh key
iconv -f UTF-16 -t UTF-8 "$tmp/live/registry/30-environment.reg" |
  sed 's/\\Session Manager\\Environment\]/\\gdtest-import]/' |
  { printf '\xff\xfe'; iconv -f UTF-8 -t UTF-16LE; } > "$tmp/imp.reg"
WR reg import "$(zpath "$tmp/imp.reg")" >/dev/null 2>&1
ok $? "wine: reg import of a gathered .reg failed"
WR reg query 'HKLM\SYSTEM\CurrentControlSet\Control\gdtest-import' /v HIP_PATH_62 2>/dev/null | grep -qF 'ROCm\6.2'
ok $? "wine: the imported key lacks HIP_PATH_62"

# ---- a windows-* capture: replay -> gather -> replay, all by the exe ----
d=$FX/windows-rx5700xt-hip62-hip71/root
W --root "$(zpath "$d")" gather "$(zpath "$tmp/wx.tar.gz")" >/dev/null 2>&1 &&
  mkdir -p "$tmp/wx" && tar xzf "$tmp/wx.tar.gz" -C "$tmp/wx"
ok $? "wine: gather of a Windows capture"
report "$GPUDOCTOR" --root "$d" > "$tmp/a.json"
report W --root "$(zpath "$tmp/wx")" > "$tmp/b.json"
same "wine: replay of its gather differs" "$tmp/a.json" "$tmp/b.json"
report "$GPUDOCTOR" --root "$tmp/wx" > "$tmp/c.json"
same "the exe's gather replayed here differs" "$tmp/a.json" "$tmp/c.json"

echo "test_gather_windows: $checks checks, $fail failed"
[ "$fail" = 0 ]
