#!/usr/bin/env bash
# gpudoctor try end to end on a captured RX 5700 XT (gfx1010): real child
# programs (test doubles in tests/scripts/try/, one per fault no runtime
# here can produce on demand) under each candidate strategy from the kb.
#  - the working strategy is found, the others classified: failed, hang
#    (with the phase "hung after: graph_reserve: ..."), crash (SIGSEGV);
#  - the total time stays within the sum of the deadlines plus slack;
#  - the hanging child's grandchild does not survive (whole group killed);
#  - --save stores the profile and `run` then applies it;
#  - --expect ends a server that never exits as soon as it prints the line;
#  - user steps (kernel parameters) are listed, never run.
set -u
GPUDOCTOR=${GPUDOCTOR:?set GPUDOCTOR to the built binary}
here=$(cd "$(dirname "$0")" && pwd)
src=${GD_SRCDIR:-$here/../..}
root5700="$src/tests/fixtures/rx5700xt/root"
rootstrix="$src/tests/fixtures/strixhalo/root"
fail=0
tmp=$(mktemp -d)
marker="gd_try_marker_$$_$RANDOM"
# Processes whose command line holds $1 (like pgrep -f, without procps).
alive() {
	local f
	for f in /proc/[0-9]*/cmdline; do
		[ "$f" = "/proc/$$/cmdline" ] && continue
		{ tr '\0' ' ' <"$f"; } 2>/dev/null | grep -qF -- "$1" && return 0
	done
	return 1
}
cleanup() {
	local f pid
	for f in /proc/[0-9]*/cmdline; do
		pid=${f#/proc/}; pid=${pid%/cmdline}
		[ "$pid" = $$ ] && continue
		{ tr '\0' ' ' <"$f"; } 2>/dev/null | grep -qF -- "$marker" &&
			kill -9 "$pid" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
umask 077
export XDG_CONFIG_HOME="$tmp/cfg" GD_TRY_MARKER="$marker"
unset HSA_OVERRIDE_GFX_VERSION MIOPEN_FIND_MODE HSA_ENABLE_SDMA

ok() { printf 'ok   %s\n' "$1"; }
bad() { printf 'FAIL %s\n' "$1"; fail=1; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }
jqc() { jq -e "$1" "$tmp/try.json" >/dev/null; }

T=2 # deadline per strategy, seconds

# 1. One run, every outcome.
start=$(date +%s.%N)
"$GPUDOCTOR" --root "$root5700" try --json --timeout $T -- \
	"$here/try/fake_rdna1_app.sh" >"$tmp/try.json" 2>"$tmp/try.err"
rc=$?
end=$(date +%s.%N)
n=$(jq '.strategies | length' "$tmp/try.json")
check "try exits 0 when a strategy works" '[ $rc -eq 0 ]'
check "JSON has schema_version and strategies[] (>= 5 for gfx1010)" \
	'jqc ".schema_version == 1" && [ "${n:-0}" -ge 5 ]'
check "baseline first, failed, with the rocBLAS line as phase" \
	'jqc ".strategies[0] | .name == \"baseline\" and .outcome == \"failed\" and .exit_code == 1 and (.phase | test(\"TensileLibrary.dat\"))"'
check "override 10.1.0: hang, phase = last line before the hang" \
	'jqc ".strategies[] | select(.name == \"rdna1-override-10.1.0\") | .outcome == \"hang\" and .phase == \"hung after: graph_reserve: reserving a graph for ubatch with n_tokens = 512\" and .env.HSA_OVERRIDE_GFX_VERSION == \"10.1.0\""'
check "override 10.3.0 alone: crash by SIGSEGV" \
	'jqc ".strategies[] | select(.name == \"rdna1-override-10.3.0\") | .outcome == \"crash\" and .signal == \"SIGSEGV\" and (.phase | startswith(\"SIGSEGV after: ggml_cuda_init\"))"'
check "override 10.3.0 + MIOpen find mode: ok, and it is the first that works" \
	'jqc "(.strategies[] | select(.name == \"rdna1-override-10.3.0-miopen-fast\") | .outcome == \"ok\") and .first_ok == \"rdna1-override-10.3.0-miopen-fast\""'
check "every row has name, env (object), outcome, phase, seconds" \
	'jqc "all(.strategies[]; (.name|type) == \"string\" and (.env|type) == \"object\" and (.outcome|IN(\"ok\",\"failed\",\"crash\",\"hang\")) and (.phase|type) == \"string\" and (.seconds|type) == \"number\")"'
# Each strategy is bounded by its deadline + the SIGTERM grace (0.3 s).
limit=$(awk -v n="$n" -v t=$T 'BEGIN { print n * (t + 0.3) + 2 }')
wall=$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')
check "total time $wall s within the deadlines ($limit s)" \
	'awk -v w="$wall" -v l="$limit" "BEGIN { exit !(w < l) }"'
check "the hang took about its deadline" \
	'jqc ".strategies[] | select(.outcome == \"hang\") | .seconds >= 1.9 and .seconds < 3.5"'
sleep 0.2
check "no process of the hung strategy survives (no command line holds the marker)" \
	'! alive "$marker"'

# 2. The text table.
"$GPUDOCTOR" --root "$root5700" try --timeout $T -- \
	"$here/try/fake_rdna1_app.sh" >"$tmp/try.txt" 2>/dev/null
check "table header and one row per strategy" \
	'grep -q "^STRATEGY *OUTCOME *TIME *PHASE" "$tmp/try.txt" &&
	 [ "$(grep -cE "^(baseline|rdna1-)" "$tmp/try.txt")" -eq "$n" ]'
check "table: hang row with its phase, crash row with its signal" \
	'grep -E "^rdna1-override-10.1.0 +hang .*hung after: graph_reserve: reserving a graph for ubatch" "$tmp/try.txt" >/dev/null &&
	 grep -E "^rdna1-override-10.3.0 +crash .*SIGSEGV" "$tmp/try.txt" >/dev/null'
check "table: names the first that works" \
	'grep -q "First that works: rdna1-override-10.3.0-miopen-fast" "$tmp/try.txt"'
sleep 0.2
check "still no leftover process" '! alive "$marker"'

# 3. --save, then run applies the saved profile.
"$GPUDOCTOR" --root "$root5700" try --save --first --timeout $T -- \
	"$here/try/fake_needs_override.sh" >"$tmp/save.txt" 2>/dev/null
rc=$?
saved="$XDG_CONFIG_HOME/gpudoctor/gpu-1002-731f-gfx1010.profile"
check "--save exits 0 and writes the GPU's profile" '[ $rc -eq 0 ] && [ -f "$saved" ]'
check "saved profile: mode 0600, strategy and override recorded" \
	'[ "$(stat -c %a "$saved")" = 600 ] &&
	 grep -qx "strategy rdna1-override-10.3.0" "$saved" &&
	 grep -qx "set HSA_OVERRIDE_GFX_VERSION=10.3.0" "$saved"'
check "--first stopped after the first that works" \
	'! grep -q "^rdna1-override-10.3.0-miopen" "$tmp/save.txt"'
got=$("$GPUDOCTOR" --root "$root5700" run -- printenv HSA_OVERRIDE_GFX_VERSION 2>"$tmp/run.err")
check "run applies the saved profile" '[ "$got" = 10.3.0 ]'
check "run says so on stderr" \
	'grep -q "profile gpu-1002-731f-gfx1010: HSA_OVERRIDE_GFX_VERSION=10.3.0 (saved " "$tmp/run.err"'
"$GPUDOCTOR" --root "$root5700" run -- "$here/try/fake_needs_override.sh" >/dev/null 2>&1
check "the program that needed it now works under run" '[ $? -eq 0 ]'

# 4. --expect: a server that never exits is ok once the line appears.
start=$(date +%s.%N)
"$GPUDOCTOR" --root "$root5700" try --json --first --timeout 20 \
	--expect 'server is listening' -- "$here/try/fake_server.sh" \
	>"$tmp/try.json" 2>/dev/null
end=$(date +%s.%N)
wall=$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')
check "--expect: ok as soon as the line is seen ($wall s, deadline 20 s)" \
	'jqc ".strategies[0].outcome == \"ok\"" && awk -v w="$wall" "BEGIN { exit !(w < 5) }"'
check "--expect: the server was stopped" 'sleep 0.2; ! alive "${marker}_server"'

# 5. User steps (Strix Halo: amdgpu.cwsr_enable=0) are listed, never run.
"$GPUDOCTOR" --root "$rootstrix" try --json --timeout $T -- true \
	>"$tmp/try.json" 2>/dev/null
check "strix halo: cwsr step listed as a user step" \
	'jqc "any(.user_steps[]; .name == \"gfx1151-cwsr-off\" and (.steps | test(\"cwsr_enable=0\")))"'
check "strix halo: user steps are not among the strategies run" \
	'jqc "all(.strategies[]; .name != \"gfx1151-cwsr-off\") and any(.strategies[]; .name == \"gfx1151-sdma-off\")"'

# 6. A command that does not exist: a clear error, 127, nothing tried.
"$GPUDOCTOR" --root "$root5700" try --timeout $T -- /nonexistent/prog \
	>/dev/null 2>"$tmp/err"
rc=$?
check "missing command: exit 127 with a message" \
	'[ $rc -eq 127 ] && grep -q "cannot run ./nonexistent/prog." "$tmp/err"'

exit $fail
