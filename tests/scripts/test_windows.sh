#!/usr/bin/env bash
# Windows: a Windows capture replayed with --root on Linux (this binary)
# and by the Windows build under Wine (build-win/gpudoctor.exe, make
# windows), both giving the field report's answer in one run; the Windows
# build in Wine's own environment (real registry, real file system: no GPU,
# valid JSON, exit 2). Captures: tests/fixtures/winreg/capture-*/ and
# every tests/fixtures/windows-*/ (root/ when present, else the directory).
set -u
: "${GPUDOCTOR:?built binary}" "${GD_SRCDIR:?source dir}"
command -v jq >/dev/null || { echo "skipped: jq not installed"; exit 77; }
FX=$GD_SRCDIR/tests/fixtures
CAP=$FX/winreg/capture-rx5700xt
EXE=${GD_WIN_EXE:-$GD_SRCDIR/build-win/gpudoctor.exe}
WINE_RUN=$GD_SRCDIR/tools/wine-run.sh
fail=0 checks=0

ok() {
	checks=$((checks + 1))
	[ "$1" = 0 ] && return 0
	echo "FAIL: $2"
	fail=$((fail + 1))
	return 1
}
has() { printf '%s' "$out" | grep -qF -- "$1"; ok $? "$who: output lacks: $1"; }

# the report's answer (field report rdna1-ctranslate2-windows-build-plan)
report_answer() {
	has 'use HIP SDK 6.2 (C:\Program Files\AMD\ROCm\6.2), not 7.1'
	has 'do not trust HIP_PATH'
	has 'no gfx1010 kernels'
	has 'community rocBLAS built for gfx1010'
	has 'CMAKE_HIP_ARCHITECTURES=gfx1010'
	has 'os.add_dll_directory(r"C:\Program Files\AMD\ROCm\6.2\bin")'
	has 'gfx1010, from the PCI id via the knowledge base; Windows has no KFD'
}
report_json() {
	printf '%s' "$out" | jq -e '.platform == "windows" and .exit_code == 1
	  and .gpus[0].gfx == "gfx1010" and .gpus[0].verdict.usable == false
	  and .gpus[0].windows.driver_user_version == "25.5.1"
	  and .windows.driver_hip_major == 6 and .windows.hip_path_sdk == "7.1"' >/dev/null
	ok $? "$who: check --json facts"
}

