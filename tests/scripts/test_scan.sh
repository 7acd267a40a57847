#!/usr/bin/env bash
# gpudoctor scan on real binaries: fat binaries built here with Debian's
# hipcc (several gfx targets) and nvcc (several sm / PTX targets, plain and
# -compress-all), a compressed offload bundle (CCOB) made from hipcc's own
# bundle, a wheel-like zip, and bad input (truncated, non-ELF, zip bombs).
# scan must list exactly the targets requested. Build outputs go to a temp
# dir. HIP 5.2's hipcc/clang 15 has no --offload-compress and its
# clang-offload-bundler no -compress, so the CCOB cases wrap hipcc's real
# bundle in the documented header (docs/scan.md, "Sources") with real zstd and
# zlib compression.
set -u
GD=${GPUDOCTOR:?GPUDOCTOR not set}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0 ran=0 skipped=""
ok() { ran=$((ran + 1)); echo "ok: $*"; }
bad() { fails=$((fails + 1)); echo "FAIL: $*"; }
have() { command -v "$1" >/dev/null 2>&1; }
have jq || { echo "skipped: jq not installed"; exit 77; }

# targets of one file as "kind:target[:features]" lines, sorted
targets() {
	"$GD" scan --json "$@" 2>/dev/null |
		jq -r '.files[0].targets[] | "\(.kind):\(.target)\(if .features != "" then ":" + .features else "" end)"' |
		sort | tr '\n' ' '
}
expect_targets() { # file want...
	local f=$1 got want
	shift
	want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	got=$(targets "$f")
	[ "$got" = "$want" ] && ok "targets of $(basename "$f"): $got" ||
		bad "targets of $f: got '$got', want '$want'"
}

cat >"$T/k.hip" <<'EOF'
#include <hip/hip_runtime.h>
__global__ void k(float *x) { x[threadIdx.x] *= 2.0f; }
extern "C" void launch(float *d) { hipLaunchKernelGGL(k, dim3(1), dim3(1), 0, 0, d); }
EOF
cat >"$T/k.cu" <<'EOF'
__global__ void k(float *x) { x[threadIdx.x] *= 2.0f; }
extern "C" void launch(float *d) { k<<<1, 1>>>(d); }
EOF

# --- HIP fat binary -----------------------------------------------------
if have hipcc; then
	if hipcc --offload-arch=gfx900 --offload-arch=gfx1010 \
		--offload-arch=gfx90a:xnack- -fPIC -shared -o "$T/libhip.so" \
		"$T/k.hip" 2>"$T/hipcc.err"; then
		expect_targets "$T/libhip.so" amdgcn:gfx1010 amdgcn:gfx900 amdgcn:gfx90a:xnack-
		"$GD" scan --gpu gfx1010 "$T/libhip.so" >/dev/null && ok "fits gfx1010 (exit 0)" ||
			bad "libhip.so should fit gfx1010"
		"$GD" scan --gpu gfx1030 "$T/libhip.so" >"$T/out" ; rc=$?
		[ $rc = 1 ] && grep -q "no code for gfx1030 (has: " "$T/out" &&
			ok "gfx1030: no code, exit 1" || bad "gfx1030 verdict (rc $rc): $(cat "$T/out")"
		"$GD" scan --gpu gfx90a:xnack+ "$T/libhip.so" >/dev/null
		[ $? = 1 ] && ok "gfx90a:xnack+ rejects xnack- code" || bad "xnack rule"
		"$GD" scan --json "$T/libhip.so" | jq -e '.files[0].needed[] | select(.soname|startswith("libamdhip64.so")) | .found' >/dev/null &&
			ok "libamdhip64 need listed" || bad "libamdhip64 need not listed"
		# the bundle alone, then compressed (CCOB v1/v2/v3, zstd/zlib)
		objcopy -O binary --only-section=.hip_fatbin "$T/libhip.so" "$T/b.bin"
		usize=$(stat -c %s "$T/b.bin")
		zstd -q -19 -c "$T/b.bin" >"$T/b.zst"
		perl -MCompress::Zlib -0777 -ne 'print compress($_)' "$T/b.bin" >"$T/b.zlib"
		mk() { # version method payload out
			local hs c=$(stat -c %s "$3")
			case $1 in 1) hs=20 ;; 2) hs=24 ;; 3) hs=32 ;; esac
			perl -e '($v,$m,$t,$u)=@ARGV; print pack("a4vv","CCOB",$v,$m);
				print $v==1 ? pack("V",$u) : $v==2 ? pack("VV",$t,$u) : pack("Q<Q<",$t,$u);
				print pack("Q<",0)' "$1" "$2" $((hs + c)) "$usize" >"$4"
			cat "$3" >>"$4"
		}
		for v in 1 2 3; do
			mk $v 1 "$T/b.zst" "$T/v$v-zstd.hipfb"
			mk $v 0 "$T/b.zlib" "$T/v$v-zlib.hipfb"
			for m in zstd zlib; do
				expect_targets "$T/v$v-$m.hipfb" amdgcn:gfx1010 amdgcn:gfx900 amdgcn:gfx90a:xnack-
			done
		done
		# a CCOB that claims 4 GiB uncompressed: only the table prefix is read
		perl -e 'print pack("a4vvQ<Q<Q<","CCOB",3,1,32+'"$(stat -c %s "$T/b.zst")"',4<<30,0)' >"$T/claim.hipfb"
		cat "$T/b.zst" >>"$T/claim.hipfb"
		expect_targets "$T/claim.hipfb" amdgcn:gfx1010 amdgcn:gfx900 amdgcn:gfx90a:xnack-
		# one code object (ELF) with sramecc/xnack in e_flags
		(cd "$T" && hipcc --offload-arch=gfx90a:sramecc+:xnack- --cuda-device-only \
			--no-gpu-bundle-output -c k.hip 2>/dev/null)
		co=$(ls "$T"/k-hip-amdgcn-*gfx90a* 2>/dev/null | head -n1)
		[ -n "$co" ] && expect_targets "$co" amdgcn:gfx90a:sramecc+:xnack- ||
			bad "hipcc made no code object"
	else
		bad "hipcc failed: $(tail -n3 "$T/hipcc.err")"
	fi
