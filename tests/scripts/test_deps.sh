#!/usr/bin/env bash
# Why a runtime does not load, end to end on real Debian libraries copied
# into temporary roots (each part skips with its reason when its package is
# absent): the closure of Mesa's lavapipe ICD (mesa-vulkan-drivers) and of
# Debian's HIP 5.2 (libamdhip64-5), listed by the real loader (ldd), copied
# whole (resolves: nothing reported) and with one library removed (named
# with its chain and its package); the 32-bit libstdc++ of lib32stdc++6 in
# place of the 64-bit one; a symbol-version mismatch through the judged
# LD_LIBRARY_PATH with two libraries built here by gcc with GNU version
# scripts. HIP's cases sit on the captured rx5700xt machine, so the AMD
# verdict carries the fact and the step.
set -u
: "${GPUDOCTOR:?built binary}" "${GD_SRCDIR:?source dir}"
command -v jq >/dev/null || { echo "skipped: jq not installed"; exit 77; }
MA=/usr/lib/x86_64-linux-gnu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }
jcheck() { # what, json file, jq filter printing true
	if [ "$(jq -e "$3" "$2" 2>&1)" = true ]; then ok "$1"; else
		bad "$1: $3"; jq -c '[.runtimes[] | select(.kind=="library_load")], [.. | objects | select(has("code")) | select(.code|startswith("deps."))]' "$2"
	fi
}
run() { # root, out, [env...]
	local root=$1 out=$2
	shift 2
	env -i PATH="$PATH" "$@" "$GPUDOCTOR" --root "$root" --json check \
		--no-probe >"$out" 2>/dev/null
}
# copy_closure ROOT LIB [DROP]: LIB and every file ldd resolves for it
copy_closure() {
	local root=$1 lib=$2 drop=${3:-} f
	for f in "$lib" $(ldd "$lib" | awk '/=> \//{print $3} /^\t\/.*ld-linux/{print $1}'); do
		[ -n "$drop" ] && [ "$(basename "$f")" = "$drop" ] && continue
		mkdir -p "$root$(dirname "$f")"
		cp -L "$f" "$root$f"
	done
}
loads='[.runtimes[] | select(.kind=="library_load")]'
# roundtrip WHAT ROOT [env...]: gather ROOT (libraries stored as ELF stubs),
# replay the capture: the same library_load entries and deps.* lines
roundtrip() {
	local what=$1 root=$2 cap=$tmp/cap-$RANDOM
	shift 2
	mkdir -p "$cap/x"
	env -i PATH="$PATH" "$@" "$GPUDOCTOR" --root "$root" gather "$cap/c.tar.gz" >/dev/null 2>&1 &&
		tar xzf "$cap/c.tar.gz" -C "$cap/x" || { bad "$what: gather"; return; }
	run "$root" "$cap/a.json" "$@"
	run "$cap/x" "$cap/b.json"
	local f="[$loads, [.. | objects | select(has(\"code\")) | select(.code|startswith(\"deps.\"))]]"
	if [ "$(jq -c "$f" "$cap/a.json")" = "$(jq -c "$f" "$cap/b.json")" ] &&
		[ "$(jq -c "$loads | length" "$cap/a.json")" != 0 ]; then
		ok "$what: gather round trip (capture $(stat -c %s "$cap/c.tar.gz") bytes)"
	else
		bad "$what: gather round trip"
		diff <(jq -c "$f" "$cap/a.json") <(jq -c "$f" "$cap/b.json")
	fi
}

# --- lavapipe ---
lvp=$MA/libvulkan_lvp.so man=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json
if [ -f "$lvp" ] && [ -f "$man" ]; then
	for case in whole drop; do
		r=$tmp/lvp-$case
		mkdir -p "$r$(dirname $man)"
		cp "$man" "$r$man"
		copy_closure "$r" "$lvp" "$([ $case = drop ] && echo libLLVM-15.so.1)"
	done
	run "$tmp/lvp-whole" "$tmp/lvp-whole.json"
	jcheck "lavapipe's whole closure loads" "$tmp/lvp-whole.json" "$loads == []"
	run "$tmp/lvp-drop" "$tmp/lvp-drop.json"
	jcheck "lavapipe without libLLVM-15: chain named" "$tmp/lvp-drop.json" \
		"$loads | map([.what, .status, .chain]) == [[\"Vulkan ICD lvp\", \"missing\", \"libvulkan_lvp.so -> libLLVM-15.so.1\"]]"
	jcheck "lavapipe without libLLVM-15: CPU verdict fact" "$tmp/lvp-drop.json" \
		'[.verdict.facts[] | select(.code=="deps.missing") | .text | contains("libvulkan_lvp.so -> libLLVM-15.so.1: not found")] == [true]'
	jcheck "lavapipe without libLLVM-15: install libllvm15" "$tmp/lvp-drop.json" \
		'[.verdict.steps[] | select(.code=="deps.install") | .text | startswith("Install libllvm15 (Debian/Ubuntu): it provides libLLVM-15.so.1")] == [true]'
	roundtrip "lavapipe without libLLVM-15" "$tmp/lvp-drop"
else
	echo "skipped: lavapipe (mesa-vulkan-drivers not installed)"
fi

