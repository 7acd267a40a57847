#!/usr/bin/env bash
# --trace never changes what a program's calls return (issue #19): a
# runtime loaded as the dependency of a library opened with RTLD_LOCAL is
# out of reach of the preload's dlsym(RTLD_NEXT); Python opens every
# extension module that way. Debian's real HIP 5.2 runtime (and CUDA's
# libcudart where installed; no device here: each answers with its own
# error codes) is called from a library loaded
#  - by dlopen(RTLD_LOCAL) from C (tests/trace/rtld_local_app.c),
#  - by Python's ctypes.CDLL,
#  - as a real CPython extension module (tests/trace/rt_pyext.c),
# once without gpudoctor and once under `run --trace` in every mode; the
# results of every call (tests/trace/rt_calls.c) must be the same, and
# in the log modes each call is in the log with that result; with
# --trace=rewrite hipHostMalloc's flags are rewritten in that process too.
set -u
. "$(dirname "$0")/trace_env.sh"

hip=/usr/lib/x86_64-linux-gnu/libamdhip64.so.5
[ -e "$hip" ] || hip=$(ldconfig -p 2>/dev/null | sed -n 's/.*libamdhip64\.so\.5 .*=> //p' | head -n1)
cudart=$(ls /usr/local/cuda/lib64/libcudart.so.[0-9]* /usr/local/cuda-*/lib64/libcudart.so.[0-9]* 2>/dev/null | head -n1)
cc -o "$tmp/rtld_local_app" "$src/tests/trace/rtld_local_app.c" -ldl ||
	{ echo "cannot build"; exit 1; }
libs=() runtimes=()
if [ -n "$hip" ] && [ -e "$hip" ]; then
	cc -shared -fPIC -DRT_HIP -o "$tmp/librt_hip.so" "$src/tests/trace/rt_calls.c" \
		"$hip" && libs+=("$tmp/librt_hip.so") && runtimes+=(hip)
else
	echo "skip: no libamdhip64.so.5 (Debian: libamdhip64-5)"
fi
if [ -n "$cudart" ]; then
	cc -shared -fPIC -DRT_CUDA -o "$tmp/librt_cuda.so" "$src/tests/trace/rt_calls.c" \
		"$cudart" -Wl,-rpath,"$(dirname "$cudart")" &&
		libs+=("$tmp/librt_cuda.so") && runtimes+=(cuda)
else
	echo "skip: no libcudart (CUDA toolkit)"
fi
[ ${#libs[@]} -gt 0 ] || { echo "skip: no runtime to load"; exit 77; }

# the Python routes
py=$(command -v python3 || true)
pyinc=$([ -n "$py" ] && "$py" -c 'import sysconfig; print(sysconfig.get_paths()["include"])' 2>/dev/null)
pysuf=$([ -n "$py" ] && "$py" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))' 2>/dev/null)
exts=()
if [ -n "$py" ] && [ -e "$pyinc/Python.h" ]; then
	for rt in "${runtimes[@]}"; do
		flag=RT_HIP lib=$hip
		[ "$rt" = cuda ] && flag=RT_CUDA lib=$cudart
		cc -shared -fPIC -D$flag -DGD_EXT_NAME=gdext_$rt -I"$pyinc" \
			-o "$tmp/gdext_$rt$pysuf" "$src/tests/trace/rt_pyext.c" \
			"$src/tests/trace/rt_calls.c" "$lib" \
			-Wl,-rpath,"$(dirname "$lib")" && exts+=("$rt")
	done
else
	echo "skip: Python extension module (no python3 headers: python3-dev)"
fi

# route name, command...
run_route() {
	case $1 in
	c) "${@:2}" "$tmp/rtld_local_app" "${libs[@]}" ;;
	ctypes) "${@:2}" "$py" -c 'import ctypes, sys
for l in sys.argv[1:]:
    ctypes.CDLL(l).gd_rt_calls()' "${libs[@]}" ;;
	ext) (cd "$tmp" && "${@:2}" "$py" -c 'import importlib, sys
sys.path.insert(0, ".")
for n in sys.argv[1:]:
    importlib.import_module("gdext_" + n).calls()' "${exts[@]}") ;;
	esac
}
rl=(c)
[ -n "$py" ] && rl+=(ctypes)
[ ${#exts[@]} -gt 0 ] && rl+=(ext)
for route in "${rl[@]}"; do
	run_route "$route" env >"$tmp/plain.out" 2>"$tmp/plain.err"
	n=$(grep -c '^[_a-zA-Z0-9]* -\?[0-9]*$' "$tmp/plain.out")
	[ "$n" -ge 10 ] || { bad "$route: untraced run printed $n results"; cat "$tmp/plain.out" "$tmp/plain.err"; continue; }
	for mode in hang hooks log rewrite; do
		run_route "$route" "$GPUDOCTOR" --root "$tmp/root" run \
			--trace=$mode -- >"$tmp/tr.out" 2>"$tmp/tr.err"
		if diff "$tmp/plain.out" "$tmp/tr.out" >"$tmp/diff"; then
			ok "$route, --trace=$mode: the $n results are the same"
		else
			bad "$route, --trace=$mode: results differ"
			cat "$tmp/diff" "$tmp/tr.err"
		fi
		log=$(sed -n 's/^gpudoctor: trace log: //p' "$tmp/tr.err")
		[ -n "$log" ] || continue
		miss=
		while read -r api want; do
			got=$(sed -n "s/^call .* api=$api .*result=\(-\?[0-9]*\) .*/\1/p" "$log" | sort -u)
			[ "$got" = "$want" ] || miss="$miss $api($want/'$got')"
		done <"$tmp/plain.out"
		[ -z "$miss" ] && ok "$route, --trace=$mode: every call logged with its result" ||
			{ bad "$route, --trace=$mode: not logged:$miss"; cat "$log"; }
		if [ "$mode" = rewrite ] && [ -e "$tmp/librt_hip.so" ]; then
			grep -q '^rewrite .* api=hipHostMalloc old_flags=0x0 new_flags=0x80000000$' "$log" &&
				ok "$route: hipHostMalloc rewritten to NonCoherent" ||
				bad "$route: no hipHostMalloc rewrite"
		fi
	done
done
exit $fail