else
	skipped="$skipped hipcc"
fi

# --- CUDA fat binaries ---------------------------------------------------
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
if [ -x "$NVCC" ]; then
	gen="-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=[sm_90,compute_90]"
	for variant in plain compressed; do
		extra=""
		[ $variant = compressed ] && extra="-Xfatbin -compress-all"
		# shellcheck disable=SC2086
		if "$NVCC" -cudart shared -Xcompiler -fPIC -shared $gen $extra \
			-o "$T/libcu-$variant.so" "$T/k.cu" 2>"$T/nvcc.err"; then
			expect_targets "$T/libcu-$variant.so" sass:sm_80 sass:sm_90 ptx:compute_90
		else
			bad "nvcc ($variant) failed: $(tail -n3 "$T/nvcc.err")"
		fi
	done
	"$GD" scan --json "$T/libcu-compressed.so" | jq -e '[.files[0].targets[].compressed] | all' >/dev/null &&
		ok "compressed entries flagged" || bad "compressed flag"
	"$GD" scan --gpu sm_86 "$T/libcu-plain.so" | grep -q "has code for sm_86" &&
		ok "sm_80 cubin runs on sm_86" || bad "sm_86 rule"
	"$GD" scan --gpu sm_75 "$T/libcu-plain.so" >/dev/null
	[ $? = 1 ] && ok "nothing for sm_75" || bad "sm_75 should not fit"
	"$GD" scan --gpu sm_100 "$T/libcu-plain.so" | grep -q "only through PTX JIT" &&
		ok "sm_100 through PTX" || bad "sm_100 PTX rule"
	"$NVCC" -gencode arch=compute_90a,code=[sm_90a,compute_90a] -gencode arch=compute_75,code=compute_75 \
		-cudart shared -Xcompiler -fPIC -shared -o "$T/libcua.so" "$T/k.cu" 2>/dev/null &&
		expect_targets "$T/libcua.so" sass:sm_90a ptx:compute_90a ptx:compute_75
	"$NVCC" -fatbin -gencode arch=compute_86,code=sm_86 -o "$T/k.fatbin" "$T/k.cu" 2>/dev/null &&
		expect_targets "$T/k.fatbin" sass:sm_86
else
	skipped="$skipped nvcc"
fi

# --- a wheel: members scanned in place -----------------------------------
if have python3 && [ -f "$T/libhip.so" -o -f "$T/libcu-plain.so" ]; then
	python3 - "$T" <<'EOF'
import sys, zipfile, os
t = sys.argv[1]
with zipfile.ZipFile(t + "/fake-1.0-py3-none-linux_x86_64.whl", "w") as z:
    for f, m in (("libhip.so", zipfile.ZIP_DEFLATED), ("libcu-plain.so", zipfile.ZIP_STORED)):
        if os.path.exists(t + "/" + f):
            z.write(t + "/" + f, "fake/lib/" + f, compress_type=m)
    z.writestr("fake/__init__.py", "")
EOF
	n=$("$GD" scan --json "$T/fake-1.0-py3-none-linux_x86_64.whl" | jq '[.files[] | select(.targets|length>0)] | length')
	want=0
	[ -f "$T/libhip.so" ] && want=$((want + 1))
	[ -f "$T/libcu-plain.so" ] && want=$((want + 1))
	[ "$n" = "$want" ] && ok "wheel: $n members with GPU code" || bad "wheel: got $n, want $want"