# ---- probes under Wine: Wine's own opencl.dll over the host's OpenCL
# (PoCL here), vulkan-1.dll (winevulkan: needs a display driver, which
# Wine 8 without X lacks: an init error naming vkCreateInstance, never a
# crash or hang), no HIP or CUDA DLL: "missing" with the names searched.
# A failed init is re-run with the runtime's diagnostics switched on.
wine_probe() {
	who="wine probe"
	out=$(W probe --json --only kernel_vector_add --timeout 30 2>/dev/null)
	printf '%s' "$out" | jq -e '.platform == "windows"' >/dev/null
	ok $? "$who: no JSON document"
	printf '%s' "$out" | jq -e '[.results[] | select(.backend == "hip" and .op == "init")]
	  | length == 1 and .[0].status == "missing" and
	    (.[0].detail | contains("amdhip64_7.dll, amdhip64_6.dll, amdhip64.dll")
	     and contains("LOAD_LIBRARY_SEARCH_DEFAULT_DIRS"))' >/dev/null
	ok $? "$who: HIP not missing with amdhip64_7/_6/amdhip64.dll searched"
	printf '%s' "$out" | jq -e '.results[] | select(.backend == "cuda" and .op == "init")
	  | (.status == "skipped" or .status == "missing") and (.detail | contains("nvcuda.dll"))' >/dev/null
	ok $? "$who: CUDA not missing with nvcuda.dll searched"
	printf '%s' "$out" | jq -e '.results[] | select(.backend == "vulkan" and .op == "init")
	  | .status == "ok" or (.status == "error" and (.detail | contains("vkCreateInstance")))' >/dev/null
	ok $? "$who: Vulkan init neither ok nor a vkCreateInstance error"
	# a failed init runs once more with the runtime's diagnostics on,
	# with the variables Windows has (no LD_DEBUG), shown with the init
	printf '%s' "$out" | jq -e '.results[] | select(.backend == "vulkan" and .op == "init")
	  | .status == "ok" or (.diagnostics.ran and .diagnostics.env == ["VK_LOADER_DEBUG=error,warn"]
	    and (.diagnostics.outcome | startswith("exited 0")))' >/dev/null
	ok $? "$who: Vulkan's failed init not re-run with VK_LOADER_DEBUG alone"
	# Wine's OpenCL.dll over the host's loader with no ICD to find: a
	# real failed init, re-run with the Khronos loader's switch
	local ocl
	ocl=$(OCL_ICD_VENDORS=/nonexistent W probe --backend opencl --only init 2>/dev/null | tr -d '\r')
	printf '%s' "$ocl" | grep -qF 'diagnostics (OCL_ICD_ENABLE_TRACE=1): exited 0 after'
	ok $? "$who: OpenCL's failed init not re-run with OCL_ICD_ENABLE_TRACE=1 alone"
	# two HIP runtimes side by side in gpudoctor's directory (the default
	# DLL search; tests/win/fake_amdhip64.c, both "no device"): one child
	# each, each result saying which DLL answered
	local side=$tmp/hip-side dlls
	dlls=$(dirname "$EXE")/tests
	if [ -f "$dlls/amdhip64_7.dll" ]; then
		mkdir -p "$side" && cp "$EXE" "$dlls"/amdhip64_[67].dll "$side"/
		side=$("$WINE_RUN" "$GD_SRCDIR/build-win" "$side/gpudoctor.exe" \
			probe --backend hip --only init --json 2>/dev/null)
		printf '%s' "$side" | jq -e '[.results[] | select(.op == "init")] | length == 2
		  and (.[0].status == "no_device" and (.[0].detail | startswith("amdhip64_7.dll: ")
		       and contains("HIP runtime 7.")))
		  and (.[1].status == "no_device" and (.[1].detail | startswith("amdhip64_6.dll: ")
		       and contains("HIP runtime 6.")))' >/dev/null
		ok $? "$who: amdhip64_7.dll and amdhip64_6.dll not probed one by one"
		# each "no device" re-run with AMD_LOG_LEVEL=4 on its own DLL
		# (the fake logs as ROCclr does: "HIP Library Path: ...")
		printf '%s' "$side" | jq -e '[.results[] | select(.op == "init")
		  | .diagnostics | select(.ran and .env == ["AMD_LOG_LEVEL=4"])
		  | [.lines[].text | select(contains("HIP Library Path:"))][0]]
		  | length == 2 and (.[0] | endswith("amdhip64_7.dll"))
		    and (.[1] | endswith("amdhip64_6.dll"))' >/dev/null
		ok $? "$who: AMD_LOG_LEVEL=4 re-run not of each DLL in turn"
	fi
	if ls /etc/OpenCL/vendors/*.icd >/dev/null 2>&1; then
		printf '%s' "$out" | jq -e '
		  any(.results[]; .backend == "opencl" and .op == "kernel_vector_add" and .status == "ok")
		  and any(.devices[]; .backend == "opencl" and (.library | test("OpenCL.dll"; "i")))' >/dev/null
		ok $? "$who: OpenCL vector_add not ok through Wine's OpenCL.dll" ||
			printf '%s' "$out" | jq -c '.results[] | select(.backend == "opencl")'
	fi
}

# ---- try and run under Wine: real child processes (tests/win/fake_win_app.c)
# that hang, crash with an access violation, or leave a process behind;
# Wine's own machine has no GPU, so try runs the baseline only.
wine_supervisor() {
	local fake t0 late
	fake=$(dirname "$EXE")/tests/fake_win_app.exe
	[ -f "$fake" ] || { echo "skipped (Wine supervisor): $fake not built"; return; }
	who="wine run"
	W run -q -- "$fake" exit 3 >/dev/null 2>&1
	ok $(($? != 3)) "$who: exit status not passed on"
	out=$(W run -q -- "$fake" crash 2>&1); rc=$?
	ok $((rc != 5)) "$who: crash: exit $rc, want 0xC0000005's low byte 5"
	has 'crashed: 0xC0000005 (access violation)'
	t0=$(date +%s)
	out=$(W run -q --watch 2 -- "$fake" hang 2>&1); rc=$?
	ok $((rc != 124)) "$who: --watch on a hang: exit $rc, want 124"
	ok $(($(date +%s) - t0 > 30)) "$who: --watch 2 took $(($(date +%s) - t0)) s"
	late=$tmp/late-run
	W run -q -- "$fake" orphan "Z:$late" >/dev/null 2>&1
	who="wine try"
	out=$(W try --json --timeout 3 -- "$fake" hang 2>/dev/null)
	printf '%s' "$out" | jq -e '.strategies[0] | .outcome == "hang"
	  and .phase == "hung after: fake: hipMemcpy waiting"' >/dev/null
	ok $? "$who: hang not reported with its last line"
	out=$(W try --json --timeout 20 -- "$fake" crash 2>/dev/null)
	printf '%s' "$out" | jq -e '.strategies[0] | .outcome == "crash"
	  and .signal == "0xC0000005 (access violation)"
	  and .phase == "0xC0000005 (access violation) after: fake: rocblas_gemm"' >/dev/null
	ok $? "$who: access violation not reported by name"
	out=$(W try --json --timeout 20 -- "$fake" orphan "Z:$tmp/late-try" 2>/dev/null)
	printf '%s' "$out" | jq -e '.strategies[0].outcome == "ok"' >/dev/null
	ok $? "$who: the orphan case's own exit 0 not ok"
	sleep 3 # the helpers would write their files 2 s after they start
	[ ! -e "$late" ] && [ ! -e "$tmp/late-try" ]
	ok $? "$who: a process left behind outlived run or try (Job Object)"
}

# ---- run explains a failing program under Wine (issue #23 point 5): a
# real mingw-built program (tests/run/run_child.c, as test_run_explain.sh
# uses on Linux) prints the CUDA runtime's text for a missing kernel image
# and exits 1; its output passes through, its status is run's, the cause
# and the fix for it follow on stderr; on an NVIDIA H200's tree the fix
# names sm_90. Also: byte-exact passthrough, an access violation by name,
# --json, --no-explain, and a console Ctrl-C (GenerateConsoleCtrlEvent)
# reaching the program while run waits.
wine_run_explain() {
	local rc_exe h200=fixtures/nvidia-h200/root rc o e
	rc_exe=$(dirname "$EXE")/tests/run_child.exe
	[ -f "$rc_exe" ] || { echo "skipped (Wine run explain): $rc_exe not built"; return; }
	who="wine run explain"
	W --root "$h200" run -q -- "$rc_exe" fail >"$tmp/o" 2>"$tmp/e"; rc=$?
	o=$(tr -d '\r' <"$tmp/o") e=$(tr -d '\r' <"$tmp/e")
	ok $((rc != 1)) "$who: exit $rc, want 1"
	[ "$o" = "Initialized device 0 with 81079 MB of memory" ]
	ok $? "$who: stdout not the program's alone: $o"
	out=$e
	has "Couldn't init a GPU test: Error in load module: no kernel image is available for execution on the device"
	has "gpudoctor run: 'run_child.exe' exited with status 1"
	has "gpudoctor run: why (gpudoctor explain on its output): "
	has "(cuda-no-kernel-image; log: Couldn't init a GPU test:"
	has "gpudoctor run: fix: 'run_child.exe' has no code for this GPU (sm_90): rebuild it for sm_90"
	[ "$(printf '%s\n' "$e" | grep -n "^Couldn't init" | cut -d: -f1)" -lt \
	  "$(printf '%s\n' "$e" | grep -n '^gpudoctor run: why' | cut -d: -f1)" ] 2>/dev/null
	ok $? "$who: the explanation not under the program's output"
	W --root "$h200" --json run -- "$rc_exe" fail 2>&1 >/dev/null | tr -d '\r' | tail -1 >"$tmp/j"
	jq -e '.exit_code == 1 and .signal == null and .cause_id == "cuda-no-kernel-image"
	  and (.cause_fix | test("sm_90")) and .argv[-1] == "fail"' "$tmp/j" >/dev/null
	ok $? "$who: --json outcome document: $(cat "$tmp/j")"
	# byte for byte (every byte value, a 70000-byte line, no final
	# newline): what the program writes alone, stdout and stderr apart
	"$WINE_RUN" "$GD_SRCDIR/build-win" "$rc_exe" bytes >"$tmp/d.out" 2>"$tmp/d.err"
	W run -q -- "$rc_exe" bytes >"$tmp/r.out" 2>"$tmp/r.err"; rc=$?
	[ $rc = 3 ] && [ -s "$tmp/d.out" ] && cmp -s "$tmp/d.out" "$tmp/r.out" && cmp -s "$tmp/d.err" "$tmp/r.err"
	ok $? "$who: bytes: rc $rc, passthrough differs: $(cmp "$tmp/d.out" "$tmp/r.out"; cmp "$tmp/d.err" "$tmp/r.err")"
	W run -q -- "$rc_exe" crash >"$tmp/o" 2>&1; rc=$?
	out=$(tr -d '\r' <"$tmp/o")
	# Under load Wine has once failed to start the program (exit 1, not a
	# word from it, a CI run of 2026-11-27): what is tested is run's
	# report of the crash, so a program that never spoke is run once more
	if [ $rc != 5 ] && ! grep -q "about to fault" <<<"$out"; then
		echo "note: $who: crash: exit $rc before the program spoke (Wine), once more: $out"
		W run -q -- "$rc_exe" crash >"$tmp/o" 2>&1; rc=$?
		out=$(tr -d '\r' <"$tmp/o")
	fi
	ok $((rc != 5)) "$who: crash: exit $rc, want 0xC0000005's low byte 5"
	has "about to fault"
	has "gpudoctor run: 'run_child.exe' crashed: 0xC0000005 (access violation)"
	W --root "$h200" run -q --no-explain -- "$rc_exe" fail >/dev/null 2>"$tmp/e"; rc=$?
	out=$(tr -d '\r' <"$tmp/e")
	ok $((rc != 1)) "$who: --no-explain: exit $rc, want 1"
	has "Couldn't init a GPU test"
	! grep -q '^gpudoctor' "$tmp/e"
	ok $? "$who: --no-explain: gpudoctor said something: $out"
	# Ctrl-C on the console (GenerateConsoleCtrlEvent to all its
	# processes): the program's handler gets it, run, which got it too,
	# waits and passes the program's status on. Wine gives a program a
	# console only on a terminal: script(1) makes one; without script, or
	# when no Ctrl-C arrives, the case is skipped, visibly.
	if ! command -v script >/dev/null; then
		echo "skipped (Wine Ctrl-C): no script(1) for a terminal"
		return
	fi
	script -qec "'$WINE_RUN' '$GD_SRCDIR/build-win' '$EXE' run -q -- '$rc_exe' ctrlc catch" \
		/dev/null </dev/null >"$tmp/o" 2>&1; rc=$?
	out=$(tr -d '\r' <"$tmp/o")
	if [ $rc = 77 ]; then
		echo "skipped (Wine Ctrl-C): no console Ctrl-C here: $out"
		return
	fi
	ok $((rc != 42)) "$who: Ctrl-C: exit $rc, want the program's 42: $out"
	has "child got Ctrl-C"
	# unhandled, Ctrl-C ends the program with the status it ends with
	# alone (Windows: 0xC000013A; Wine 8: 0), and run says nothing
	script -qec "'$WINE_RUN' '$GD_SRCDIR/build-win' '$rc_exe' ctrlc die" \
		/dev/null </dev/null >/dev/null 2>&1; e=$?
	script -qec "'$WINE_RUN' '$GD_SRCDIR/build-win' '$EXE' run -q -- '$rc_exe' ctrlc die" \
		/dev/null </dev/null >"$tmp/o" 2>&1; rc=$?
	ok $((rc != e)) "$who: Ctrl-C unhandled: exit $rc, the program alone $e"
	! grep -q 'gpudoctor' "$tmp/o"
	ok $? "$who: Ctrl-C unhandled: gpudoctor said something: $(cat -v "$tmp/o")"
}

# ---- the supervisor's self-test under Wine: real child processes under
# Job Objects (hang, busy loop, access violation, abort, wrong result,
# 64 MiB of output, a cut-off message, a grandchild that never ends, a
# process left behind, a missing DLL, exit during an op, slow progress,
# a stall). ignores_sigterm does not apply (TerminateJobObject cannot be
# refused): 13 cases. Deadline 20 s: Wine's pipes carry the flood at
# a few MB/s, and a Wine process takes a second to start.
ours() { # pids of this prefix's processes whose command line has $1
	local p pfx
	pfx=$(realpath -m "$GD_SRCDIR/build-win/wineprefix")
	for p in $(pgrep -f -- "$1"); do
		grep -qzx "WINEPREFIX=$pfx" /proc/$p/environ 2>/dev/null &&
			echo "$p"
	done
}
wine_selftest() {
	local mid
	who="wine selftest"
	W probe --selftest --timeout 20 --json 2>/dev/null | tr -d '\r' >"$tmp/st.json" &
	sleep 8
	# grandchild_hangs' grandchild: this program again, no --start
	mid=$(ours '__probe-child selftest --only 0$')
	wait
	out=$(cat "$tmp/st.json")
	printf '%s' "$out" | jq -e '.selftest_passed and (.results | length) == 13
	  and all(.results[]; .pass) and all(.results[]; .op != "ignores_sigterm")' >/dev/null
	ok $? "$who: not all 13 cases classified as expected" ||
		printf '%s' "$out" | jq -c '.results[] | select(.pass | not)'
	printf '%s' "$out" | jq -e '.results[] | select(.op == "sigsegv")
	  | .detail | contains("0xC0000005 (access violation)")' >/dev/null
	ok $? "$who: the access violation not named"
	[ -n "$mid" ]
	ok $? "$who: no grandchild seen running mid-run (the case tests nothing)"
	sleep 1
	[ -z "$(ours '__probe-child selftest')" ]
	ok $? "$who: processes of the self-test left running: $(ours '__probe-child selftest')"
}

# ---- native replay ----
who="linux replay"
out=$(env -i PATH="$PATH" "$GPUDOCTOR" --root "$CAP" check 2>&1); rc=$?
ok $((rc != 1)) "$who: check exit $rc, want 1"
report_answer
out=$(env -i PATH="$PATH" "$GPUDOCTOR" --root "$CAP" check --json); rc=$?
report_json
out=$(env -i PATH="$PATH" "$GPUDOCTOR" --root "$CAP" list)
has 'AMD Radeon RX 5700 XT (gfx1010, 8.0 GiB)  [1002:731f]'
for d in "$FX"/windows-*/; do
	[ -d "$d" ] || continue
	r=$d; [ -d "$d/root" ] && r=$d/root
	out=$("$GPUDOCTOR" --root "$r" check --json 2>/dev/null); rc=$?
	printf '%s' "$out" | jq -e '.platform == "windows"' >/dev/null
	ok $? "linux replay of $(basename "$d"): not judged as Windows (exit $rc)"
