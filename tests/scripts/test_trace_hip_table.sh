#!/usr/bin/env bash
# The HIP dispatch-table route of libgpudoctor-trace.so (shim/hip_table.c,
# issue #12), driven as on ROCm >= 6.2 without one: Debian's real HIP 5.2
# functions (libamdhip64.so.5, no GPU here: their real error codes) in a
# table laid out as clr 6.2.0 lays it out (tests/fake/fake_hip_dispatch.c),
# handed over by a stand-in for librocprofiler-register
# (tests/fake/fake_rocprofiler_register.c) to rocprofiler_set_api_table,
# found through the weak reference / dlsym(RTLD_DEFAULT) with the shim
# preloaded by `gpudoctor run --trace`. Checks:
#  - without --trace register finds no tool and nothing changes;
#  - with it the 21 entries are swapped into the shim, others and the
#    compiler table are not; the calls through the table reach the real
#    HIP functions (same results as calling them directly) and are in the
#    log with those results; hipHostMalloc's flags are rewritten through
#    the table (--trace=rewrite) and not with --trace=log;
#  - calls by name go through the exported hook AND the table wrapper and
#    are counted once;
#  - a table whose size stops before an entry keeps that entry;
#  - a second runtime's table is left alone and said;
#  - chaining: a rocprofiler-sdk stand-in (tests/fake/fake_rocprofiler_sdk.c)
#    loaded after the shim (preloaded behind it, dlopened later, or loaded
#    by the shim when ROCP_TOOL_LIBRARIES / ROCPROFILER_REGISTER_LIBRARY
#    ask for a tool) still gets the tables, after the shim's swap; the
#    shim's rocprofiler_configure answers NULL and does not call the
#    SDK's.
set -u
GPUDOCTOR=${GPUDOCTOR:?set GPUDOCTOR to the built binary}
here=$(cd "$(dirname "$0")" && pwd)
src=${GD_SRCDIR:-$here/../..}
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/root" "$tmp/t" "$tmp/reg"
export TMPDIR=$tmp/t
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

# --- build: the stand-ins and the program ------------------------------
fk=$src/tests/fake
cc -shared -fPIC -o "$tmp/reg/libfake_rocprofiler_register.so" \
	"$fk/fake_rocprofiler_register.c" -ldl &&
cc -shared -fPIC -o "$tmp/libfake_hip_dispatch.so" "$fk/fake_hip_dispatch.c" \
	-L"$tmp/reg" -lfake_rocprofiler_register -Wl,-rpath,"$tmp/reg" \
	-ldl -lpthread &&
cc -shared -fPIC -o "$tmp/libfake_rocprofiler_sdk.so" \
	"$fk/fake_rocprofiler_sdk.c" -ldl &&
cc -o "$tmp/hip_table_app" "$src/tests/trace/hip_table_app.c" -L"$tmp" \
	-lfake_hip_dispatch -Wl,-rpath,"$tmp" -ldl ||
	{ echo "cannot build the stand-ins"; exit 1; }

"$tmp/hip_table_app" >"$tmp/plain.out" 2>&1
if grep -qx 'no libamdhip64.so.5' "$tmp/plain.out"; then
	echo "skip: no HIP runtime (libamdhip64.so.5 does not load; Debian: libamdhip64-5)"
	exit 77
fi

# the fixed entries: index in clr's HipDispatchTable, name
hooked="66:hipDeviceSynchronize 82:hipEventSynchronize 86:hipExtMallocWithFlags
90:hipFree 166:hipGraphLaunch 194:hipHostFree 197:hipHostMalloc 202:hipInit
214:hipLaunchKernel 215:hipMalloc 222:hipMallocManaged 259:hipMemcpy
260:hipMemcpy2D 261:hipMemcpy2DAsync 268:hipMemcpyAsync 282:hipMemcpyPeer
283:hipMemcpyPeerAsync 287:hipMemcpyWithStream 308:hipModuleLaunchKernel
346:hipStreamSynchronize 388:hipExtModuleLaunchKernel"
unhooked="103 109 326" # hipGetDeviceCount, hipGetLastError, hipRuntimeGetVersion

