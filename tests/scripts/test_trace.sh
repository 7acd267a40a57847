#!/usr/bin/env bash
# gpudoctor --trace end to end (issue #12).
#  - hang report: `try --trace` runs a program whose second thread calls,
#    from libfake_caller.so, a stand-in libamdhip64 (tests/fake/
#    fake_hang_libamdhip64.c) whose 256 MiB hipMemcpyAsync never returns:
#    PHASE and JSON name that thread, the call with its arguments, the
#    calling library and the system call it sleeps in; nothing is left
#    running afterwards;
#  - a real HIP program (hipcc, Debian's HIP 5.2 runtime, no GPU here) run
#    with `run --trace=rewrite`: every hook installs and forwards, the log
#    shows each call with the runtime's own result (the program prints the
#    same numbers), hipHostMalloc flags 0x0 are passed on as 0x80000000
#    (NonCoherent) with a "rewrite" line, hipExtMallocWithFlags' enum flag
#    is passed unchanged; a summary line per API;
#  - `run --watch S` gives the same report on stderr and exits 124;
#  - CUDA's injection entry (no driver here: tests/trace/inject_app.c
#    calls InitializeInjection as the driver does): a CUPTI that is
#    already taken (fake_taken_libcupti, error 39) is said in the log and
#    the exported hooks stay; a missing libcupti is said on stderr;
#    --trace=hooks sets no CUDA_INJECTION64_PATH; a user's is kept;
#  - without --trace nothing is preloaded.
set -u
. "$(dirname "$0")/trace_env.sh"

# --- the hang report --------------------------------------------------
cc -shared -fPIC -o "$tmp/libamdhip64.so.5" -Wl,-soname,libamdhip64.so.5 \
	"$src/tests/fake/fake_hang_libamdhip64.c" &&
cc -shared -fPIC -o "$tmp/libfake_caller.so" "$src/tests/trace/fake_caller.c" \
	"$tmp/libamdhip64.so.5" &&
cc -o "$tmp/fake_app" "$src/tests/trace/fake_app.c" -L"$tmp" -lfake_caller \
	-Wl,-rpath,"$tmp" -lpthread || { echo "cannot build the fakes"; exit 1; }

out=$(cd "$tmp" && LD_LIBRARY_PATH=$tmp "$GPUDOCTOR" --root "$tmp/root" \
	--json try --trace --timeout 2 -- ./fake_app 2>/dev/null)
st=$(jq -r '.strategies[0].trace.stuck[0] |
	"\(.call)|\(.caller)|\(.caller_function)|\(.blocked_in)|\(.tid != .pid)"' <<<"$out")
case $st in
"hipMemcpyAsync(H2D, 256 MiB, stream 0x5)|libfake_caller.so|fake_caller_upload|pause()"*"|true")
	ok "try --trace names the stuck call: $st" ;;
*) bad "try --trace stuck call: '$st'"; echo "$out" ;;
esac
[ "$(jq -r '.strategies[0].outcome' <<<"$out")" = hang ] || bad "outcome"
for f in /proc/[0-9]*/cmdline; do
	{ tr '\0' ' ' <"$f"; } 2>/dev/null | grep -qF -- "./fake_app" &&
		bad "fake_app still running: $f"
done
txt=$(cd "$tmp" && LD_LIBRARY_PATH=$tmp "$GPUDOCTOR" --root "$tmp/root" \
	try --trace --timeout 1 -- ./fake_app 2>/dev/null)
grep -Eq '^baseline +hang .*hung: thread [0-9]+ stuck 1\.[0-9] s in hipMemcpyAsync\(H2D, 256 MiB, stream 0x5\) called from libfake_caller\.so \(fake_caller_upload\), blocked in pause\(\)' \
	<<<"$txt" && ok "PHASE column names the call and the caller's function" || { bad "PHASE"; echo "$txt"; }
# run --watch: the same report on stderr, exit 124, CMD's output passed on
err=$(cd "$tmp" && LD_LIBRARY_PATH=$tmp "$GPUDOCTOR" --root "$tmp/root" \
	run --watch 1 -- ./fake_app 2>&1 >"$tmp/watch.out")
rc=$?
[ $rc = 124 ] && grep -qx 'loading model' "$tmp/watch.out" &&
	grep -Eq '^gpudoctor run: thread [0-9]+ stuck 1\.[0-9] s in hipMemcpyAsync\(H2D, 256 MiB, stream 0x5\) called from libfake_caller\.so' <<<"$err" &&
	ok "run --watch names the stuck call, exit 124" ||
	{ bad "run --watch (exit $rc)"; echo "$err"; }
