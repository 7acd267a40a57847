#!/usr/bin/env bash
# gpudoctor try end to end on a captured RX 5700 XT (gfx1010): real child
# programs (test doubles in tests/scripts/try/, one per fault no runtime
# here can produce on demand) under each candidate strategy from the kb.
#  - the working strategy is found, the others classified: failed, hang
#    (with the phase "hung after: graph_reserve: ..."), crash (SIGSEGV);
#  - the total time stays within the sum of the deadlines plus slack;
#  - the hanging child's grandchild does not survive (whole group killed);
#  - --save stores the profile and `run` then applies it; --save-as takes
#    only a name, saves NAME.profile and prints the command that applies it;
#  - --expect ends a server that never exits as soon as it prints the line;
#  - user steps (kernel parameters) are listed, never run;
#  - Ctrl-C: the running strategy is "interrupted" (not "hang"), exit 130;
#    SIGHUP and SIGQUIT the same, exit 129 / 131;
#  - 126 for a command that cannot run, 127 for one not found;
#  - processes that leave the group (timeout, setsid, Python's
#    start_new_session) or a child that moves into another group: the
#    deadline holds and nothing survives.
set -u
GPUDOCTOR=${GPUDOCTOR:?set GPUDOCTOR to the built binary}
here=$(cd "$(dirname "$0")" && pwd)
src=${GD_SRCDIR:-$here/../..}
root5700="$src/tests/fixtures/rx5700xt/root"
rootstrix="$src/tests/fixtures/strixhalo/root"
rootnogpu="$src/tests/fixtures/no-gpu/root" # baseline only: one strategy
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
# Gone within 5 s: a SIGKILLed process may run a moment before it exits on
# a loaded machine; one that was never signalled stays for its 50-77 s.
gone() {
	local i
	for i in $(seq 50); do
		alive "$1" || return 0
		sleep 0.1
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
check "JSON has schema_version and strategies[] (>= 4 for gfx1010)" \
	'jqc ".schema_version == 1" && [ "${n:-0}" -ge 4 ]'
check "baseline first, failed, with the rocBLAS line as phase" \
	'jqc ".strategies[0] | .name == \"baseline\" and .outcome == \"failed\" and .exit_code == 1 and (.phase | test(\"TensileLibrary.dat\"))"'
check "override 10.3.0 + MIOpen NORMAL: hang, phase = last line before the hang" \
	'jqc ".strategies[] | select(.name == \"rdna1-override-10.3.0-miopen-normal\") | .outcome == \"hang\" and .phase == \"hung after: graph_reserve: reserving a graph for ubatch with n_tokens = 512\" and .env.MIOPEN_FIND_MODE == \"NORMAL\""'
check "override 10.3.0 alone: crash by SIGSEGV" \
	'jqc ".strategies[] | select(.name == \"rdna1-override-10.3.0\") | .outcome == \"crash\" and .signal == \"SIGSEGV\" and (.phase | startswith(\"SIGSEGV after: ggml_cuda_init\"))"'
check "override 10.3.0 + MIOpen find mode: ok, and it is the first that works" \
	'jqc "(.strategies[] | select(.name == \"rdna1-override-10.3.0-miopen-fast\") | .outcome == \"ok\") and .first_ok == \"rdna1-override-10.3.0-miopen-fast\""'
check "every row has name, env (object), outcome, phase, seconds" \
	'jqc "all(.strategies[]; (.name|type) == \"string\" and (.env|type) == \"object\" and (.outcome|IN(\"ok\",\"failed\",\"crash\",\"hang\")) and (.phase|type) == \"string\" and (.seconds|type) == \"number\")"'
check "sources is an array of URLs; for/reason/caveat are a non-empty string or null" \
	'jqc "all(.strategies[]; (.sources|type) == \"array\" and all(.sources[]; startswith(\"https://\")) and all(.for, .reason, .caveat; . == null or (type == \"string\" and . != \"\"))) and any(.strategies[]; (.sources|length) > 0) and (.strategies[0].caveat == null) and .interrupted == false"'
# Each strategy is bounded by its deadline + the SIGTERM grace (0.3 s).
limit=$(awk -v n="$n" -v t=$T 'BEGIN { print n * (t + 0.3) + 2 }')
wall=$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')
check "total time $wall s within the deadlines ($limit s)" \
	'awk -v w="$wall" -v l="$limit" "BEGIN { exit !(w < l) }"'
check "the hang took about its deadline" \
	'jqc ".strategies[] | select(.outcome == \"hang\") | .seconds >= 1.9 and .seconds < 3.5"'
check "no process of the hung strategy survives (no command line holds the marker)" \
	'gone "$marker"'

# 2. The text table.
"$GPUDOCTOR" --root "$root5700" try --timeout $T -- \
	"$here/try/fake_rdna1_app.sh" >"$tmp/try.txt" 2>/dev/null
check "table header and one row per strategy" \
	'grep -q "^STRATEGY *OUTCOME *TIME *PHASE" "$tmp/try.txt" &&
	 [ "$(grep -cE "^(baseline|rdna1-|amd-serialize)" "$tmp/try.txt")" -eq "$n" ]'
check "table: hang row with its phase, crash row with its signal" \
	'grep -E "^rdna1-override-10.3.0-miopen-normal +hang .*hung after: graph_reserve: reserving a graph for ubatch" "$tmp/try.txt" >/dev/null &&
	 grep -E "^rdna1-override-10.3.0 +crash .*SIGSEGV" "$tmp/try.txt" >/dev/null'
check "table: names the first that works" \
	'grep -q "First that works: rdna1-override-10.3.0-miopen-fast" "$tmp/try.txt"'
check "still no leftover process" 'gone "$marker"'

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
check "--save: the hint is 'gpudoctor run -- CMD' (run finds a GPU profile alone)" \
	'grep -qF "; '"'gpudoctor run -- CMD'"' applies it, '"'gpudoctor env'"' prints it." "$tmp/save.txt"'

# 3b. --save-as NAME: saved as NAME.profile, and the hint names --profile,
# which is what run needs (run alone does not pick a named profile).
rm -f "$saved"
"$GPUDOCTOR" --root "$root5700" try --first --save-as rdna --timeout $T \
	"$here/try/fake_needs_override.sh" >"$tmp/saveas.txt" 2>/dev/null
rc=$?
named="$XDG_CONFIG_HOME/gpudoctor/rdna.profile"
check "--save-as rdna (CMD without --): exit 0, rdna.profile, name in its header" \
	'[ $rc -eq 0 ] && [ -f "$named" ] && [ ! -e "$saved" ] &&
	 grep -qx "# gpudoctor profile rdna" "$named"'
hint=$(sed -n "s/.*'\(gpudoctor run [^']*\)' applies it.*/\1/p" "$tmp/saveas.txt")
check "--save-as: the hint is the exact command ('$hint')" \
	'[ "$hint" = "gpudoctor run --profile rdna -- CMD" ] &&
	 grep -qF "'"'gpudoctor env --profile rdna'"'" "$tmp/saveas.txt"'
set -- ${hint% -- CMD}
got=$("$GPUDOCTOR" --root "$root5700" "${@:2}" -- printenv HSA_OVERRIDE_GFX_VERSION 2>/dev/null)
check "... and that command applies it" '[ "$got" = 10.3.0 ]'
got=$("$GPUDOCTOR" --root "$root5700" run -- printenv HSA_OVERRIDE_GFX_VERSION 2>/dev/null)
check "... while run without --profile does not" '[ -z "$got" ]'
for name in ../evil a/b .hidden "" 'x y'; do
	"$GPUDOCTOR" --root "$root5700" try --first --save-as "$name" \
		--timeout $T -- "$here/try/fake_needs_override.sh" \
		>/dev/null 2>"$tmp/err"
	rc=$?
	check "--save-as '$name' refused (exit 3, says why)" \
		'[ $rc -eq 3 ] && grep -q "bad --save-as" "$tmp/err"'
done
# A pattern whose repeats multiply past what regcomp should build is
# refused before regcomp runs (it used to take gigabytes).
"$GPUDOCTOR" --root "$root5700" try --json --expect '((a{200}){200}){200}' \
	-- true >/dev/null 2>"$tmp/err"
rc=$?
check "--expect with nested repeats refused (exit 3, says why)" \
	'[ $rc -eq 3 ] && grep -q "regex too large" "$tmp/err"'
check "... nothing written outside the profile dir" \
	'[ ! -e "$XDG_CONFIG_HOME/evil" ] && [ ! -e "$XDG_CONFIG_HOME/gpudoctor/a" ] &&
	 [ "$(ls -A "$XDG_CONFIG_HOME/gpudoctor")" = rdna.profile ]'

# 4. --expect: a server that never exits is ok once the line appears.
start=$(date +%s.%N)
"$GPUDOCTOR" --root "$root5700" try --json --first --timeout 20 \
	--expect 'server is listening' -- "$here/try/fake_server.sh" \
	>"$tmp/try.json" 2>/dev/null
end=$(date +%s.%N)
wall=$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')
check "--expect: ok as soon as the line is seen ($wall s, deadline 20 s)" \
	'jqc ".strategies[0].outcome == \"ok\"" && awk -v w="$wall" "BEGIN { exit !(w < 5) }"'
check "--expect: the server was stopped" 'gone "${marker}_server"'

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
check "... said once: \"cannot run '/nonexistent/prog': No such file or directory\"" \
	'grep -qx "gpudoctor try: cannot run '"'/nonexistent/prog'"': No such file or directory" "$tmp/err" &&
	 [ "$(grep -o "cannot run" "$tmp/err" | wc -l)" -eq 1 ]'

# 7. Interrupted (Ctrl-C = SIGINT to try): the running strategy is
# "interrupted", not "hang"; nothing after it runs; exit 130; no leftover.
# The child (sh, with the marker as its $0) has started once two command
# lines hold the marker: gpudoctor's and the child's.
wait_child() {
	local f n i
	for i in $(seq 50); do
		n=0
		for f in /proc/[0-9]*/cmdline; do
			[ "$f" = "/proc/$$/cmdline" ] && continue
			{ tr '\0' ' ' <"$f"; } 2>/dev/null |
				grep -qF -- "$marker" && n=$((n + 1))
		done
		[ $n -ge 2 ] && break
		sleep 0.1
	done
	sleep 0.3
}
"$GPUDOCTOR" --root "$root5700" try --json --save --timeout 60 -- \
	sh -c 'echo started; sleep 77; : "$0"' "$marker" >"$tmp/try.json" \
	2>/dev/null &
pid=$!
wait_child
sleep 0.2
kill -INT $pid
start=$(date +%s.%N)
wait $pid
rc=$?
end=$(date +%s.%N)
wall=$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')
check "interrupted try exits 130 within 2 s ($wall s)" \
	'[ $rc -eq 130 ] && awk -v w="$wall" "BEGIN { exit !(w < 2) }"'
check "the running strategy is \"interrupted\", with its last line; no hang" \
	'jqc ".strategies | length == 1 and .[0].name == \"baseline\" and .[0].outcome == \"interrupted\" and .[0].phase == \"interrupted after: started\""'
check "JSON: interrupted true, the rest not run, nothing saved" \
	'jqc ".interrupted == true and (.not_run | length) >= 3 and .saved == null and .first_ok == null"'
check "the interrupted child did not survive" 'gone "$marker"'
"$GPUDOCTOR" --root "$root5700" try --timeout 60 -- \
	sh -c 'echo started; sleep 77; : "$0"' "$marker" >"$tmp/try.txt" 2>/dev/null &
pid=$!
wait_child
sleep 0.2
kill -INT $pid
wait $pid
rc=$?
check "text: the table so far, then what was not tried; exit 130" \
	'[ $rc -eq 130 ] && grep -qE "^baseline +interrupted .*interrupted after: started" "$tmp/try.txt" &&
	 grep -q "^Interrupted during baseline; not tried: rdna1-override-10.3.0, " "$tmp/try.txt" &&
	 ! grep -q "No strategy worked" "$tmp/try.txt"'

# 8. Exit codes like run and env(1): 126 found but cannot run, 127 not found.
printf 'not a program\n' >"$tmp/noexec" && chmod 644 "$tmp/noexec"
"$GPUDOCTOR" --root "$root5700" try --timeout $T -- "$tmp/noexec" \
	>/dev/null 2>"$tmp/err"
rc=$?
check "a file without the x bit: exit 126, 'Permission denied'" \
	'[ $rc -eq 126 ] && grep -q "Permission denied" "$tmp/err"'
"$GPUDOCTOR" --root "$root5700" try --timeout $T -- "$tmp" >/dev/null 2>&1
check "a directory: exit 126" '[ $? -eq 126 ]'

# 9. Processes that leave the group (GNU timeout, setsid, Python's
# start_new_session) and a child that moves into gpudoctor's own group:
# the deadline holds and nothing survives. The escapee is a copy of sleep
# whose path holds the marker.
ms="$tmp/${marker}_sleep"
cp "$(command -v sleep)" "$ms"
esc() { # name, deadline, command...
	local name=$1 t=$2 s e w
	shift 2
	s=$(date +%s.%N)
	timeout 30 "$GPUDOCTOR" --root "$rootnogpu" try --timeout "$t" \
		-- "$@" >/dev/null 2>&1
	e=$(date +%s.%N)
	w=$(awk -v a="$s" -v b="$e" 'BEGIN { print b - a }')
	check "$name: returns in time ($w s) and leaves nothing running" \
		'awk -v w="$w" -v t="$t" "BEGIN { exit !(w < t + 3) }" && gone "$marker"'
}
esc "timeout CMD, hung" 1 sh -c "timeout 50 '$ms' 50"
esc "timeout CMD &, exit 0" 5 sh -c "timeout 50 '$ms' 50 & sleep 0.2; exit 0"
esc "setsid daemon, exit 0" 5 sh -c "setsid '$ms' 50 & sleep 0.2; exit 0"
esc "double fork + setsid, then hang" 1 sh -c "(setsid '$ms' 50 &); sleep 50"
if command -v python3 >/dev/null; then
	esc "python3 start_new_session=True" 5 python3 -c \
		'import subprocess,sys; subprocess.Popen([sys.argv[1], "50"], start_new_session=True)' "$ms"
	esc "child moves into gpudoctor's process group" 2 python3 -c \
		'import os,signal,sys; os.setpgid(0, os.getpgid(os.getppid())); signal.pause()' "$marker"
fi

# 10. SIGHUP (terminal closed) and SIGQUIT (Ctrl-\) take the Ctrl-C path:
# the strategy is interrupted, exit 128 + signal, the grandchild is gone.
for sig in HUP QUIT; do
	"$GPUDOCTOR" --root "$root5700" try --timeout 60 -- \
		sh -c "'$ms' 77; :" >/dev/null 2>&1 &
	pid=$!
	for i in $(seq 50); do alive "$marker" && break; sleep 0.1; done
	sleep 0.2
	kill -$sig $pid
	wait $pid
	rc=$?
	want=$((128 + $(kill -l $sig)))
	check "SIG$sig: exit $want, the grandchild did not survive" \
		'[ $rc -eq $want ] && gone "$marker"'
done

exit $fail