# --- without --trace: no tool, nothing swapped ---------------------------
grep -qx 'register hip 1' "$tmp/plain.out" &&
	grep -qx 'register hip_compiler 1' "$tmp/plain.out" &&
	! grep -q '^entry .* patched' "$tmp/plain.out" &&
	grep -qx 'configure none' "$tmp/plain.out" &&
	ok "no --trace: register finds no tool (1), the table is unchanged" ||
	{ bad "without --trace"; cat "$tmp/plain.out"; }

# run [ENV=V...] -- MODE [ARGS]: the program under run --trace=MODE;
# sets $out and $log
run() {
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	local mode=$1
	shift
	env "${envs[@]}" "$GPUDOCTOR" --root "$tmp/root" run --trace="$mode" \
		-- "$tmp/hip_table_app" "$@" >"$tmp/app.out" 2>"$tmp/app.err"
	out=$tmp/app.out
	log=$(sed -n 's/^gpudoctor: trace log: //p' "$tmp/app.err")
	[ -s "$log" ] || { bad "no trace log ($mode)"; cat "$tmp/app.err"; }
}
# the result the program printed for "KIND API"
said() { sed -n "s/^$1 $2 //p" "$out"; }
# summary calls of API in the log
calls() { sed -n "s/^summary .* api=$1 calls=\([0-9]*\) .*/\1/p" "$log"; }

# --- the route with --trace=rewrite --------------------------------------
run -- rewrite second
grep -qx 'register hip 0' "$out" && grep -qx 'register hip_compiler 0' "$out" &&
	ok "register hands both tables to the shim (0)" ||
	{ bad "register status"; cat "$out"; }
n=0
for e in $hooked; do
	grep -qx "entry ${e%%:*} patched libgpudoctor-trace.so" "$out" ||
		{ bad "entry $e not swapped: $(grep "^entry ${e%%:*} " "$out")"; continue; }
	n=$((n + 1))
done
[ $n = 21 ] && ok "the 21 entries point into libgpudoctor-trace.so"
for i in $unhooked; do
	grep -qx "entry $i same libamdhip64.so.5" "$out" ||
		bad "entry $i changed: $(grep "^entry $i " "$out")"
done
grep -qx 'compiler 1 same' "$out" &&
	ok "entries 103, 109, 326 and the compiler table untouched" ||
	bad "compiler table changed"
grep -q '^note pid=[0-9]* hip route: dispatch table (rocprofiler-register, version 60200, instance 0): 21 entries hooked$' "$log" &&
	ok "note: 21 entries hooked, version 60200, instance 0" ||
	{ bad "route note"; grep '^note' "$log"; }
# through the table: the real function's result, in the log once
for api in hipInit hipMalloc hipHostMalloc hipExtMallocWithFlags hipMemcpy \
	hipLaunchKernel hipStreamSynchronize hipDeviceSynchronize hipFree; do
	t=$(said table $api) r=$(said real $api)
	got=$(sed -n "s/^call .* api=$api .*result=\([-0-9]*\) .*caller=hip_table_app$/\1/p" "$log" | sort -u)
	[ -n "$t" ] && [ "$t" = "$r" ] && [ "$got" = "$t" ] &&
		ok "$api through the table: result $t (HIP 5.2's own), logged" ||
		bad "$api: table '$t', real '$r', log '$got'"
done
# by name: exported hook, then the table wrapper: counted once each
e=$(said export hipMalloc)
[ "$(calls hipMalloc)" = 2 ] && [ "$(calls hipHostMalloc)" = 2 ] &&
	[ "$(calls hipDeviceSynchronize)" = 2 ] && [ "$(calls hipInit)" = 1 ] &&
	[ "$e" = "$(said table hipMalloc)" ] &&
	ok "calls by name pass hook and table, counted once (hipMalloc 2 = 1 + 1)" ||
	{ bad "double counting"; grep '^summary' "$log"; }
# entry 103 stays the runtime's: the program's call by name is seen once,
# by the exported hook (device enumeration is traced, issue #19)
[ "$(calls hipGetDeviceCount)" = 1 ] &&
	ok "hipGetDeviceCount by name: the export hook only, counted once" ||
	bad "hipGetDeviceCount calls: '$(calls hipGetDeviceCount)'"
