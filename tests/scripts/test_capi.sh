#!/usr/bin/env bash
# The C API (include/gpudoctor.h, libgpudoctor.so.1) as an app meets it:
# `make install` into a DESTDIR, tests/api/api_check.c compiled with
# `pkg-config --cflags --libs gpudoctor` from there, then
#  - on every captured machine, Linux and Windows, every result equals
#    what the command prints (check --brief, --json check --brief, check,
#    --json check, stderr) and the verdict equals its exit status;
#  - the error paths (NULL arguments, a bad root, misuse, the probe helper
#    missing or not gpudoctor);
#  - a check with probes of this machine runs them in the helper: the
#    app's process maps no GPU runtime;
#  - gpudoctor_explain_json on real logs (tests/fixtures/logs) held in
#    memory gives what `--json explain FILE` prints, but for "input";
#  - an app that took a comma-decimal locale (setlocale(LC_ALL, "") under
#    de_DE.UTF-8, built here with localedef) gets the same reports and
#    explain documents, and a probe timeout of 2.5 s reaches the helper;
#  - the library exports exactly the header's functions (nm -D), under the
#    version node GPUDOCTOR_1, with soname libgpudoctor.so.1.
set -u
. "$(dirname "$0")/machine_env.sh"
: "${GPUDOCTOR:?}" "${GD_SRCDIR:?}" "${GD_BINDIR:?}"
fix=$GD_SRCDIR/tests/fixtures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
inst=$tmp/inst

