#!/usr/bin/env bash
# Hostile inputs end to end (reliability findings D6, D9, D12, D13): inputs
# that block or never end are refused at once, an unreadable --root is an
# error (not "no GPU"), and explain finds the error line of a real log in
# the forms Windows and log rotation leave it (UTF-16, a NUL run before it).
set -u
GD=${GPUDOCTOR:?GPUDOCTOR not set}
src=${GD_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
T=$(mktemp -d)
trap 'chmod -R u+rwx "$T"; rm -rf "$T"' EXIT
fail=0 n=0
ok() { n=$((n + 1)); echo "ok   $*"; }
bad() { n=$((n + 1)); fail=$((fail + 1)); echo "FAIL $*"; }
log="$src/tests/fixtures/logs/hip-no-binary.txt"

# D12: nothing here may block; each has 20 s before it counts as a hang.
mkfifo "$T/fifo"
timeout 20 "$GD" --kb "$T/fifo" list >/dev/null 2>"$T/err"
rc=$?
[ $rc != 124 ] && grep -q "not a regular file; using the built-in" "$T/err" &&
	ok "--kb FIFO: refused, built-in kb used" || bad "--kb FIFO: rc $rc $(cat "$T/err")"
for f in /dev/zero "$T/fifo"; do
	timeout 20 "$GD" explain "$f" >/dev/null 2>"$T/err"
	rc=$?
	[ $rc = 3 ] && grep -q "not a regular file" "$T/err" &&
		ok "explain $f: refused, exit 3" || bad "explain $f: rc $rc $(cat "$T/err")"
done
timeout 20 "$GD" explain </dev/zero >/dev/null 2>"$T/err"
rc=$?
[ $rc = 3 ] && grep -q "stdin is a device" "$T/err" &&
	ok "explain </dev/zero: refused, exit 3" || bad "explain </dev/zero: rc $rc"
# a pipe on stdin stays allowed
timeout 20 "$GD" explain <"$log" >/dev/null 2>&1
[ $? = 0 ] && ok "explain <log: still read" || bad "explain <log"
cat "$log" | timeout 20 "$GD" explain >/dev/null 2>&1
[ $? = 0 ] && ok "... | explain: still read" || bad "... | explain"

# D6: a NUL run (logrotate copytruncate) before the error line
{ printf 'loading model\n'; head -c 4096 /dev/zero; cat "$log"; } >"$T/nul.log"
"$GD" explain "$T/nul.log" 2>&1 | grep -q "hip-no-binary" &&
	ok "explain: line after a NUL run found" || bad "explain: NUL run"
# E2: a log over 16 MiB whose tail window starts inside a NUL run (a
# sparse or preallocated log, the error written after the hole): the first
# line after the NULs is a whole line, not the window's partial first one
for size in 20000000 16777216 30000000; do
	rm -f "$T/sparse.log"
	truncate -s $size "$T/sparse.log" && cat "$log" >>"$T/sparse.log"
	"$GD" explain "$T/sparse.log" >"$T/out" 2>&1
	rc=$?
	[ $rc = 0 ] && grep -q "hip-no-binary" "$T/out" &&
		ok "explain: error after a $size-byte hole found" ||
		bad "explain: $size-byte hole: rc $rc $(head -c 300 "$T/out")"
done
rm -f "$T/sparse.log"
# a line longer than the 64 KiB explain copies for its regexes (a JSON log
# on one line): the error past its first 64 KiB is still found
{ head -c 100000 /dev/zero | tr '\0' x; printf ' '; tr '\n' ' ' <"$log"; echo; } >"$T/long.log"
"$GD" explain "$T/long.log" 2>&1 | grep -q "hip-no-binary" &&
	ok "explain: error 100 KB into one line found" ||
	bad "explain: error 100 KB into one line"
# D13: UTF-16 as PowerShell writes it (iconv's UTF-16 has a BOM)
if command -v iconv >/dev/null; then
	for enc in UTF-16 UTF-16LE; do
		iconv -f UTF-8 -t $enc "$log" >"$T/w.log"
		"$GD" explain "$T/w.log" 2>&1 | grep -q "hip-no-binary" &&
			ok "explain: $enc log" || bad "explain: $enc log"
	done
	{ printf '\376\377'; iconv -f UTF-8 -t UTF-16BE "$log"; } >"$T/be.log"
	"$GD" explain "$T/be.log" 2>&1 | grep -q "hip-no-binary" &&
		ok "explain: UTF-16BE log with BOM" || bad "explain: UTF-16BE"
fi

# D9: a --root we cannot read is an error with one line, exit 3
mkdir "$T/r0" && chmod 000 "$T/r0" && chmod 755 "$T"
asuser=""
[ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
	asuser="setpriv --reuid=65534 --regid=65534 --clear-groups"
if [ "$(id -u)" != 0 ] || [ -n "$asuser" ]; then
	out=$($asuser "$GD" --root "$T/r0" --no-probe 2>&1)
	rc=$?
	[ $rc = 3 ] && [ "$(echo "$out" | wc -l)" = 1 ] &&
		echo "$out" | grep -q "cannot use root .*Permission denied" &&
		ok "unreadable --root: one line, exit 3" ||
		bad "unreadable --root: rc $rc: $out"
fi
echo "hostile inputs: $n checks, $fail failed"
[ $fail = 0 ]