done

# ---- the Windows build under Wine ----
if [ ! -f "$EXE" ]; then
	echo "skipped (Wine part): $EXE not built (make windows)"
elif ! command -v wine64 >/dev/null && ! command -v wine >/dev/null &&
     [ ! -x /usr/lib/wine/wine64 ]; then
	echo "skipped (Wine part): wine not installed (Debian: wine64)"
else
	W() { "$WINE_RUN" "$GD_SRCDIR/build-win" "$EXE" "$@"; }
	who="wine"
	out=$(W --version 2>&1); ok $? "$who: --version failed: $out"
	out=$(W list 2>&1); rc=$?
	ok $((rc > 2)) "$who: list exit $rc"
	out=$(W check --json 2>/dev/null); rc=$?
	ok $((rc != 2)) "$who: check --json in Wine's own environment: exit $rc, want 2 (no GPU)"
	printf '%s' "$out" | jq -e '.platform == "windows" and .exit_code == 2' >/dev/null
	ok $? "$who: check --json not valid JSON with platform windows"
	# a capture replayed by the Windows build: paths relative to tests/
	cd "$GD_SRCDIR/tests" || exit 1
	who="wine replay"
	out=$(W --root fixtures/winreg/capture-rx5700xt check 2>&1); rc=$?
	ok $((rc != 1)) "$who: check exit $rc, want 1"
	report_answer
	out=$(W --root fixtures/winreg/capture-rx5700xt check --json 2>/dev/null)
	report_json
	# every Windows capture with goldens: the Windows build's report is
	# the Linux build's byte for byte; the one difference is the console's
	# CRLF line ends (stdout in text mode), removed before comparing
	who="wine goldens"
	for d in fixtures/windows-*/; do
		d=${d%/}
		[ -f "$d/expected.json" ] || continue
		out=$(cd "$d" && W --root root --json check --no-probe 2>/dev/null | tr -d '\r')
		[ "$out" = "$(cat "$d/expected.json")" ]
		ok $? "$who: $d: --json check differs from expected.json"
		out=$(cd "$d" && W --root root check --no-probe --color=never 2>/dev/null | tr -d '\r')
		[ "$out" = "$(sed '/^exit status: /,$d' "$d/expected.txt")" ]
		ok $? "$who: $d: check differs from expected.txt"
	done
	d=fixtures/windows-rx5700xt-hip62-hip71
	out=$(cd "$d" && W --root root env 2>/dev/null | tr -d '\r')
	[ "$out" = "$(cd "$d" && env -i PATH="$PATH" "$GPUDOCTOR" --root root env)" ]
	ok $? "$who: env (PowerShell lines) differs from the Linux build's"
	has 'os.add_dll_directory(r"C:\Program Files\AMD\ROCm\6.2\bin")'
	# files written whole (plat.h memory stream, then a rename over the
	# old one): byte for byte what Linux writes, LF, the second time too
	who="wine files"
	tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
	lin=fixtures/rx7900xtx/root
	"$GPUDOCTOR" --root "$lin" nfd >"$tmp/nfd.lin" 2>/dev/null
	for i in 1 2; do
		W --root "$lin" nfd --dir "Z:$tmp" >/dev/null 2>&1
		cmp -s "$tmp/gpudoctor" "$tmp/nfd.lin"
		ok $? "$who: nfd --dir, run $i: not the Linux build's bytes"
	done
	out=$(W explain fixtures/logs/amdgpu-ring-timeout.txt 2>/dev/null | tr -d '\r')
	[ "$out" = "$("$GPUDOCTOR" explain fixtures/logs/amdgpu-ring-timeout.txt 2>/dev/null)" ]
	ok $? "$who: explain differs from the Linux build's"
	# the tracer is an LD_PRELOAD library: --trace refuses, runs nothing
	out=$(W run --trace -- cmd /c echo traced 2>&1); rc=$?
	ok $((rc != 125)) "$who: run --trace exit $rc, want 125"
	has 'not in the Windows build yet'
	wine_probe
	wine_supervisor
	wine_run_explain
	wine_selftest