else
	skipped="$skipped wheel"
fi

# --- bad input: one error line each, the scan goes on ---------------------
some=$(ls "$T"/libhip.so "$T"/libcu-plain.so 2>/dev/null | head -n1)
if [ -n "$some" ]; then
	head -c 3000 "$some" >"$T/trunc.so"
	echo "just text" >"$T/notelf.txt"
	: >"$T/empty.so"
	"$GD" scan "$T/missing.so" >"$T/out" 2>&1
	rc=$?
	[ $rc = 3 ] && [ "$(wc -l <"$T/out")" = 1 ] &&
		grep -q "missing.so: no such file or directory" "$T/out" &&
		ok "nonexistent path: exit 3, one line" ||
		bad "nonexistent path: exit $rc: $(cat "$T/out")"
	"$GD" scan "$T/trunc.so" "$T/notelf.txt" "$T/empty.so" "$some" >"$T/out" 2>&1
	rc=$?
	[ $rc = 1 ] && ok "bad files: exit 1" || bad "bad files: exit $rc"
	[ "$(grep -c 'error:' "$T/out")" = 3 ] && ok "three one-line errors" ||
		bad "errors: $(cat "$T/out")"
	grep -q "^$some" "$T/out" && ok "good file still scanned" || bad "good file lost"
fi
if have python3; then
	python3 - "$T" <<'EOF'
import sys, zlib, struct, zipfile
t = sys.argv[1]
# honest bomb: 1.5 GiB of zeros, declared as such: over the inflate cap
c = zlib.compressobj(9, zlib.DEFLATED, -15)
chunk = b"\0" * (64 << 20)
data = b"".join(c.compress(chunk) for _ in range(24)) + c.flush()
def write(name, usize):
    zi = zipfile.ZipInfo("lib/libbomb.so")
    zi.compress_type = zipfile.ZIP_DEFLATED
    with open(name, "wb") as f:
        off = 0
        lfh = struct.pack("<IHHHHHIIIHH", 0x04034b50, 20, 0, 8, 0, 0, 0,
                          len(data), usize & 0xffffffff, 15, 0) + b"lib/libbomb.so\0"[:15]
        f.write(lfh); f.write(data)
        cd = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014b50, 20, 20, 0, 8, 0, 0, 0,
                         len(data), usize & 0xffffffff, 15, 0, 0, 0, 0, 0, 0) + b"lib/libbomb.so\0"[:15]
        cdoff = len(lfh) + len(data)
        f.write(cd)
        f.write(struct.pack("<IHHHHIIH", 0x06054b50, 0, 0, 1, 1, len(cd), cdoff, 0))
write(t + "/bomb-honest.whl", 0xfffffff0)   # claims ~4 GiB: over the cap
write(t + "/bomb-liar.whl", 1 << 20)        # claims 1 MiB, inflates to 1.5 GiB
EOF
	for b in honest liar; do
		s=$(date +%s%N)
		"$GD" scan "$T/bomb-$b.whl" >"$T/out" 2>&1
		rc=$? ms=$((($(date +%s%N) - s) / 1000000))
		if [ $rc = 1 ] && grep -q "error:" "$T/out" && [ $ms -lt 5000 ]; then
			ok "zip bomb ($b) stopped in ${ms} ms: $(grep -o 'error: .*' "$T/out")"
		else
			bad "zip bomb ($b): rc $rc, $ms ms: $(cat "$T/out")"
		fi
	done
fi
# runtime needs: a library missing, and one that lacks a versioned symbol
if have cc; then
	mkdir -p "$T/v1" "$T/v2"
	echo 'void foo(void) {}' >"$T/v1.c"
	echo 'void foo(void) {} void bar(void) {}' >"$T/v2.c"
	echo 'V_1 { foo; };' >"$T/v1.map"
	printf 'V_1 { foo; };\nV_2 { bar; } V_1;\n' >"$T/v2.map"
	echo 'void foo(void); void bar(void); void use(void) { foo(); bar(); }' >"$T/u.c"
	cc -shared -fPIC -Wl,-soname,libv.so.1 -Wl,--version-script="$T/v1.map" -o "$T/v1/libv.so.1" "$T/v1.c" &&
	cc -shared -fPIC -Wl,-soname,libv.so.1 -Wl,--version-script="$T/v2.map" -o "$T/v2/libv.so.1" "$T/v2.c" &&
	cc -shared -fPIC -o "$T/libuse.so" "$T/u.c" -L"$T/v2" -l:libv.so.1 || bad "cc failed"
	LD_LIBRARY_PATH="$T/v2" "$GD" scan "$T/libuse.so" >"$T/out"
	[ $? = 0 ] && ok "libv.so.1 with V_2 found: fits" || bad "v2: $(cat "$T/out")"
	LD_LIBRARY_PATH="$T/v1" "$GD" scan "$T/libuse.so" >"$T/out"
	rc=$?
	[ $rc = 1 ] && grep -q "lacks version V_2" "$T/out" && ok "older libv.so.1 lacks version V_2 (as ld.so would say)" ||
		bad "v1 (rc $rc): $(cat "$T/out")"
	LD_LIBRARY_PATH="$T/nowhere" "$GD" scan --json "$T/libuse.so" >"$T/out"
	jq -e '.files[0].needed[] | select(.soname == "libv.so.1") | .found == false' "$T/out" >/dev/null &&
		ok "missing libv.so.1 reported" || bad "missing lib: $(cat "$T/out")"