# --- HIP 5.2 on the captured rx5700xt ---
hip=$MA/libamdhip64.so.5
fx=$GD_SRCDIR/tests/fixtures/rx5700xt/root
amd='.gpus[0].verdict'
if [ -f "$hip" ]; then
	for case in whole nohsa lib32; do
		r=$tmp/hip-$case
		mkdir -p "$r"
		cp -a "$fx/." "$r/"
		case $case in
		nohsa) copy_closure "$r" "$hip" libhsa-runtime64.so.1 ;;
		*) copy_closure "$r" "$hip" ;;
		esac
	done
	run "$tmp/hip-whole" "$tmp/hip-whole.json"
	jcheck "HIP 5.2's whole closure loads" "$tmp/hip-whole.json" "$loads == []"
	run "$tmp/hip-nohsa" "$tmp/hip-nohsa.json"
	jcheck "HIP without the HSA runtime: chain named" "$tmp/hip-nohsa.json" \
		"$loads | map(select(.what==\"HIP runtime\") | [.status, .chain, .backend, .vendor]) == [[\"missing\", \"libamdhip64.so.5 -> libhsa-runtime64.so.1\", \"hip\", \"amd\"]]"
	jcheck "HIP without the HSA runtime: AMD verdict step" "$tmp/hip-nohsa.json" \
		"[$amd.steps[] | select(.code==\"deps.install\") | .text | startswith(\"Install libhsa-runtime64-1 (Debian/Ubuntu): it provides libhsa-runtime64.so.1, which libamdhip64.so.5 needs\")] == [true]"
	roundtrip "HIP without the HSA runtime" "$tmp/hip-nohsa"
	if [ -f /usr/lib32/libstdc++.so.6 ]; then
		r=$tmp/hip-lib32
		rm -f "$r/lib/x86_64-linux-gnu/libstdc++.so.6" "$r$MA/libstdc++.so.6"
		cp -L /usr/lib32/libstdc++.so.6 "$r$MA/libstdc++.so.6"
		run "$r" "$tmp/hip-lib32.json"
		jcheck "32-bit libstdc++: wrong class named" "$tmp/hip-lib32.json" \
			"[$amd.facts[] | select(.code==\"deps.wrong_arch\") | .text | test(\"libamdhip64.so.5 -> libstdc\\\\+\\\\+.so.6: .*libstdc\\\\+\\\\+.so.6 is 32-bit\")] | any"
		roundtrip "32-bit libstdc++" "$r"
	else
		echo "skipped: wrong class (lib32stdc++6 not installed)"
	fi
else
	echo "skipped: HIP 5.2 (libamdhip64-5 not installed)"
fi

# --- a symbol version through LD_LIBRARY_PATH ---
if command -v gcc >/dev/null; then
	b=$tmp/ver r=$tmp/ver-root
	mkdir -p "$b" "$r$MA" "$r/opt/old" "$r/etc/OpenCL/vendors"
	printf 'int foo_old(void){return 1;}\n' >"$b/old.c"
	printf 'int foo_old(void){return 1;}\nint foo_new(void){return 2;}\n' >"$b/new.c"
	printf 'VFOO_1.0 { global: foo_old; local: *; };\n' >"$b/old.map"
	printf 'VFOO_1.0 { global: foo_old; local: *; };\nVFOO_1.1 { global: foo_new; } VFOO_1.0;\n' >"$b/new.map"
	printf 'int foo_new(void);\nint user(void){return foo_new();}\n' >"$b/user.c"
	gcc -shared -fPIC -nostdlib -Wl,-soname,libvfoo.so.1 -Wl,--version-script,"$b/new.map" -o "$r$MA/libvfoo.so.1" "$b/new.c"
	gcc -shared -fPIC -nostdlib -Wl,-soname,libvfoo.so.1 -Wl,--version-script,"$b/old.map" -o "$r/opt/old/libvfoo.so.1" "$b/old.c"
	ln -s libvfoo.so.1 "$r$MA/libvfoo.so"
	gcc -shared -fPIC -nostdlib -Wl,-soname,libuser.so.1 -o "$r$MA/libuser.so.1" "$b/user.c" -L"$r$MA" -lvfoo
	echo libuser.so.1 >"$r/etc/OpenCL/vendors/user.icd"
	run "$r" "$tmp/ver-ok.json"
	jcheck "version: the system's new library is found" "$tmp/ver-ok.json" "$loads == []"
	run "$r" "$tmp/ver.json" LD_LIBRARY_PATH=/opt/old
	jcheck "version: old copy first in LD_LIBRARY_PATH" "$tmp/ver.json" \
		"$loads | map([.status, .version, .provides, .path, .found_by]) == [[\"version\", \"VFOO_1.1\", \"VFOO_1.0\", \"/opt/old/libvfoo.so.1\", \"LD_LIBRARY_PATH\"]]"
	jcheck "version: fact and step" "$tmp/ver.json" \
		'([.verdict.facts[] | select(.code=="deps.symbol_version") | .text | contains("libuser.so.1 needs VFOO_1.1 from libvfoo.so.1; /opt/old/libvfoo.so.1 provides up to VFOO_1.0")] == [true]) and ([.verdict.steps[] | select(.code=="deps.upgrade") | .text | contains("found first through LD_LIBRARY_PATH")] == [true])'
	roundtrip "version mismatch" "$r" LD_LIBRARY_PATH=/opt/old
else
	echo "skipped: version mismatch (no gcc)"
fi
exit $fail
