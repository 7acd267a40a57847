#!/usr/bin/env bash
# `metrics --textfile DIR` and `nfd --dir DIR` in a hostile shared
# directory (reliability finding E4): the temporary file is created
# exclusively under an unpredictable name (src/cli/out_file.c), so
#  - a FIFO at the name gpudoctor used to pick (.NAME.tmp.PID) does not
#    block it: it returns in time, publishes its own file, leaves the FIFO;
#  - in a sticky world-writable directory, a file another user (nobody,
#    through setpriv) created at that name is never opened: the published
#    file is ours (owner root), theirs is left as it was;
#  - no temporary file is left behind.
set -u
G=${GPUDOCTOR:?set GPUDOCTOR to the built binary}
SRC=${GD_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
FX="$SRC/tests/fixtures/rx5700xt-rocm-6.2.4/root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok   - $1"; }
bad() { echo "FAIL - $1"; fail=1; }
skip() { echo "skip - $1"; }

# run_kind KIND DIR PRE: sh runs PRE, then execs gpudoctor, so in PRE $$
# is gpudoctor's pid ($1: the fixture, $2: DIR, $3: a file "theirs").
# Exit 0 or 1 (findings) is a run that finished; 124 a hang.
run_kind() {
	local kind=$1 d=$2 pre=$3 args
	[ $kind = metrics ] && args="metrics --no-probe --textfile" ||
		args="nfd --no-probe --dir"
	timeout 20 sh -c "$pre; exec \"\$0\" --root \"\$1\" $args \"\$2\"" \
		"$G" "$FX" "$d" "$tmp/theirs" >"$tmp/out" 2>"$tmp/err"
}
echo theirs >"$tmp/theirs"
chmod 644 "$tmp/theirs"
for kind in metrics nfd; do
	[ $kind = metrics ] && name=gpudoctor.prom || name=gpudoctor
	# 1. a FIFO at the old predictable temporary name
	d="$tmp/$kind-fifo"
	mkdir -p "$d"
	s=$(date +%s)
	run_kind $kind "$d" 'mkfifo "$2/.'$name'.tmp.$$"'
	rc=$?
	e=$(date +%s)
	if [ $rc -le 1 ] && [ $((e - s)) -lt 15 ] && [ -f "$d/$name" ] &&
		[ -s "$d/$name" ]; then
		ok "$kind: a FIFO at .$name.tmp.PID does not block ($((e - s)) s), $name written"
	else
		bad "$kind: FIFO: rc $rc after $((e - s)) s: $(head -c 300 "$tmp/err")"
	fi
	left=$(find "$d" -name ".$name.tmp.*" ! -type p | wc -l)
	[ "$left" = 0 ] && ok "$kind: no temporary file left" ||
		bad "$kind: $left temporary file(s) left"

	# 2. another user's file at that name in a sticky shared directory
	if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
		setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
		d="$tmp/$kind-sticky"
		mkdir -p "$d" && chmod 1777 "$d" && chmod 755 "$tmp"
		run_kind $kind "$d" 'setpriv --reuid=65534 --regid=65534 --clear-groups cp "$3" "$2/.'$name'.tmp.$$"'
		rc=$?
		owner=$(stat -c %u "$d/$name" 2>/dev/null)
		theirs=$(find "$d" -name ".$name.tmp.*" -user 65534 | wc -l)
		if [ $rc -le 1 ] && [ "$owner" = 0 ] && [ "$theirs" = 1 ] &&
			! grep -q theirs "$d/$name"; then
			ok "$kind: another user's file at the temporary name is not published (owner $owner)"
		else
			bad "$kind: sticky dir: rc $rc, $name owner ${owner:-none}, their files left $theirs: $(head -c 300 "$tmp/err")"
		fi
	else
		skip "$kind: another user's file: needs root and setpriv"
	fi
done
exit $fail
