#!/usr/bin/env bash
# Killed by any catchable signal whose default ends a process, gpudoctor
# first ends what its children started (docs/workarounds.md, "gpudoctor
# try", the "Interrupted" paragraph):
# `try`, `run --watch` and `probe` each get every such signal while a
# child's own child (a copy of sleep whose name holds a marker) runs;
# gpudoctor exits 128 + the signal and the grandchild is gone. Before,
# only INT, TERM, HUP and QUIT took that path: USR1, PIPE, ALRM... killed
# gpudoctor outright and the grandchild stayed (PDEATHSIG reaches only the
# direct child).
set -u
G=${GPUDOCTOR:?set GPUDOCTOR to the built binary}
SRC=${GD_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
NG="$SRC/tests/fixtures/no-gpu/root"
tmp=$(mktemp -d)
marker="gd_sig_marker_$$_$RANDOM"
fail=0
# The processes whose command line holds the marker (one grep over /proc;
# the bracket keeps grep from matching its own command line).
marked() {
	grep -la -- "gd_sig_marke[r]_$$_" /proc/[0-9]*/cmdline 2>/dev/null |
		sed 's,^/proc/,,; s,/cmdline$,,'
}
alive() { [ -n "$(marked)" ]; }
cleanup_marked() {
	local pid
	for pid in $(marked); do kill -9 "$pid" 2>/dev/null; done
}
cleanup() {
	cleanup_marked
	rm -rf "$tmp"
}
trap cleanup EXIT
ok() { printf 'ok   %s\n' "$1"; }
bad() { printf 'FAIL %s\n' "$1"; fail=1; }
export XDG_CONFIG_HOME="$tmp/cfg"
ms="$tmp/${marker}_sleep"
cp "$(command -v sleep)" "$ms"

# sig_case NAME SIG WANT CMD...: CMD runs in the background until the
# marked grandchild is up, gets SIG; exit WANT (- : 128 + SIG) and nothing
# left running.
# start_case CMD...: CMD in the background (pid in $pid) until the marked
# grandchild is up; 1 if it never came up (gpudoctor's state and stderr
# are printed, and whatever it left is ended so the next case starts clean).
start_case() {
	local i
	"$@" >/dev/null 2>"$tmp/err" &
	pid=$!
	# a loaded 2-core machine can take seconds to start it: wait up to 30 s
	for i in $(seq 300); do
		alive && return 0
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	alive && return 0
	if kill -0 $pid 2>/dev/null; then
		echo "  gpudoctor still running after 30 s, its grandchild not up"
	else
		echo "  gpudoctor ended before its grandchild came up"
	fi
	head -c 400 "$tmp/err"
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	# a child that was still starting may bring its grandchild up late
	sleep 1
	cleanup_marked
	return 1
}

sig_case() {
	local name=$1 sig=$2 want=$3 pid rc i
	shift 3
	# a leftover of an earlier failed case would read as this one's
	cleanup_marked
	# The start is not what is tested (the signal path is): a start that
	# did not come up in 30 s on a loaded machine is tried once more.
	if ! start_case "$@" && ! start_case "$@"; then
		bad "$name SIG$sig: the grandchild never started (twice)"
		return
	fi
	sleep 0.3
	kill -s "$sig" $pid
	wait $pid
	rc=$?
	[ "$want" = - ] && want=$((128 + $(kill -l "$sig")))
	for i in $(seq 100); do alive || break; sleep 0.1; done
	if [ $rc -eq $want ] && ! alive; then
		ok "$name SIG$sig: exit $rc, the grandchild did not survive"
	else
		bad "$name SIG$sig: exit $rc (want $want), grandchild $(alive && echo alive || echo gone)"
		head -c 400 "$tmp/err"
		cleanup_marked
	fi
}
sigs="USR1 USR2 PIPE ALRM VTALRM XCPU XFSZ PROF IO PWR RTMIN TERM HUP"
for s in $sigs; do
	sig_case "try" "$s" - "$G" --root "$NG" try --timeout 20 -- \
		sh -c "'$ms' 7771; :"
done
for s in USR1 PIPE ALRM XFSZ TERM; do
	sig_case "run --watch" "$s" - "$G" --root "$NG" run --quiet --watch 20 -- \
		sh -c "'$ms' 7772; :"
done

# probe (exit 3 when interrupted, docs/probe.md): a stand-in libcuda.so.1 whose cuInit starts a helper, then hangs
# (tests/fake/fake_hang_libcuda.c with GD_FAKE_HELPER)
if command -v cc >/dev/null; then
	mkdir -p "$tmp/fakecuda"
	cc -shared -fPIC -o "$tmp/fakecuda/libcuda.so.1" \
		"$SRC/tests/fake/fake_hang_libcuda.c"
	for s in USR1 PIPE ALRM TERM; do
		sig_case "probe" "$s" 3 env GPUDOCTOR_LIB_PATH="$tmp/fakecuda" \
			GD_FAKE_HELPER="$ms" "$G" probe --backend cuda \
			--timeout 20 --total-timeout 30
	done
else
	echo "skip - probe: no C compiler for the stand-in libcuda"
fi
exit $fail