"$GPUDOCTOR" --root "$tmp/root" run -q --watch 5 -- sh -c 'exit 3' >/dev/null
[ $? = 3 ] && ok "run --watch passes the exit status on" || bad "run --watch exit"
# without --trace: the old phase, no preload
txt=$(cd "$tmp" && LD_LIBRARY_PATH=$tmp "$GPUDOCTOR" --root "$tmp/root" \
	try --timeout 1 -- ./fake_app 2>/dev/null)
grep -q 'hung after: loading model' <<<"$txt" && ok "no --trace: unchanged" ||
	{ bad "no --trace"; echo "$txt"; }
"$GPUDOCTOR" --root "$tmp/root" run -q -- sh -c 'echo "[$LD_PRELOAD]"' |
	grep -qx '\[\]' && ok "run without --trace preloads nothing" ||
	bad "run without --trace preloaded something"
"$GPUDOCTOR" run --trace=bogus -- true 2>/dev/null
[ $? = 125 ] && ok "bad --trace mode refused" || bad "bad --trace mode"

# --- CUDA: the CUPTI injection entry ---------------------------------
# No NVIDIA driver here: inject_app does what the driver does at cuInit.
cc -o "$tmp/inject_app" "$src/tests/trace/inject_app.c" -ldl &&
cc -shared -fPIC -o "$tmp/libcupti_taken.so" \
	"$src/tests/fake/fake_taken_libcupti.c" || { echo "cannot build"; exit 1; }
GPUDOCTOR_CUPTI_LIB=$tmp/libcupti_taken.so "$GPUDOCTOR" --root "$tmp/root" \
	run --trace=log -- "$tmp/inject_app" >"$tmp/inj.out" 2>"$tmp/inj.err"
log=$(sed -n 's/^gpudoctor: trace log: //p' "$tmp/inj.err")
grep -qx 'InitializeInjection 1' "$tmp/inj.out" &&
	grep -q '^note pid=[0-9]* cuda route: exported-symbol hooks on libcudart (CUPTI .*libcupti_taken.so: cuptiSubscribe error 39, CUPTI is already taken by another tool' "$log" &&
	ok "CUPTI taken (error 39): said in the log, exported hooks kept" ||
	{ bad "CUPTI taken"; cat "$tmp/inj.out" "$tmp/inj.err" "$log"; }
# the loader's libcupti (a CUDA 13 toolkit here: without a driver it
# refuses to subscribe) or none: either way said on stderr without a log
GPUDOCTOR_CUPTI_LIB=/nonexistent/libcupti.so "$GPUDOCTOR" --root "$tmp/root" \
	run --trace -- "$tmp/inject_app" >"$tmp/inj.out" 2>"$tmp/inj.err"
grep -Eq '^gpudoctor-trace: cuda route: exported-symbol hooks on libcudart \((libcupti not found|CUPTI libcupti.so: cuptiSubscribe error [0-9]+)' "$tmp/inj.err" &&
	ok "CUPTI unusable: said on stderr: $(grep -o '(.*' "$tmp/inj.err")" ||
	{ bad "no libcupti"; cat "$tmp/inj.out" "$tmp/inj.err"; }
# a real CUDA 13 program (nvcc, shared cudart; no driver here)
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
[ -x "$NVCC" ] || NVCC=$(ls /usr/local/cuda-*/bin/nvcc 2>/dev/null | tail -n1)
if [ -n "$NVCC" ] && [ -x "$NVCC" ] &&
	"$NVCC" -cudart shared -arch=sm_80 -o "$tmp/cuda_app" \
		"$src/tests/trace/cuda_app.cu" >"$tmp/nvcc.log" 2>&1; then
	"$GPUDOCTOR" --root "$tmp/root" run --trace=log -- "$tmp/cuda_app" \
		>"$tmp/cuda.out" 2>"$tmp/cuda.err"
	log=$(sed -n 's/^gpudoctor: trace log: //p' "$tmp/cuda.err")
	for api in cudaMalloc cudaStreamSynchronize; do
		want=$(sed -n "s/^$api //p" "$tmp/cuda.out")
		got=$(sed -n "s/^call .* api=$api .*result=\([-0-9]*\) .*caller=cuda_app$/\1/p" "$log")
		[ -n "$want" ] && [ "$want" = "$got" ] &&
			ok "CUDA $api logged with the runtime's result $got" ||
			{ bad "CUDA $api: program '$want', log '$got'"; cat "$log"; }
	done
	want=$(sed -n 's/^launch //p' "$tmp/cuda.out")
	grep -q "^call .* api=__cudaLaunchKernel .*result=$want .*caller=cuda_app$" "$log" &&
		ok "<<<>>> seen as __cudaLaunchKernel (result $want)" ||
		{ bad "no __cudaLaunchKernel"; cat "$log"; }