fi
# a directory: recursive, non-binaries skipped silently
mkdir -p "$T/tree/a/b" && cp "$some" "$T/tree/a/b/" 2>/dev/null && echo x >"$T/tree/readme"
n=$("$GD" scan --json "$T/tree" | jq '.files | length')
[ "$n" = 1 ] && ok "directory walk found 1 binary" || bad "directory walk: $n files"
"$GD" scan --gpu bogus "$T/tree" >/dev/null 2>&1
[ $? = 3 ] && ok "bad --gpu: exit 3" || bad "bad --gpu exit"

# --root: needs resolved on the captured machine, and said so
"$GD" --root "$GD_SRCDIR/tests/fixtures/rx5700xt/root" scan \
	"$GD_SRCDIR/tests/fixtures/binscan/" >"$T/rootscan" 2>&1
grep -q "missing: .* (not found on the captured machine)" "$T/rootscan" &&
	ok "--root: missing libraries named as on the captured machine" ||
	bad "--root: $(grep -m3 missing "$T/rootscan")"

# Hostile files (reliability findings D2, D10, D11): a wheel of 60,000
# central-directory entries over one real HIP library ("better zip bomb")
# is refused at once; procfs files (stat size 0) are read, not "empty";
# a directory scan cannot open is an error, exit 1.
if have python3; then
	python3 - "$GD_SRCDIR/tests/fixtures/binscan/libhip_gfx900_gfx1010_gfx90a.so" "$T/ov.whl" <<'EOF2'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
c = zlib.compressobj(9, zlib.DEFLATED, -15); comp = c.compress(data) + c.flush()
body = struct.pack('<IHHHHHIIIHH', 0x04034b50, 20, 0, 8, 0, 0, zlib.crc32(data), len(comp), len(data), 4, 0) + b'a.so' + comp
cd = b''.join(struct.pack('<IHHHHHHIIIHHHHHII', 0x02014b50, 20, 20, 0, 8, 0, 0, zlib.crc32(data), len(comp), len(data), 9, 0, 0, 0, 0, 0, 0) + b'l%05d.so' % i for i in range(60000))
open(sys.argv[2], 'wb').write(body + cd + struct.pack('<IHHHHIIH', 0x06054b50, 0, 0, 60000, 60000, len(cd), len(body), 0))
EOF2
	s=$(date +%s)
	out=$(timeout 60 "$GD" scan "$T/ov.whl" 2>&1)
	rc=$? e=$(date +%s)
	[ $rc = 1 ] && [ $((e - s)) -le 5 ] && echo "$out" | grep -q "overlap or repeat (zip bomb?)" &&
		ok "overlapping-member wheel refused in $((e - s)) s" ||
		bad "overlapping-member wheel: rc $rc, $((e - s)) s: $out"
fi
out=$("$GD" scan /proc/self/maps 2>&1)
echo "$out" | grep -q "not an ELF" && ! echo "$out" | grep -q "empty file" &&
	ok "procfs file read, not called empty" || bad "procfs: $out"
mkdir -p "$T/locked" && cp "$GD_SRCDIR"/tests/fixtures/binscan/*.so "$T/locked/" && chmod 000 "$T/locked"
chmod 755 "$T"
asuser=""
[ "$(id -u)" = 0 ] && have setpriv && asuser="setpriv --reuid=65534 --regid=65534 --clear-groups"
if [ "$(id -u)" != 0 ] || [ -n "$asuser" ]; then
	out=$($asuser "$GD" scan "$T/locked" 2>&1)
	rc=$?
	[ $rc = 1 ] && echo "$out" | grep -q "cannot read directory: Permission denied" &&
		ok "unreadable directory: error, exit 1" || bad "unreadable directory: rc $rc: $out"
fi
chmod 700 "$T/locked"

[ -n "$skipped" ] && echo "note: parts skipped, tool absent:$skipped"
echo "$ran checks passed, $fails failed"
[ $ran = 0 ] && { echo "skipped: neither hipcc nor nvcc"; exit 77; }
[ $fails = 0 ]
