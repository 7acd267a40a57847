#!/usr/bin/env bash
# `gpudoctor run` explains a failing program under its output, and leaves
# the program otherwise as it was: tests/run/run_child.c, a real program
# built here, run through `run`:
#  - its exit status is run's; a signal death is 128 + N, said on stderr;
#  - its stdout and stderr pass through byte for byte (every byte value, a
#    70000-byte line, no final newline), stdin is inherited, and a terminal
#    stays a terminal (a pseudo-terminal under script(1));
#  - SIGTERM sent to run reaches the program; SIGKILL to run ends it too;
#  - on failure, explain's cause and the fix for the program follow on
#    stderr (gpu-burn's real text on an H200: rebuild for sm_90, not the
#    PyTorch wheels; a bare CUDA_ERROR_NO_BINARY_FOR_GPU code too), and
#    with --json a second document carries them (validated by the schema
#    when python3-jsonschema is here);
#  - --no-explain execs the program in run's place, as before;
#  - a real HIP program (hipcc, HIP 5.2; no GPU here) fails with the
#    runtime's own error, which comes back decoded (skipped without hipcc).
set -u
: "${GPUDOCTOR:?set GPUDOCTOR to the built binary}"
: "${GD_SRCDIR:?set GD_SRCDIR to the source tree}"
GD=$GPUDOCTOR
FX=$GD_SRCDIR/tests/fixtures
H200=$FX/nvidia-h200/root
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
ulimit -c 0
CC=${CC:-cc}
"$CC" -O1 -o "$T/run_child" "$GD_SRCDIR/tests/run/run_child.c" 2>"$T/cc.err" ||
	{ echo "skipped: no C compiler: $(head -3 "$T/cc.err")"; exit 77; }
P=$T/run_child

# 1. the failing program: status, output unchanged, the cause under it
"$GD" --root "$H200" run -q -- "$P" fail >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 1 ] && ok "exit status 1 passed through" || bad "exit status $rc, not 1"
printf 'Initialized device 0 with 81079 MB of memory\n' | cmp -s - "$T/out" &&
	ok "stdout unchanged (nothing of gpudoctor's on it)" || bad "stdout: $(cat "$T/out")"
head -1 "$T/err" | grep -qx "Couldn't init a GPU test: Error in load module: no kernel image is available for execution on the device" &&
	ok "the program's stderr line first" || bad "stderr: $(cat "$T/err")"
grep -q "^gpudoctor run: why (gpudoctor explain on its output): .*(cuda-no-kernel-image; log: " "$T/err" &&
	ok "the cause: cuda-no-kernel-image" || bad "no cause: $(cat "$T/err")"
fix=$(sed -n 's/^gpudoctor run: fix: //p' "$T/err")
case $fix in "'run_child' has no code for this GPU (sm_90): rebuild it for sm_90 (nvcc -gencode arch=compute_90,code=sm_90, or CMAKE_CUDA_ARCHITECTURES=90"*)
	ok "the fix speaks to the program: sm_90" ;;
*) bad "fix: $fix" ;; esac
case $fix in *wheel* | *PyTorch* | *TORCH*) bad "the fix speaks of PyTorch: $fix" ;; esac

# a log that names only the driver API's code: the same family (its
# signature, tools/errcodes/signatures.tsv), the same fix
"$GD" --root "$H200" run -q -- "$P" code >/dev/null 2>"$T/err"
grep -q "^gpudoctor run: why .*(cuda-no-kernel-image; log: cuModuleLoad failed: CUDA_ERROR_NO_BINARY_FOR_GPU)" "$T/err" &&
	grep -q "^gpudoctor run: fix: 'run_child' has no code for this GPU (sm_90)" "$T/err" &&
	ok "CUDA_ERROR_NO_BINARY_FOR_GPU alone: its signature, program fix" || bad "code: $(cat "$T/err")"

# a terminal's colours and carriage returns are read as explain reads a log
"$GD" --root "$H200" run -q -- "$P" print "$(printf '10%%\r\033[1;31merror:\033[0m no kernel image is available for execution on the device')" >/dev/null 2>"$T/err"
grep -q "log: error: no kernel image is available for execution on the device)$" "$T/err" &&
	ok "colours and CR dropped from the cause's line" || bad "decoded: $(cat -v "$T/err")"

