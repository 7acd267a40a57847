#!/usr/bin/env bash
# --trace names the Python line of a hang (issue #19): a Python program
# (tests/trace/py_hang.py) whose worker thread hangs in hipMemcpyAsync of
# the stand-in libamdhip64 (tests/fake/fake_hang_libamdhip64.c). At the
# deadline gpudoctor asks Python's faulthandler (PYTHONFAULTHANDLER, set
# by --trace) for the stacks, matches the stuck thread's pthread id and
# prints the innermost user frames; the dump itself is not shown. A
# user's PYTHONFAULTHANDLER= (off) is kept: no stack, no wait.
set -u
. "$(dirname "$0")/trace_env.sh"
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
cc -shared -fPIC -o "$tmp/libamdhip64.so.5" -Wl,-soname,libamdhip64.so.5 \
	"$src/tests/fake/fake_hang_libamdhip64.c" &&
cc -shared -fPIC -o "$tmp/libfake_caller.so" "$src/tests/trace/fake_caller.c" \
	"$tmp/libamdhip64.so.5" -Wl,-rpath,"$tmp" || { echo "cannot build"; exit 1; }
cp "$src/tests/trace/py_hang.py" "$tmp/train.py"
want=$(grep -n 'fake_caller_upload()\|^    step(lib)' "$tmp/train.py" | awk -F: 'NR==1{a=$1} NR==2{b=$1} END{print "train.py:" a " in step, called from train.py:" b " in worker"}')

err=$("$GPUDOCTOR" --root "$tmp/root" run --watch 5 -- python3 "$tmp/train.py" \
	"$tmp/libfake_caller.so" 2>&1 >"$tmp/out")
rc=$?
[ $rc = 124 ] &&
	grep -Eq '^gpudoctor run: thread [0-9]+ stuck [0-9.]+ s in hipMemcpyAsync\(H2D, 256 MiB, stream 0x5\) called from libfake_caller\.so' <<<"$err" &&
	grep -qx "gpudoctor run:   python: $want" <<<"$err" &&
	! grep -q 'most recent call first' "$tmp/out" <<<"$err" &&
	grep -qx training "$tmp/out" &&
	ok "run --watch names the Python line: $want" ||
	{ bad "run --watch (exit $rc)"; echo "$err"; cat "$tmp/out"; }
out=$("$GPUDOCTOR" --root "$tmp/root" --json try --trace --timeout 5 -- \
	python3 "$tmp/train.py" "$tmp/libfake_caller.so" 2>/dev/null)
py=$(jq -r '.strategies[0].trace.stuck[0].python' <<<"$out")
[ "$py" = "$want" ] && [ "$(jq -r '.strategies[0].outcome' <<<"$out")" = hang ] &&
	ok "try --trace: JSON python '$py'" || { bad "try JSON python '$py'"; echo "$out"; }
err=$(PYTHONFAULTHANDLER= "$GPUDOCTOR" --root "$tmp/root" run --watch 5 -- \
	python3 "$tmp/train.py" "$tmp/libfake_caller.so" 2>&1 >/dev/null)
grep -q 'stuck .* in hipMemcpyAsync' <<<"$err" && ! grep -q 'python:' <<<"$err" &&
	ok "PYTHONFAULTHANDLER= kept: the call named, no stack asked" ||
	{ bad "PYTHONFAULTHANDLER="; echo "$err"; }
for f in /proc/[0-9]*/cmdline; do
	{ tr '\0' ' ' <"$f"; } 2>/dev/null | grep -qF -- "$tmp/train.py" &&
		bad "train.py still running: $f"
done
exit $fail