else
	echo "skip: nvcc (${NVCC:-none}) $(tail -n2 "$tmp/nvcc.log" 2>/dev/null)"
fi
"$GPUDOCTOR" --root "$tmp/root" run -q --trace=hooks -- "$tmp/inject_app" |
	grep -qx 'no CUDA_INJECTION64_PATH' && ok "--trace=hooks: no injection" ||
	bad "--trace=hooks set CUDA_INJECTION64_PATH"
CUDA_INJECTION64_PATH=/opt/other/inject.so "$GPUDOCTOR" --root "$tmp/root" \
	run --trace -- sh -c 'echo "$CUDA_INJECTION64_PATH"' 2>"$tmp/inj.err" |
	grep -qx /opt/other/inject.so &&
	grep -q 'CUDA_INJECTION64_PATH is set (/opt/other/inject.so)' "$tmp/inj.err" &&
	ok "a user's injection library is kept and said" ||
	{ bad "user's CUDA_INJECTION64_PATH"; cat "$tmp/inj.err"; }
"$GPUDOCTOR" run --trace=deep,hooks -- true 2>/dev/null
[ $? = 125 ] && ok "deep,hooks refused" || bad "deep,hooks accepted"

# --- a real HIP program -------------------------------------------------
if ! command -v hipcc >/dev/null || [ ! -e /usr/include/hip/hip_runtime.h ]; then
	echo "skip: hipcc / HIP headers missing"
	exit $fail
fi
if ! hipcc -o "$tmp/hip_app" "$src/tests/trace/hip_app.hip" >"$tmp/hipcc.log" 2>&1; then
	cat "$tmp/hipcc.log"
	bad "hipcc failed"
	exit 1
fi
"$GPUDOCTOR" --root "$tmp/root" run --trace=rewrite -- "$tmp/hip_app" \
	>"$tmp/app.out" 2>"$tmp/app.err"
log=$(sed -n 's/^gpudoctor: trace log: //p' "$tmp/app.err")
[ -s "$log" ] || { bad "no trace log ($log)"; cat "$tmp/app.err"; exit 1; }
ok "trace log $log"
# each call the program reports appears in the log with the same result
for api in hipInit hipMalloc hipHostMalloc hipExtMallocWithFlags hipMemcpy \
	hipDeviceSynchronize; do
	want=$(sed -n "s/^$api //p" "$tmp/app.out")
	got=$(sed -n "s/^call .* api=$api .*result=\([-0-9]*\) .*/\1/p" "$log")
	[ -n "$want" ] && [ "$want" = "$got" ] &&
		ok "$api logged with the runtime's result $got" ||
		bad "$api: program saw '$want', log has '$got'"
done
grep -q '^call .* api=__hipPushCallConfiguration .*caller=hip_app$' "$log" &&
	ok "<<<>>> launch seen (caller hip_app)" || bad "no launch in the log"
grep -q '^rewrite .* api=hipHostMalloc old_flags=0x0 new_flags=0x80000000$' "$log" &&
	grep -q '^call .* api=hipHostMalloc .*kind=0x80000000 ' "$log" &&
	ok "hipHostMalloc rewritten 0x0 -> 0x80000000 and passed on" ||
	bad "no hipHostMalloc rewrite"
grep -q '^call .* api=hipExtMallocWithFlags .*kind=0x1 ' "$log" &&
	! grep -q '^rewrite .* api=hipExtMallocWithFlags' "$log" &&
	ok "hipExtMallocWithFlags enum flag untouched" ||
	bad "hipExtMallocWithFlags changed"
grep -q '^summary .* api=hipInit calls=1 total_ns=[0-9]* max_ns=' "$log" &&
	ok "summary per API" || bad "no summary"
[ "$(grep -c '^slowest .* api=[_a-zA-Z0-9]* dur_ns=[0-9]* ' "$log")" -eq 5 ] &&
	grep -q '^slowest .* api=hipInit ' "$log" &&
	ok "the 5 slowest calls (hipInit among them)" || bad "no slowest calls"
cat "$log"
exit $fail