# a cause after 1 MB of output: in the kept tail (the last 256 KiB)
"$GD" --root "$H200" run -q -- sh -c 'yes "a progress line" | head -c 1000000
echo "CUDA error: no kernel image is available for execution on the device" >&2; exit 1' >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 1 ] && [ "$(wc -c <"$T/out")" -eq 1000000 ] && grep -q "^gpudoctor run: why .*cuda-no-kernel-image" "$T/err" &&
	ok "a cause after 1 MB of output is found" || bad "1 MB: rc $rc, $(wc -c <"$T/out"), $(cat "$T/err")"

# the whole "no code for this GPU" family, for the program at hand: HIP's
# newer wording (hipErrorSharedObjectInitFailed) on an RX 5700 XT; "invalid
# device function" from an NVIDIA program on an H200 (not AMD's fix); a
# framework's program keeps the kb's advice; an interpreter is not told to
# rebuild itself; explain --cmd names the program
RX=$FX/rx5700xt/root
"$GD" --root "$RX" run -q -- "$P" print "hipModuleLoadData failed: hipErrorSharedObjectInitFailed (shared object initialization failed)" 2>"$T/err" >/dev/null
grep -q "^gpudoctor run: fix: 'run_child' has no code for this GPU (gfx1010): rebuild it with --offload-arch=gfx1010" "$T/err" &&
	ok "hipErrorSharedObjectInitFailed: rebuild for gfx1010" || bad "shared object: $(cat "$T/err")"
"$GD" --root "$H200" run -q -- "$P" print "CUDA error: invalid device function" 2>"$T/err" >/dev/null
grep -q "^gpudoctor run: fix: 'run_child' has no code for this GPU (sm_90): rebuild it for sm_90" "$T/err" &&
	ok "'CUDA error: invalid device function' on an H200: the NVIDIA fix" || bad "invalid devfn: $(cat "$T/err")"
ln -s "$P" "$T/llama-server"
"$GD" --root "$H200" run -q -- "$T/llama-server" fail 2>"$T/err" >/dev/null
grep -q "^gpudoctor run: fix: " "$T/err" && ! grep -q "rebuild it for" "$T/err" &&
	ok "llama-server: the kb's advice, not 'rebuild llama-server'" || bad "llama-server: $(cat "$T/err")"
ln -s "$P" "$T/python3"
"$GD" --root "$H200" run -q -- "$T/python3" fail 2>"$T/err" >/dev/null
grep -q "^gpudoctor run: fix: The program has no code for this GPU (sm_90)" "$T/err" &&
	ok "python3: 'The program', not 'rebuild python3'" || bad "python3: $(cat "$T/err")"
"$P" fail >"$T/burn.log" 2>&1
"$GD" --root "$H200" explain --json --cmd /opt/gpu-burn/gpu_burn "$T/burn.log" >"$T/e"
jq -e '.matches[0].fix | startswith("'"'gpu_burn'"' has no code for this GPU (sm_90)")' "$T/e" >/dev/null &&
	ok "explain --cmd: the fix names the program" || bad "explain --cmd: $(jq -c '.matches[0].fix' "$T/e")"
printf 'cuModuleLoad failed: CUDA_ERROR_NO_BINARY_FOR_GPU\n' >"$T/code.log"
"$GD" --root "$H200" explain --json --cmd gpu_burn "$T/code.log" >"$T/e"
jq -e '.codes[0].name == "CUDA_ERROR_NO_BINARY_FOR_GPU" and .matches[0].id == "cuda-no-kernel-image" and (.matches[0].fix | startswith("'"'gpu_burn'"' has no code for this GPU (sm_90)"))' "$T/e" >/dev/null &&
	ok "explain: a code of the family alone gets the program's fix" || bad "explain code fix: $(jq -c '[.matches[0].fix, .codes]' "$T/e")"
# the same code by its number only: no signature, the decoded code carries the fix
printf 'cuModuleLoad returned 209\n' >"$T/code.log"
"$GD" --root "$H200" explain --json --cmd gpu_burn "$T/code.log" >"$T/e"
jq -e '(.matches | length) == 0 and .codes[0].name == "CUDA_ERROR_NO_BINARY_FOR_GPU" and (.codes[0].fix | startswith("'"'gpu_burn'"' has no code for this GPU (sm_90)"))' "$T/e" >/dev/null &&
	ok "explain: the code by number alone gets the program's fix" || bad "explain number fix: $(jq -c '.codes' "$T/e")"