[ "$(grep -c '^rewrite .* api=hipHostMalloc old_flags=0x0 new_flags=0x80000000$' "$log")" = 2 ] &&
	[ "$(grep -c '^call .* api=hipHostMalloc .*kind=0x80000000 ' "$log")" = 2 ] &&
	ok "hipHostMalloc rewritten through the table, once per call (2 rewrites)" ||
	{ bad "rewrite"; grep 'hipHostMalloc' "$log"; }
grep -q '^call .* api=hipExtMallocWithFlags .*kind=0x1 ' "$log" &&
	ok "hipExtMallocWithFlags' enum flag passed unchanged" ||
	bad "hipExtMallocWithFlags flags"
grep -qx 'second 0 0' "$out" &&
	grep -q '^note .* instance 1): 0 entries hooked (a second HIP runtime in the process: not hooked)$' "$log" &&
	ok "a second runtime's table is left alone and said" ||
	{ bad "second runtime"; grep '^second\|^note' "$out" "$log"; }
grep -qx 'configure libgpudoctor-trace.so null' "$out" &&
	ok "the shim's rocprofiler_configure answers NULL" ||
	bad "configure: $(grep '^configure' "$out")"

# --- --trace=log: no rewrite ---------------------------------------------
run -- log
grep -q '^call .* api=hipHostMalloc .*kind=0x0 ' "$log" &&
	! grep -q '^rewrite' "$log" &&
	grep -q 'dispatch table .*: 21 entries hooked$' "$log" &&
	ok "--trace=log: table hooked, hipHostMalloc flags untouched" ||
	{ bad "--trace=log"; cat "$log"; }

# --- an older (shorter) table: entries past its size stay ----------------
run FAKE_HIP_TABLE_ENTRIES=215 -- log
short_ok=1
for e in $hooked; do
	i=${e%%:*}
	want=patched
	[ "$i" -ge 215 ] && want=same
	grep -q "^entry $i $want " "$out" ||
		{ short_ok=0; bad "215-entry table: entry $i not $want"; }
done
[ $short_ok = 1 ] &&
	grep -q 'dispatch table .*: 9 entries hooked$' "$log" &&
	[ "$(calls hipMalloc)" = 1 ] &&
	ok "215-entry table: 9 entries below its size hooked, hipMalloc (215) left; by name still seen once" ||
	{ bad "short table"; grep '^note\|^summary' "$log"; }

# --- chaining to a rocprofiler-sdk behind the shim -----------------------
sdk=$tmp/libfake_rocprofiler_sdk.so
chained() { # $1: what; expects both tables ($2=2) or only "hip" ($2=1)
	local c=0
	grep -qx 'sdk set_api_table hip version=60200 instance=0 tables=1 hipMalloc_fn=libgpudoctor-trace.so' "$out" &&
		c=1
	grep -qx 'sdk set_api_table hip_compiler version=60200 instance=0 tables=1' "$out" &&
		c=$((c + 1))
	[ $c = "$2" ] && ! grep -q '^sdk configure' "$out" &&
		grep -q 'dispatch table .*: 21 entries hooked, chained to rocprofiler-sdk$' "$log" &&
		ok "$1: the SDK gets the tables after the swap; its configure is not called by the shim" ||
		{ bad "$1"; grep '^sdk\|^configure' "$out"; grep '^note' "$log"; }
}
run LD_PRELOAD="$sdk" -- log
chained "SDK preloaded behind the shim (rocprofv3's way)" 2
run HIP_TABLE_APP_SDK="$sdk" -- log
chained "SDK dlopened later (the compiler table came before it)" 1
cp "$sdk" "$tmp/reg/librocprofiler-sdk.so"
run ROCP_TOOL_LIBRARIES="$tmp/tool.so" -- log
chained "ROCP_TOOL_LIBRARIES: librocprofiler-sdk.so loaded beside register" 2
grep -q '^note .* hip route: rocprofiler-sdk, librocprofiler-sdk.so loaded$' "$log" ||
	{ bad "SDK load note"; grep '^note' "$log"; }
run ROCPROFILER_REGISTER_LIBRARY="$sdk" -- log
chained "ROCPROFILER_REGISTER_LIBRARY=PATH loaded" 2
exit $fail
