#!/usr/bin/env bash
# --trace names a hang inside runtime start (issue #19): stand-ins whose
# first call never returns (tests/fake/fake_hang_init_libamdhip64.c:
# hipGetDeviceCount; tests/fake/fake_hang_libcuda.c: cuInit), called by
# tests/trace/init_app.c; `try --trace` and `run --watch` name the call
# and say why it can block (doctor/trace_why.c: runtime start).
set -u
. "$(dirname "$0")/trace_env.sh"

cc -shared -fPIC -o "$tmp/libamdhip64.so.5" -Wl,-soname,libamdhip64.so.5 \
	"$src/tests/fake/fake_hang_init_libamdhip64.c" &&
cc -shared -fPIC -o "$tmp/libcuda.so.1" -Wl,-soname,libcuda.so.1 \
	"$src/tests/fake/fake_hang_libcuda.c" &&
cc -o "$tmp/init_app" "$src/tests/trace/init_app.c" "$tmp/libamdhip64.so.5" \
	"$tmp/libcuda.so.1" -Wl,-rpath,"$tmp" || { echo "cannot build"; exit 1; }

for rt in hip:hipGetDeviceCount cuda:cuInit; do
	what=${rt%%:*} api=${rt#*:}
	txt=$("$GPUDOCTOR" --root "$tmp/root" try --trace=hooks --timeout 1 -- \
		"$tmp/init_app" "$what" 2>/dev/null)
	grep -Eq "^baseline +hang .*hung: thread [0-9]+ stuck [0-9.]+ s in $api\(\) called from init_app" <<<"$txt" &&
		grep -Eq "^ +why: runtime start: (HIP opens /dev/kfd|the CUDA driver opens /dev/nvidia)" <<<"$txt" &&
		ok "try --trace: a hang in $api is named, and why" ||
		{ bad "try --trace, $api"; echo "$txt"; }
	err=$("$GPUDOCTOR" --root "$tmp/root" run --watch 1 -- "$tmp/init_app" \
		"$what" 2>&1 >/dev/null)
	grep -Eq "^gpudoctor run: thread [0-9]+ stuck [0-9.]+ s in $api\(\)" <<<"$err" &&
		grep -q "^gpudoctor run:   why: runtime start: " <<<"$err" &&
		ok "run --watch: a hang in $api is named" ||
		{ bad "run --watch, $api"; echo "$err"; }
done
exit $fail