# 2. --json: the outcome and the cause in a second document on stderr
"$GD" --root "$H200" --json run -- "$P" fail >/dev/null 2>"$T/err.json"
tail -1 "$T/err.json" >"$T/outcome.json"
jq -e '.exit_code == 1 and .signal == null and .cause_id == "cuda-no-kernel-image" and (.cause_fix | test("sm_90")) and .argv[-1] == "fail" and (.causes | length > 0)' \
	"$T/outcome.json" >/dev/null && ok "--json: outcome document" || bad "json: $(cat "$T/err.json")"
py=
for p in /usr/bin/python3 ${GD_PYTHON:-}; do
	if [ -x "$p" ] && "$p" -c 'import jsonschema' 2>/dev/null; then py=$p; break; fi
done
if [ -n "$py" ]; then
	"$py" "$GD_SRCDIR/tests/scripts/schema_check.py" "$GD_SRCDIR/docs/schema" "$T/outcome.json" >/dev/null &&
		ok "--json: the outcome validates (run.json)" || bad "outcome fails run.json"
else
	echo "skipped: schema check (no python3-jsonschema)"
fi

# 3. byte-exact passthrough; nothing added when nothing is known
"$P" bytes >"$T/direct.out" 2>"$T/direct.err"
"$GD" run -q -- "$P" bytes >"$T/run.out" 2>"$T/run.err"
rc=$?
[ $rc -eq 3 ] && cmp -s "$T/direct.out" "$T/run.out" && cmp -s "$T/direct.err" "$T/run.err" &&
	ok "stdout and stderr byte for byte ($(wc -c <"$T/run.out") + $(wc -c <"$T/run.err") bytes), status 3" ||
	bad "passthrough differs (rc $rc): $(cmp "$T/direct.out" "$T/run.out"; cmp "$T/direct.err" "$T/run.err")"
got=$(printf 'abc\0def' | "$GD" run -q -- "$P" stdin | od -An -c | tr -s ' ')
[ "$got" = " a b c \\0 d e f" ] && ok "stdin inherited" || bad "stdin: $got"

# 4. signals: death by signal N is 128 + N; SIGTERM to run reaches CMD
"$GD" run -q -- "$P" raise 9 >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 137 ] && grep -qx "gpudoctor run: 'run_child' was killed by SIGKILL" "$T/err" &&
	ok "SIGKILL: 137, said" || bad "SIGKILL: rc $rc, $(cat "$T/err")"
"$GD" run -q -- "$P" raise 11 >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 139 ] && grep -q "^gpudoctor run: 'run_child' crashed: SIGSEGV" "$T/err" &&
	ok "SIGSEGV: 139, said" || bad "SIGSEGV: rc $rc, $(cat "$T/err")"
"$GD" run -q -- "$P" raise 2 >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 130 ] && [ ! -s "$T/err" ] && ok "SIGINT: 130, nothing said" || bad "SIGINT: rc $rc, $(cat "$T/err")"
"$GD" run -q -- "$P" term >"$T/out" 2>"$T/err" &
gdpid=$!
for _ in $(seq 100); do grep -q ready "$T/out" 2>/dev/null && break; sleep 0.05; done
kill -TERM $gdpid
wait $gdpid
rc=$?
[ $rc -eq 42 ] && grep -qx "child got SIGTERM" "$T/err" &&
	ok "SIGTERM to run reached the program (its status 42)" || bad "SIGTERM: rc $rc, $(cat "$T/err")"

# SIGKILL, which cannot be passed on, ends CMD with run (as when CMD was
# exec'd and was that process)
"$GD" run -q -- "$P" term >"$T/out" 2>/dev/null &
gdpid=$!
for _ in $(seq 100); do grep -q ready "$T/out" 2>/dev/null && break; sleep 0.05; done
child=$(pgrep -P $gdpid)
disown $gdpid # no "Killed" line from bash
kill -KILL $gdpid
for _ in $(seq 40); do kill -0 "$child" 2>/dev/null || break; sleep 0.05; done
[ -n "$child" ] && ! kill -0 "$child" 2>/dev/null && ok "SIGKILL to run ends CMD too" ||
	bad "CMD ($child) outlived run's SIGKILL"

# 5. a terminal stays a terminal (script(1) gives a pseudo-terminal);
#    a pipe stays a pipe
if command -v script >/dev/null; then
	script -qec "'$GD' run -q -- '$P' tty" /dev/null </dev/null >"$T/tty" 2>&1
	grep -q "stdout tty=1 stderr tty=1" "$T/tty" && ok "a terminal stays one for CMD" ||
		bad "tty: $(cat "$T/tty")"
else
	echo "skipped: no script(1) for the terminal case"