fi
# issue #20 E11: the app's HIP backend DLL is not a PE file ("MZ" alone):
# its imports are unknown, said in text and JSON with a code, exit 1
# (it was exit 0, "works", and the missing-hipblas finding gone)
e11=$(mktemp -d)
cp -a "$FX/windows-r9700-llamacpp-missing-hipblas/root/." "$e11/"
printf MZ > "$e11/fs/C/Users/user/AppData/Local/Programs/llama-b10400-bin-win-rocm-7.14-x64/ggml-hip.dll"
who="E11 text" out=$("$GPUDOCTOR" --root "$e11" --no-probe 2>/dev/null)
rc=$?
ok $((rc != 1)) "$who: exit $rc, want 1"
has 'ggml-hip.dll could not be read (not a valid PE file (truncated MZ header)): its imports are unknown'
out=$("$GPUDOCTOR" --root "$e11" --no-probe --json 2>/dev/null)
printf '%s' "$out" | jq -e '.exit_code == 1 and .gpus[0].verdict.status != "works"
  and ([.gpus[0].verdict.facts[].code] | index("win.app_dll_unreadable") != null)' >/dev/null
ok $? "E11 JSON: no win.app_dll_unreadable fact, or works"
rm -rf "$e11"

# issue #22: a hybrid laptop (Intel UHD 630 + RTX 2060, registry only, no
# fs/): both adapters judged, the NVIDIA one for CUDA (sm_75) and never
# "nvcuda.dll is missing" of a System32 not captured, the iGPU as Gen9
opt=$FX/windows-optimus-uhd630-rtx2060-dxdiag/root
who="optimus text" out=$("$GPUDOCTOR" --root "$opt" --no-probe 2>/dev/null)
has 'nvcuda.dll could not be checked: this capture holds no System32 listing'
has 'on Windows: no PyTorch XPU (the CPU); llama.cpp through Vulkan'
printf '%s' "$out" | grep -q 'nvcuda.dll is missing'
ok $((! $?)) "$who: says nvcuda.dll is missing of a System32 not captured"
out=$("$GPUDOCTOR" --root "$opt" --no-probe --json 2>/dev/null)
printf '%s' "$out" | jq -e '(.gpus | length) == 2
  and .gpus[1].verdict.label == "NVIDIA GeForce RTX 2060 (sm_75)"
  and .gpus[1].verdict.backend == "CUDA" and .gpus[1].verdict.usable
  and .windows.nvidia.nvcuda_dll == null
  and ([.gpus[1].verdict.facts[].code] | index("win.nvidia.nvcuda_unchecked") != null)
  and ([.gpus[0].verdict.facts[].code] | index("win.intel.pytorch_xpu") != null)' >/dev/null
ok $? "optimus JSON: both adapters not judged as expected"

echo "test_windows: $checks checks, $fail failed"
[ "$fail" = 0 ]
