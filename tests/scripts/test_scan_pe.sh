#!/usr/bin/env bash
# gpudoctor scan on real Windows PE files built here with MinGW-w64: the
# RDNA1 field report's failure (docs/windows.md, F)
# rebuilt in miniature. amdhip64_6.dll is a real DLL exporting hipInit (what
# HIP SDK 6.2 installs); ct2.dll imports hipInit from amdhip64_7.dll through
# an import library made by dlltool from a .def file (what the ROCm 7
# CTranslate2 wheel does) and carries, in a .hip_fat section, the real
# offload bundle hipcc puts in .hip_fatbin of a Linux library (the name
# link.exe / lld-link truncate ".hip_fatbin" to). Also: the long name
# .hip_fatbin kept by GNU ld through the COFF string table, a .nv_fatbin
# from nvcc, a delay-load import, a Windows wheel, and bad input.
# Build outputs go to a temp dir.
set -u
GD=${GPUDOCTOR:?GPUDOCTOR not set}
CC=x86_64-w64-mingw32-gcc
DLLTOOL=x86_64-w64-mingw32-dlltool
OBJCOPY=x86_64-w64-mingw32-objcopy
OBJDUMP=x86_64-w64-mingw32-objdump
have() { command -v "$1" >/dev/null 2>&1; }
have "$CC" || { echo "skipped: $CC not installed (gcc-mingw-w64-x86-64-win32)"; exit 77; }
have jq || { echo "skipped: jq not installed"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0 ran=0 skipped=""
ok() { ran=$((ran + 1)); echo "ok: $*"; }
bad() { fails=$((fails + 1)); echo "FAIL: $*"; }

targets() { # file [scan options] -> "kind:target[:features]" sorted
	"$GD" scan --json "$@" 2>/dev/null |
		jq -r '.files[0].targets[] | "\(.kind):\(.target)\(if .features != "" then ":" + .features else "" end)"' |
		sort | tr '\n' ' '
}
expect_targets() { # file want...
	local f=$1 got want
	shift
	want=""
	[ $# -gt 0 ] && want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	got=$(targets "$f")
	[ "$got" = "$want" ] && ok "targets of $(basename "$f"): $got" ||
		bad "targets of $f: got '$got', want '$want'"
}
need() { # file dll [options] -> the needed[] entry as JSON
	local f=$1 d=$2
	shift 2
	"$GD" scan --json "$@" "$f" 2>/dev/null |
		jq -c --arg d "$d" '.files[0].needed[] | select(.soname == $d)'
}
# section names as written in the section table (8 bytes each)
rawnames() {
	perl -e 'open F, "<", $ARGV[0] or die; binmode F; local $/; $b = <F>;
		$pe = unpack("V", substr($b, 0x3c, 4)); ($n, $o) = unpack("v x12 v", substr($b, $pe + 6, 16));
		for $i (0 .. $n - 1) { ($s = substr($b, $pe + 24 + $o + 40 * $i, 8)) =~ s/\0.*//s; print "$s\n" }' "$1"
}
# the end of the section table, rounded up: where an added section can go
next_va() {
	"$OBJDUMP" -h "$1" | perl -ne 'if (/^\s*\d+\s+\S+\s+([0-9a-f]+)\s+([0-9a-f]+)/) {
		$e = hex($1) + hex($2); $m = $e if $e > $m } END { printf "0x%x", ($m + 0xfff) & ~0xfff }'
}
add_section() { # in name data out
	"$OBJCOPY" --add-section "$2=$3" --set-section-flags "$2=contents,readonly,data" \
		--change-section-address "$2=$(next_va "$1")" "$1" "$4"
}

# --- the DLLs of the field report ------------------------------------------
mkdir -p "$T/sdk62" "$T/sdk71" "$T/upper"
cat >"$T/hip.c" <<'EOF'
__declspec(dllexport) int hipInit(unsigned flags) { return (int)flags; }
EOF
cat >"$T/amdhip64_7.def" <<'EOF'
LIBRARY amdhip64_7.dll
EXPORTS
hipInit
EOF
cat >"$T/ct2.c" <<'EOF'
__declspec(dllimport) int hipInit(unsigned flags);
__declspec(dllexport) int ct2_init(void) { return hipInit(0); }
EOF
if ! { "$CC" -shared -o "$T/sdk62/amdhip64_6.dll" "$T/hip.c" &&
	"$CC" -shared -o "$T/sdk71/amdhip64_7.dll" "$T/hip.c" &&
	"$DLLTOOL" -d "$T/amdhip64_7.def" -l "$T/libamdhip64_7.a" &&
	mkdir -p "$T/host" && "$CC" -shared -o "$T/host/ct2.dll" "$T/ct2.c" -L"$T" -lamdhip64_7 &&
	cp "$T/host/ct2.dll" "$T/ct2-host.dll"; } 2>"$T/cc.err"; then
	bad "mingw build failed: $(tail -n3 "$T/cc.err")"
	exit 1
fi
cp "$T/sdk71/amdhip64_7.dll" "$T/upper/AMDHIP64_7.DLL"
"$OBJDUMP" -p "$T/ct2-host.dll" | grep -q "DLL Name: amdhip64_7.dll" &&
	ok "ct2-host.dll imports amdhip64_7.dll (objdump)" || bad "import library did not work"

# --- a real HIP offload bundle in .hip_fat --------------------------------
bundle=""
if have hipcc; then
	cat >"$T/k.hip" <<'EOF'
#include <hip/hip_runtime.h>
__global__ void k(float *x) { x[threadIdx.x] *= 2.0f; }
extern "C" void launch(float *d) { hipLaunchKernelGGL(k, dim3(1), dim3(1), 0, 0, d); }
EOF
	if hipcc --offload-arch=gfx900 --offload-arch=gfx1030 --offload-arch=gfx90a:xnack- \
		-fPIC -shared -o "$T/libhip.so" "$T/k.hip" 2>"$T/hipcc.err" &&
		objcopy -O binary --only-section=.hip_fatbin "$T/libhip.so" "$T/bundle.bin"; then
		bundle="$T/bundle.bin"
	else
		bad "hipcc failed: $(tail -n3 "$T/hipcc.err")"
	fi
else
	skipped="$skipped hipcc"
fi
hipwant="amdgcn:gfx1030 amdgcn:gfx900 amdgcn:gfx90a:xnack-"
if [ -n "$bundle" ]; then
	add_section "$T/ct2-host.dll" .hip_fat "$bundle" "$T/ct2.dll" ||
		bad "objcopy --add-section .hip_fat failed"
	# shellcheck disable=SC2086
	expect_targets "$T/ct2.dll" $hipwant
	"$GD" scan --gpu gfx1010 "$T/ct2.dll" >"$T/out"
	rc=$?
	[ $rc = 1 ] && grep -q "no code for gfx1010 (has: " "$T/out" &&
		ok "gfx1010: no code, exit 1" || bad "gfx1010 verdict (rc $rc): $(cat "$T/out")"
	# GNU ld keeps the full name ".hip_fatbin" as "/4" + string table
	printf '\t.section .hip_fatbin,"dr"\n\t.p2align 12\n\t.incbin "%s"\n' "$bundle" >"$T/fat.s"
	"$CC" -shared -Wl,--enable-long-section-names -o "$T/ct2-long.dll" "$T/ct2.c" "$T/fat.s" -L"$T" -lamdhip64_7 &&
		"$OBJDUMP" -h "$T/ct2-long.dll" | grep -q " .hip_fatbin " &&
		[ "$(rawnames "$T/ct2-long.dll" | grep -c '^/[0-9]')" -gt 1 ] &&
		ok "ct2-long.dll names .hip_fatbin (and .debug_*) through the string table" ||
		bad "no long section name in ct2-long.dll"
	# shellcheck disable=SC2086
	expect_targets "$T/ct2-long.dll" $hipwant
	# the same bundle compressed (CCOB v3, zstd), as clang --offload-compress
	# writes it (header: docs/scan.md, "Sources")
	if have zstd; then
		zstd -q -19 -c "$bundle" >"$T/b.zst"
		perl -e 'print pack("a4vvQ<Q<Q<", "CCOB", 3, 1, 32 + $ARGV[0], $ARGV[1], 0)' \
			"$(stat -c %s "$T/b.zst")" "$(stat -c %s "$bundle")" >"$T/ccob.bin"
		cat "$T/b.zst" >>"$T/ccob.bin"
		add_section "$T/ct2-host.dll" .hip_fat "$T/ccob.bin" "$T/ct2-ccob.dll"
		# shellcheck disable=SC2086
		expect_targets "$T/ct2-ccob.dll" $hipwant
		"$GD" scan --json "$T/ct2-ccob.dll" | jq -e '[.files[0].targets[] | .container == "ccob-zstd" and .compressed] | all' >/dev/null &&
			ok "compressed bundle in .hip_fat: ccob-zstd" || bad "ccob container"
	else
		skipped="$skipped zstd"
	fi
else
	cp "$T/ct2-host.dll" "$T/ct2.dll"
fi

# --- a real CUDA fatbin in .nv_fatbin --------------------------------------
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
if [ -x "$NVCC" ]; then
	printf '__global__ void k(float *x) { x[threadIdx.x] *= 2.0f; }\n' >"$T/k.cu"
	if "$NVCC" -fatbin -gencode arch=compute_80,code=sm_80 \
		-gencode arch=compute_90,code=compute_90 -o "$T/k.fatbin" "$T/k.cu" 2>"$T/nvcc.err"; then
		add_section "$T/ct2-host.dll" .nv_fatbin "$T/k.fatbin" "$T/ct2-cuda.dll" &&
			expect_targets "$T/ct2-cuda.dll" sass:sm_80 ptx:compute_90
		add_section "$T/ct2-host.dll" .nv_fatb "$T/k.fatbin" "$T/ct2-cuda8.dll" &&
			expect_targets "$T/ct2-cuda8.dll" sass:sm_80 ptx:compute_90
	else
		bad "nvcc failed: $(tail -n3 "$T/nvcc.err")"
	fi
else
	skipped="$skipped nvcc"
fi
expect_targets "$T/ct2-host.dll" # host code only: no targets

# --- the DLLs it needs -----------------------------------------------------
mkdir -p "$T/app" && cp "$T/ct2.dll" "$T/app/"
n=$(need "$T/app/ct2.dll" amdhip64_7.dll --dll-path "$T/sdk62")
want="needs amdhip64_7.dll; found amdhip64_6.dll in $T/sdk62 (HIP SDK 6.x): the build is for ROCm 7"
[ "$(jq -r .found <<<"$n")" = false ] && [ "$(jq -r .note <<<"$n")" = "$want" ] &&
	ok "amdhip64_7.dll missing: $want" || bad "amdhip64_7.dll need: $n"
"$GD" scan --dll-path "$T/sdk62" "$T/app/ct2.dll" >"$T/out"
rc=$?
[ $rc = 1 ] && grep -qF "$want" "$T/out" && ok "text output says so, exit 1" ||
	bad "text (rc $rc): $(cat "$T/out")"
for sys in KERNEL32.dll msvcrt.dll; do
	[ "$(need "$T/app/ct2.dll" $sys | jq -r '.found and .how == "system"')" = true ] &&
		ok "$sys counts as present (system)" || bad "$sys: $(need "$T/app/ct2.dll" $sys)"
done
n=$(need "$T/app/ct2.dll" amdhip64_7.dll --dll-path "$T/sdk62" --dll-path "$T/sdk71")
[ "$(jq -r '.found and .how == "dll-path"' <<<"$n")" = true ] &&
	[ "$(jq -r .path <<<"$n")" = "$T/sdk71/amdhip64_7.dll" ] &&
	ok "amdhip64_7.dll found in the second --dll-path" || bad "sdk71: $n"
n=$(need "$T/app/ct2.dll" amdhip64_7.dll --dll-path "$T/upper")
[ "$(jq -r .path <<<"$n")" = "$T/upper/AMDHIP64_7.DLL" ] &&
	ok "case-insensitive match: AMDHIP64_7.DLL" || bad "case: $n"
cp "$T/sdk62/amdhip64_6.dll" "$T/app/"
n=$(need "$T/app/ct2.dll" amdhip64_7.dll)
[ "$(jq -r .note <<<"$n")" = "needs amdhip64_7.dll; found amdhip64_6.dll in $T/app (HIP SDK 6.x): the build is for ROCm 7" ] &&
	ok "the DLL's own directory is searched" || bad "own dir: $n"
cp "$T/sdk71/amdhip64_7.dll" "$T/app/"
if [ -n "$bundle" ]; then
	"$GD" scan --gpu gfx1030 "$T/app/ct2.dll" >"$T/out" && grep -q "all found" "$T/out" &&
		ok "gfx1030 with amdhip64_7.dll beside it: fits, exit 0" || bad "fit: $(cat "$T/out")"
fi
echo notadll >"$T/sdk62/fake.dll"
"$GD" scan --dll-path "$T/nowhere" "$T/ct2.dll" >/dev/null 2>&1
[ $? = 3 ] && ok "--dll-path to a missing dir: exit 3" || bad "--dll-path check"

# --- a delay-load import ----------------------------------------------------
# binutils 2.40's ld does not fill the Delay Import data directory, so the
# descriptor (Microsoft PE Format, "Delay-Load Directory Table") is written
# with the assembler and the directory entry (index 13) pointed at it.
cat >"$T/delay.s" <<'EOF'
	.section .rdata,"dr"
	.p2align 3
	.globl delay_dir
delay_dir:
	.long 1
	.rva dname
	.rva dhandle
	.rva diat
	.rva dint
	.long 0, 0, 0
	.long 0, 0, 0, 0, 0, 0, 0, 0
dname:	.asciz "hiprtc0701.dll"
	.p2align 3
dint:	.quad 0
	.data
	.p2align 3
dhandle: .quad 0
diat:	.quad 0
EOF
if "$CC" -shared -o "$T/ct2-delay.dll" "$T/ct2.c" "$T/delay.s" -L"$T" -lamdhip64_7 2>"$T/cc.err"; then
	va=$(x86_64-w64-mingw32-nm "$T/ct2-delay.dll" | awk '$3 == "delay_dir" {print $1}')
	base=$("$OBJDUMP" -p "$T/ct2-delay.dll" | awk '$1 == "ImageBase" {print $2}')
	rva=$((0x$va - 0x$base))
	perl -e 'open F, "+<", $ARGV[0] or die; binmode F; read F, $h, 64; $pe = unpack("V", substr($h, 0x3c, 4));
		seek F, $pe + 24 + 112 + 13 * 8, 0; print F pack("VV", $ARGV[1], 64)' "$T/ct2-delay.dll" "$rva"
	cp "$T/ct2-delay.dll" "$T/sdk62/"
	mkdir -p "$T/rtc62" && "$CC" -shared -o "$T/rtc62/hiprtc0602.dll" "$T/hip.c"
	n=$(need "$T/ct2-delay.dll" hiprtc0701.dll --dll-path "$T/rtc62")
	[ "$(jq -r .note <<<"$n")" = "needs hiprtc0701.dll; found hiprtc0602.dll in $T/rtc62 (HIP SDK 6.2): the build is for ROCm 7.1; delay-loaded: fails only when first used" ] &&
		ok "delay-load import hiprtc0701.dll listed, other version named" || bad "delay: $n"
	[ "$(need "$T/ct2-delay.dll" amdhip64_7.dll | jq -r .soname)" = amdhip64_7.dll ] &&
		ok "ordinary imports still listed beside the delay-load one" || bad "imports with delay"
else
	bad "delay.s build failed: $(tail -n3 "$T/cc.err")"
fi

# --- a Windows wheel ---------------------------------------------------------
if have python3; then
	printf 'LIBRARY python313.dll\nEXPORTS\nPyModule_Create2\n' >"$T/py.def"
	printf '__declspec(dllimport) void *PyModule_Create2(void *, int);\n__declspec(dllimport) int ct2_init(void);\n__declspec(dllexport) void *PyInit__ext(void) { ct2_init(); return PyModule_Create2(0, 1013); }\n' >"$T/ext.c"
	"$DLLTOOL" -d "$T/py.def" -l "$T/libpython313.a" &&
		"$CC" -shared -o "$T/_ext.pyd" "$T/ext.c" -L"$T" -lpython313 "$T/ct2.dll" ||
		bad "building _ext.pyd failed"
	python3 - "$T" <<'EOF'
import sys, zipfile
t = sys.argv[1]
with zipfile.ZipFile(t + "/ct2-4.7.1-cp313-cp313-win_amd64.whl", "w") as z:
    z.write(t + "/ct2.dll", "ctranslate2/ct2.dll", compress_type=zipfile.ZIP_DEFLATED)
    z.write(t + "/_ext.pyd", "ctranslate2/_ext.cp313-win_amd64.pyd", compress_type=zipfile.ZIP_STORED)
    z.writestr("ctranslate2/__init__.py", "")
EOF
	w="$T/ct2-4.7.1-cp313-cp313-win_amd64.whl"
	"$GD" scan --json --dll-path "$T/sdk62" "$w" >"$T/out.json"
	got=$(jq -r '.files[] | select(.path|endswith("ct2.dll")) | [.targets[] | .kind + ":" + .target + (if .features != "" then ":" + .features else "" end)] | sort | join(" ")' "$T/out.json")
	[ -z "$bundle" ] || [ "$got" = "$hipwant" ] && ok "wheel member ct2.dll: same targets" ||
		bad "wheel targets: '$got'"
	jq -e --arg w "$want" '.files[] | select(.path|endswith("ct2.dll")) | .needed[] | select(.soname == "amdhip64_7.dll" and .found == false and .note == $w)' "$T/out.json" >/dev/null &&
		ok "wheel member ct2.dll: amdhip64_7.dll missing, same explanation" || bad "wheel needs: $(cat "$T/out.json")"
	jq -e '.files[] | select(.path|endswith(".pyd")) | .format == "pe" and ([.needed[] | select(.soname == "ct2.dll") | .how] == ["archive"]) and ([.needed[] | select(.soname == "python313.dll") | .found] == [true])' "$T/out.json" >/dev/null &&
		ok "wheel .pyd: ct2.dll found in the wheel, python313.dll from the interpreter" ||
		bad "wheel pyd: $(jq -c '.files[] | select(.path|endswith(".pyd"))' "$T/out.json")"
else
	skipped="$skipped wheel"
fi

# --- bad input: one error line each, the scan goes on ------------------------
head -c 300 "$T/ct2.dll" >"$T/trunc-header.dll"
head -c 1536 "$T/ct2.dll" >"$T/trunc-body.dll"
printf 'MZ' >"$T/dos.exe" && head -c 200 /dev/zero >>"$T/dos.exe"
{ printf 'MZ'; head -c 4000 /dev/urandom; } >"$T/garbage.dll"
# import directory pointing far outside the file
cp "$T/ct2-host.dll" "$T/badimp.dll"
perl -e 'open F, "+<", $ARGV[0] or die; binmode F; read F, $h, 64; $pe = unpack("V", substr($h, 0x3c, 4));
	seek F, $pe + 24 + 112 + 8, 0; print F pack("V", 0x7ff00000)' "$T/badimp.dll"
# a section table that claims 1000 sections
cp "$T/ct2-host.dll" "$T/nsect.dll"
perl -e 'open F, "+<", $ARGV[0] or die; binmode F; read F, $h, 64; $pe = unpack("V", substr($h, 0x3c, 4));
	seek F, $pe + 6, 0; print F pack("v", 1000)' "$T/nsect.dll"
cp "$T/nsect.dll" "$T/nsect-max.dll"
perl -e 'open F, "+<", $ARGV[0] or die; binmode F; read F, $h, 64; $pe = unpack("V", substr($h, 0x3c, 4));
	seek F, $pe + 6, 0; print F pack("v", 65535)' "$T/nsect-max.dll"
badfiles="trunc-header.dll trunc-body.dll dos.exe garbage.dll badimp.dll nsect.dll nsect-max.dll"
args=()
for b in $badfiles; do args+=("$T/$b"); done
"$GD" scan "${args[@]}" "$T/ct2.dll" >"$T/out" 2>&1
rc=$?
[ $rc = 1 ] && ok "bad PE files: exit 1" || bad "bad files: exit $rc"
for b in $badfiles; do
	line=$(grep "^$T/$b: error: " "$T/out")
	[ "$(grep -c "^$T/$b" "$T/out")" = 1 ] && [ -n "$line" ] &&
		ok "$b: ${line#*error: }" || bad "$b: $(grep "$b" "$T/out")"
done
grep -q "^$T/ct2.dll  (pe" "$T/out" && ok "good file still scanned" || bad "good file lost"
# a directory walk picks DLLs up by their MZ magic
n=$("$GD" scan --json "$T/sdk71" | jq '[.files[] | select(.format == "pe")] | length')
[ "$n" = 1 ] && ok "directory walk found the DLL" || bad "directory walk: $n"

[ -n "$skipped" ] && echo "note: parts skipped, tool absent:$skipped"
echo "$ran checks passed, $fails failed"
[ $fails = 0 ]