fi
got=$("$GD" run -q -- "$P" tty 2>/dev/null </dev/null)
[ "$got" = "stdout tty=0 stderr tty=0 stdin tty=0" ] && ok "a pipe stays a pipe" || bad "pipe: $got"

# 6. --no-explain: CMD replaces gpudoctor (same pid), nothing added
got=$(bash -c 'echo $$; exec "$0" run -q --no-explain -- sh -c "echo \$\$"' "$GD")
[ "$(echo "$got" | sort -u | wc -l)" -eq 1 ] && ok "--no-explain: exec'd in run's place" || bad "--no-explain pids: $got"
got=$(bash -c 'echo $$; exec "$0" run -q -- sh -c "echo \$\$"' "$GD")
[ "$(echo "$got" | sort -u | wc -l)" -eq 2 ] && ok "by default CMD is run's child" || bad "child pids: $got"
"$GD" --root "$H200" run -q --no-explain -- "$P" fail >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 1 ] && ! grep -q '^gpudoctor' "$T/err" && ok "--no-explain: status 1, no explanation" ||
	bad "--no-explain: rc $rc, $(cat "$T/err")"

# 7. a real HIP program failing with the runtime's own error
if command -v hipcc >/dev/null; then
	cat >"$T/k.hip" <<'HIP'
#include <hip/hip_runtime.h>
#include <stdio.h>
__global__ void k(float *x) { x[threadIdx.x] = 1.0f; }
int main(void)
{
	float *x = NULL;
	hipError_t e = hipMalloc((void **)&x, 256);
	if (e != hipSuccess) {
		fprintf(stderr, "hipMalloc failed: %s\n", hipGetErrorName(e));
		return 1;
	}
	hipLaunchKernelGGL(k, dim3(1), dim3(64), 0, 0, x);
	e = hipDeviceSynchronize();
	fprintf(stderr, "%s\n", hipGetErrorName(e));
	return e != hipSuccess;
}
HIP
	if hipcc --offload-arch=gfx900 -o "$T/hipk" "$T/k.hip" 2>"$T/hipcc.err"; then
		"$GD" --root "$FX/rx5700xt/root" run -q -- "$T/hipk" >/dev/null 2>"$T/err"
		rc=$?
		if [ $rc -eq 0 ]; then
			echo "skipped: the HIP program ran (a GPU is here)"
		else
			grep -q "^gpudoctor run: why .*hipError[A-Za-z]* = [0-9]* (hipError_t)" "$T/err" &&
				ok "HIP: the runtime's error decoded (rc $rc)" || bad "HIP: $(cat "$T/err")"
			grep -q "^gpudoctor run: scan: $T/hipk: no code for gfx1010 (has: gfx900)" "$T/err" &&
				ok "HIP: scan of the program: no code for gfx1010 (has: gfx900)" ||
				bad "HIP scan: $(cat "$T/err")"
		fi
	else
		echo "skipped: hipcc failed: $(head -3 "$T/hipcc.err")"
	fi
else
	echo "skipped: no hipcc (the HIP case)"
fi

# 8. a real CUDA program (nvcc) built for sm_80 only, on the H200's tree:
#    here (no driver) it fails with the runtime's own error, explained,
#    and scan reads its fatbin: no code for sm_90 (has: sm_80)
NVCC=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
if [ -n "$NVCC" ]; then
	if "$NVCC" -gencode arch=compute_80,code=sm_80 -o "$T/nokernel" "$GD_SRCDIR/tests/run/nokernel.cu" 2>"$T/nvcc.err"; then
		"$GD" --root "$H200" run -q -- "$T/nokernel" >/dev/null 2>"$T/err"
		rc=$?
		if [ $rc -eq 0 ]; then
			echo "skipped: the CUDA program ran (an sm_80 GPU is here)"
		else
			grep -q "^CUDA error: .* (cuda[A-Za-z]*)$" "$T/err" && grep -q "^gpudoctor run: why " "$T/err" &&
				ok "CUDA: the runtime's error explained (rc $rc)" || bad "CUDA: $(cat "$T/err")"
			grep -qx "gpudoctor run: scan: $T/nokernel: no code for sm_90 (has: sm_80)" "$T/err" &&
				ok "CUDA: scan of the program: no code for sm_90 (has: sm_80)" || bad "CUDA scan: $(cat "$T/err")"
		fi
	else
		echo "skipped: nvcc failed: $(head -3 "$T/nvcc.err")"
	fi
else
	echo "skipped: no nvcc (the CUDA case)"
fi
exit $fail