DESTDIR=$inst cmake --install "$GD_BINDIR" --prefix /usr/local >"$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log"; echo "FAIL: cmake --install"; exit 1; }
pc=$(find "$inst" -name gpudoctor.pc | head -1)
[ -n "$pc" ] || { echo "FAIL: no gpudoctor.pc installed"; exit 1; }
export PKG_CONFIG_LIBDIR=${pc%/*} PKG_CONFIG_PATH= PKG_CONFIG_SYSROOT_DIR=$inst
libdir=$(pkg-config --variable=libdir gpudoctor) # pkgconf adds the sysroot
[ "${libdir#"$inst"}" != "$libdir" ] || libdir=$inst$libdir
[ -f "$inst/usr/local/include/gpudoctor.h" ] || { echo "FAIL: header not installed"; fail=1; }
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Wpedantic -Werror -o "$tmp/api_check" \
	"$GD_SRCDIR/tests/api/api_check.c" $(pkg-config --cflags --libs gpudoctor) ||
	{ echo "FAIL: api_check.c does not build against the installed library"; exit 1; }
if command -v c++ >/dev/null; then
	# shellcheck disable=SC2046
	echo '#include <gpudoctor.h>' | c++ -x c++ -fsyntax-only -Wall -Werror \
		$(pkg-config --cflags gpudoctor) - || { echo "FAIL: the header is not C++-clean"; fail=1; }
fi

# the exported symbols: the header's functions, nothing else
so=$libdir/libgpudoctor.so.1
readelf -d "$so" | grep -q 'Library soname: \[libgpudoctor.so.1\]' || { echo "FAIL: soname"; fail=1; }
[ "$(readlink "$libdir/libgpudoctor.so")" = libgpudoctor.so.1 ] || { echo "FAIL: libgpudoctor.so -> libgpudoctor.so.1"; fail=1; }
nm -D --defined-only "$so" | awk '{ print $3 }' | grep -v '^GPUDOCTOR_1$' | sort >"$tmp/got"
grep -o '\bgpudoctor_[a-z_]*(' "$GD_SRCDIR/include/gpudoctor.h" | tr -d '(' |
	sed 's/$/@@GPUDOCTOR_1/' | sort -u >"$tmp/want"
diff -u "$tmp/want" "$tmp/got" || { echo "FAIL: exported symbols differ from the header's functions"; fail=1; }

app_env=() # more of the app's environment (the locale case)
app() { # machine-dir, args... (its env, as the command gets it)
	local d=$1; shift
	local envs=(PATH=/usr/bin:/bin LANG=C HOME=/nonexistent LD_LIBRARY_PATH="$libdir" "${app_env[@]}")
	machine_env "$d"
	(cd "$d" && env -i "${envs[@]}" "$tmp/api_check" "$@")
}
cli() {
	local d=$1; shift
	local envs=(PATH=/usr/bin:/bin LANG=C HOME=/nonexistent)
	machine_env "$d"
	(cd "$d" && env -i "${envs[@]}" "$GPUDOCTOR" --root root "$@")
}
# The command's WHAT (as api_check show names it) of machine D into
# $tmp/c; its exit status.
cmd_result() {
	local d=$1 what=$2
	case $what in
	brief) cli "$d" check --no-probe --brief >"$tmp/c" 2>/dev/null ;;
	brief-json) cli "$d" --json check --no-probe --brief >"$tmp/c" 2>/dev/null ;;
	report) cli "$d" check --no-probe >"$tmp/c" 2>/dev/null ;;
	report-json) cli "$d" --json check --no-probe >"$tmp/c" 2>/dev/null ;;
	diags) cli "$d" check --no-probe 2>"$tmp/c" >/dev/null ;;
	esac
}
# The command's `--json explain` of tests/fixtures/logs/LOG on machine D
# into $tmp/c, with the "input" the app's document has.
cmd_explain() {
	cli "$1" --json explain "$fix/logs/$2" 2>/dev/null | sed 's|^  "input": .*|  "input": "app",|' >"$tmp/c"
}
# A check with probes of this machine through the installed helper, in
# the environment given (NAME=VALUE ...): $tmp/live.json, $tmp/err.
live_check() {
	(cd "$tmp" && env "$@" GPUDOCTOR_HELPER="$inst/usr/local/bin/gpudoctor" \
		LD_LIBRARY_PATH="$libdir" "$tmp/api_check" show report-json - probes >"$tmp/live.json" 2>"$tmp/err")
}
n=0
for d in "$fix"/*/; do
	d=${d%/}
	[ -d "$d/root" ] || continue
	name=${d##*/}
	n=$((n + 1))
	for what in brief brief-json report report-json diags; do
		cmd_result "$d" "$what"
		crc=$?
		app "$d" show "$what" root >"$tmp/a" 2>"$tmp/err"
		arc=$?
		diff -u "$tmp/c" "$tmp/a" >"$tmp/diff" || { head -20 "$tmp/diff"; echo "FAIL $name: $what differs from the command's"; fail=1; }
		[ "$crc" = "$arc" ] || { cat "$tmp/err"; echo "FAIL $name: $what: verdict $arc, command exit $crc"; fail=1; }
	done
done

# explain on a text in memory: the command's document for the same bytes
# (real logs), on the H200 machine and one without a GPU
k=0
for log in cuda-oom.txt nvrm-xid.txt cuda-driver-insufficient.txt $(cd "$fix/logs" && grep -l . ./*.txt | head -20 | sed 's|^\./||'); do
	for d in "$fix/nvidia-h200" "$fix/no-gpu"; do
		cmd_explain "$d" "$log"
		app "$d" explain root "$fix/logs/$log" >"$tmp/a" 2>"$tmp/err" ||
			{ cat "$tmp/err"; echo "FAIL explain $log: the API failed"; fail=1; }
		diff -u "$tmp/c" "$tmp/a" >"$tmp/diff" || { head -20 "$tmp/diff"; echo "FAIL explain $log on ${d##*/}: differs from the command's"; fail=1; }
		k=$((k + 1))
	done
done
echo "explain: $k documents compared with the command"
grep -q '"causes"' "$tmp/a" || { echo "FAIL: explain's document has no causes"; fail=1; }

# In the user's locale: numbers in the reports and the explain documents
# are written, and the OOM line's sizes read, with a point (docs/c-api.md,
# "Locale"), and the probe timeout reaches the helper as a number it reads.
mkdir -p "$tmp/loc"
if localedef -i de_DE -f UTF-8 "$tmp/loc/de_DE.UTF-8" >/dev/null 2>&1; then
	app_env=(LOCPATH="$tmp/loc" LC_ALL=de_DE.UTF-8 GD_API_SETLOCALE=1)
	app "$fix/no-gpu" show brief root >/dev/null 2>"$tmp/err"
	grep -q "decimal point: ','" "$tmp/err" ||
		{ cat "$tmp/err"; echo "FAIL: the de_DE.UTF-8 locale did not give the app a comma decimal point"; fail=1; }
	k=0
	for m in strixhalo-gtt-62g rx5700xt nvidia-h200; do
		for what in report report-json; do
			cmd_result "$fix/$m" "$what"
			app "$fix/$m" show "$what" root >"$tmp/a" 2>/dev/null
			diff -u "$tmp/c" "$tmp/a" >"$tmp/diff" || { head -20 "$tmp/diff"; echo "FAIL $m: $what in a comma locale differs from the command's"; fail=1; }
			k=$((k + 1))
		done
	done
	for log in cuda-oom.txt oom-torch-cobra-24.txt oom-torch-framepack-369.txt oom-vllm-kaito-976.txt; do
		cmd_explain "$fix/nvidia-h200" "$log"
		app "$fix/nvidia-h200" explain root "$fix/logs/$log" >"$tmp/a" 2>/dev/null
		diff -u "$tmp/c" "$tmp/a" >"$tmp/diff" || { head -20 "$tmp/diff"; echo "FAIL explain $log in a comma locale differs from the command's"; fail=1; }
		k=$((k + 1))
		# the sizes of cuda-oom.txt's line, read and written back
		[ "$log" != cuda-oom.txt ] || grep -q '12.73 GiB free of 31.47 GiB' "$tmp/a" ||
			{ echo "FAIL: the OOM sizes were not read in a comma locale"; fail=1; }
	done
	app_env=()
	live_check LOCPATH="$tmp/loc" LC_ALL=de_DE.UTF-8 GD_API_SETLOCALE=1 GD_API_TIMEOUT_MS=2500
	rc=$?
	[ "$rc" -le 2 ] && python3 -c 'import json,sys; assert "probes" in json.load(open(sys.argv[1]))' "$tmp/live.json" ||
		{ cat "$tmp/err"; echo "FAIL: a check with a 2.5 s probe timeout in a comma locale: $rc"; fail=1; }
	echo "comma locale: $k documents compared with the command, and a 2.5 s probe timeout"
else
	echo "skipped: comma-locale case: localedef cannot build de_DE.UTF-8 (Debian package locales)"
fi

# the error paths
if ! out=$(app "$fix/rx5700xt" errors root /nonexistent/machine 2>&1); then
	echo "$out"; echo "FAIL: error paths"; fail=1
fi
printf '%s\n' "$out" | grep -c '^ok:' | { read -r k; echo "error paths: $k checks"; }
if [ ! -e /usr/local/bin/gpudoctor ]; then
	app "$fix/no-gpu" show brief - probes >/dev/null 2>"$tmp/err"
	grep -q "the probe helper '/usr/local/bin/gpudoctor' is not there" "$tmp/err" ||
		{ cat "$tmp/err"; echo "FAIL: the installed helper's absence is not named"; fail=1; }
fi

# probes of this machine, through the helper (the DESTDIR's gpudoctor)
live_check
rc=$?
if [ "$rc" -gt 2 ]; then
	cat "$tmp/err"; echo "FAIL: check with probes through the helper: $rc (98: a runtime in the app's process)"; fail=1
elif ! python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert "probes" in d and d["exit_code"] == int(sys.argv[2])' "$tmp/live.json" "$rc"; then
	echo "FAIL: the helper's report has no probes or another verdict"; fail=1
fi

[ "$n" -ge 30 ] || { echo "FAIL: only $n captured machines"; fail=1; }
echo "c api: $n machines compared with the command"
[ "$fail" = 0 ] && echo ok
[ "$fail" = 0 ]
