#!/usr/bin/env bash
# --trace limits (issue #20 E3, E10), with the stand-in libamdhip64
# (tests/fake/fake_hang_libamdhip64.c) and tests/trace/stress_app.c:
#  - E3: 300 short-lived threads call the runtime one after another, then
#    a thread hangs: its call is still named (slots of ended threads are
#    given back); 300 threads that stay, then a hang: the report says
#    that threads were not traced because the slots ran out;
#  - E10: --trace=log with GPUDOCTOR_TRACE_LOG_MAX stops the log near the
#    cap, says after how many calls, and the summary still counts every
#    call; a bad value keeps the default.
set -u
. "$(dirname "$0")/trace_env.sh"

cc -shared -fPIC -o "$tmp/libamdhip64.so.5" -Wl,-soname,libamdhip64.so.5 \
	"$src/tests/fake/fake_hang_libamdhip64.c" &&
cc -o "$tmp/stress_app" "$src/tests/trace/stress_app.c" "$tmp/libamdhip64.so.5" \
	-Wl,-rpath,"$tmp" -lpthread || { echo "cannot build"; exit 1; }

# --- E3 ----------------------------------------------------------------
txt=$("$GPUDOCTOR" --root "$tmp/root" try --trace --timeout 4 -- \
	"$tmp/stress_app" threads 300 2>/dev/null)
grep -Eq '^baseline +hang .*hung: thread [0-9]+ stuck [0-9.]+ s in hipMemcpyAsync\(H2D, 256 MiB, stream 0x5\)' <<<"$txt" &&
	ok "after 300 short-lived threads the hang is named" ||
	{ bad "300 short-lived threads"; echo "$txt"; }
err=$("$GPUDOCTOR" --root "$tmp/root" run --watch 4 -- \
	"$tmp/stress_app" live 300 2>&1 >/dev/null)
grep -q '^gpudoctor run: 45 threads were not traced: all 256 trace slots were in use$' <<<"$err" &&
	! grep -q 'No thread was inside' <<<"$err" &&
	ok "300 live threads: the report says 45 were not traced" ||
	{ bad "slots ran out, not said"; echo "$err"; }
txt=$("$GPUDOCTOR" --root "$tmp/root" try --trace --timeout 4 -- \
	"$tmp/stress_app" live 300 2>/dev/null)
grep -Eq '^baseline +hang .*hung after: .*; 45 threads were not traced: all 256 trace slots were in use' <<<"$txt" &&
	ok "try: slots ran out said in the phase" || { bad "try: slots"; echo "$txt"; }

# --- E10 ---------------------------------------------------------------
GPUDOCTOR_TRACE_LOG_MAX=256K "$GPUDOCTOR" --root "$tmp/root" run --trace=log -- \
	"$tmp/stress_app" loop 100000 >"$tmp/loop.out" 2>"$tmp/loop.err"
log=$(sed -n 's/^gpudoctor: trace log: //p' "$tmp/loop.err")
size=$(stat -c %s "$log" 2>/dev/null || echo 0)
calls=$(grep -c '^call ' "$log")
[ "$size" -le $((256 * 1024 + 4096)) ] && [ "$calls" -gt 100 ] &&
	grep -q "^truncated pid=[0-9]* log truncated after $calls calls: $((200000 - calls)) later calls not written (GPUDOCTOR_TRACE_LOG_MAX=262144 bytes)" "$log" &&
	grep -q '^summary pid=[0-9]* api=hipMalloc calls=100000 ' "$log" &&
	grep -q '^summary pid=[0-9]* api=hipFree calls=100000 ' "$log" &&
	ok "log capped at 256 KiB ($size bytes, $calls calls), truncation said, summary exact" ||
	{ bad "log cap: $size bytes, $calls calls"; grep -v '^call' "$log" | head; }
GPUDOCTOR_TRACE_LOG_MAX=lots "$GPUDOCTOR" --root "$tmp/root" run --trace=log -- \
	"$tmp/stress_app" loop 1000 >"$tmp/loop.out" 2>"$tmp/loop.err"
log=$(sed -n 's/^gpudoctor: trace log: //p' "$tmp/loop.err")
[ "$(grep -c '^call ' "$log")" = 2000 ] && ! grep -q '^truncated' "$log" &&
	ok "a bad GPUDOCTOR_TRACE_LOG_MAX keeps the default cap" ||
	bad "bad GPUDOCTOR_TRACE_LOG_MAX"
exit $fail
