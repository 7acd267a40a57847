#!/usr/bin/env bash
# Every code of every runtime table (src/doctor/errcodes_gen.c, generated
# from the runtimes' headers by tools/gen_errcodes.py) through `explain`:
# by its name, and by its number in the forms the runtimes and frameworks
# print ("CUDA error: 700", "cuda runtime error (2)", "hipError_t 98",
# "CUresult 999", "VkResult -4", "clGetPlatformIDs returned -1001", "error
# code -5" in an OpenCL log, "zeInit returned 0x78000001", "zeInit:
# 0x78000001"). Each must come
# back decoded: its type, and its name (by name) or its value (by number).
# A positive number with no runtime named must not be decoded.
set -u
: "${GPUDOCTOR:?set GPUDOCTOR to the built binary}"
: "${GD_SRCDIR:?set GD_SRCDIR to the source tree}"
command -v python3 >/dev/null || { echo "skipped: no python3"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/root"
python3 "$GD_SRCDIR/tools/gen_errtexts.py" --check || exit 1
python3 - "$GPUDOCTOR" "$GD_SRCDIR/src/doctor/errcodes_gen.c" "$tmp" "$GD_SRCDIR/src/doctor/errtexts_gen.c" "$GD_SRCDIR" <<'PY'
import json, os, re, subprocess, sys
gd, gen, tmp, gentexts, srcdir = sys.argv[1:6]
src = open(gen).read()
apis = re.findall(r'\{"(\w+)", "(\w+)",\s*"', src.split("gd_errcode_apis[] = {")[1].split("};")[0])
codes = [(n, int(v), int(a)) for n, v, a in
         re.findall(r'\{"(\w+)",\s*(-?\d+)LL,\s*(\d+),', src.split("gd_errcodes[] = {")[1])]
assert len(apis) == 15 and len(codes) > 700, (len(apis), len(codes))

def hexv(v):
    return f"0x{v:x}" if v >= 0 else str(v)

# how each runtime's number appears in real logs: (line template)
forms = {
    "cudart": ["CUDA error: {v}", "RuntimeError: cuda runtime error ({v}) : at foo.cu:12",
               "cudaMalloc failed: cudaError_t {v}"],
    "cu": ["CUresult {v}", "cuModuleLoadData returned {v}", "CUDA driver error {v}"],
    "cublas": ["cuBLAS error {v}", "cublasStatus_t {v}"],
    "nvrtc": ["nvrtcResult {v}", "nvrtcCompileProgram returned {v}"],
    "cudnn": ["cuDNN error: {v}", "cudnnStatus_t {v}"],
    "nccl": ["ncclResult_t {v}", "NCCL error {v}"],
    "hip": ["hipError_t {v}", "HIP error: {v}", "hipMalloc returned {v}"],
    "hsa": ["hsa_status_t {h}", "hsa_init returned {h}", "HSA error {v}"],
    "rocblas": ["rocblas_status {v}", "rocBLAS error: {v}"],
    "hipblas": ["hipblasStatus_t {v}", "hipBLAS error {v}"],
    "miopen": ["miopenStatus_t {v}", "MIOpen error: {v}"],
    "vk": ["VkResult {v}", "vkCreateInstance returned {v}", "Vulkan error {v}"],
    "cl": ["clGetPlatformIDs returned {v}", "OpenCL error code {v}", "cl_int {v}"],
    "ze": ["ze_result_t {h}", "zeInit returned {h}", "Level Zero error {h}"],
    "ur": ["ur_result_t {v}", "urDeviceGet returned {v}"],
}

def success(n, v):
    return v == 0 or "SUCCESS" in n or "Success" in n

def explain(lines):
    with open(f"{tmp}/log", "w") as f:
        f.write("\n".join(lines) + "\n")
    out = subprocess.run([gd, "--root", f"{tmp}/root", "explain", "--json", f"{tmp}/log"],
                         capture_output=True, text=True)
    if out.returncode not in (0, 1):
        sys.exit(f"explain failed ({out.returncode}): {out.stderr}")
    return json.loads(out.stdout)

def run(lines):
    return explain(lines)["codes"]

fail = checked = 0
# by name: 20 codes a log, each on its own line in a message
named = [(n, v, a) for n, v, a in codes if not success(n, v)]
for i in range(0, len(named), 20):
    chunk = named[i:i + 20]
    got = {(c["type"], c["name"]) for c in run([f"[E] call failed: {n} at x.c:{k}"
                                                for k, (n, v, a) in enumerate(chunk)])}
    for n, v, a in chunk:
        checked += 1
        if (apis[a][1], n) not in got:
            print(f"FAIL by name: {n} ({apis[a][1]}) not decoded")
            fail += 1
# by number: the first name the header gives each value
first = {}
for n, v, a in codes:
    first.setdefault((a, v), n)
for a, (aid, typ) in enumerate(apis):
    vals = [(v, n) for (x, v), n in first.items() if x == a and not success(n, v)]
    for form in forms[aid]:
        for i in range(0, len(vals), 20):
            chunk = vals[i:i + 20]
            got = {(c["type"], c["value"], c["matched"]) for c in
                   run([form.format(v=v, h=hexv(v)) for v, n in chunk])}
            for v, n in chunk:
                checked += 1
                if (typ, v, "number") not in got:
                    print(f"FAIL by number: {form.format(v=v, h=hexv(v))!r} not decoded as {typ} {v} ({n})")
                    fail += 1
# Level Zero's error results (0x7XXXXXXX) printed bare in hex after a ze
# function, with no word between: decoded by the runtime the line names
ze = [x for x, _ in apis].index("ze")
zev = [(v, n) for (x, v), n in first.items() if x == ze and v >= 0x70000000]
for form in ("zeInit: {h}", "ze_lib Context Init() zeInitDrivers or zeInit failed with {h}",
             "RuntimeError: Triton Error [ZE]: {h}"):
    for i in range(0, len(zev), 20):
        chunk = zev[i:i + 20]
        got = {(c["type"], c["value"]) for c in run([form.format(h=hexv(v)) for v, n in chunk])}
        for v, n in chunk:
            checked += 1
            if ("ze_result_t", v) not in got:
                print(f"FAIL bare hex: {form.format(h=hexv(v))!r} not decoded as {n}"); fail += 1
# pyopencl's errors name the status without its "CL_" ("clGetPlatformIDs
# failed: PLATFORM_NOT_FOUND_KHR"): every cl_int code so, on a line naming an
# OpenCL function; the same word on a line that names no OpenCL (or another
# runtime) stays undecoded
cl = [x for x, _ in apis].index("cl")
bare = [(n, v) for n, v, a in codes if a == cl and n.startswith("CL_") and not success(n, v)]
for i in range(0, len(bare), 20):
    chunk = bare[i:i + 20]
    got = {c["name"] for c in run([f"pyopencl._cl.LogicError: clCreateContextFromType failed: {n[3:]}"
                                   for n, v in chunk])}
    for n, v in chunk:
        checked += 1
        if n not in got:
            print(f"FAIL bare: {n[3:]!r} after an OpenCL function not decoded as {n}"); fail += 1
for lines in (["error: INVALID_VALUE in config"], ["vkCreateDevice failed: DEVICE_NOT_FOUND"],
              # a Level Zero result is 0x7 and 8 hex digits: not a pointer
              ["zeMemAllocHost gave 0x7fff12345678"]):
    got = run(lines)
    checked += 1
    if got:
        print(f"FAIL: {lines!r} decoded as {got[0]['name']}"); fail += 1
# a generic number needs its runtime: on the line, or (negative) the log's one
got = run(["OpenCL platform scan", "clBuildProgram: error code -11"])
checked += 1
if not any(c["name"] == "CL_BUILD_PROGRAM_FAILURE" for c in got):
    print("FAIL: 'error code -11' on an OpenCL line not decoded"); fail += 1
got = run(["Using OpenCL platform Portable Computing Language", "init failed, error code -1001"])
checked += 1
if not any(c["name"] == "CL_PLATFORM_NOT_FOUND_KHR" for c in got):
    print("FAIL: a negative code in a log that names only OpenCL not decoded"); fail += 1
for lines in (["CUDA available: yes", "Process exited with error code 1"],
              ["returned 2", "error code 700"],
              # vLLM's log prefix: a date after ERROR, not a code
              ["ERROR 04-01 23:46:56 [engine.py:160] torch.OutOfMemoryError: CUDA out of memory."],
              ["CUDA error 12.4 expected", "HIP error: 0700"]):
    got = run(lines)
    checked += 1
    if got:
        print(f"FAIL: {lines!r} decoded as {got[0]['name']}: no runtime names the number")
        fail += 1
# by text: every text a runtime's own string function returns
# (errtexts_gen.c), as programs print it after the runtime's name
tsrc = open(gentexts).read().split("gd_errtexts[] = {")[1]
texts = [(a, int(v), t.encode().decode("unicode_escape")) for a, v, t in
         re.findall(r'\{"(\w+)",\s*(-?\d+)LL,\s*"((?:[^"\\]|\\.)*)"\}', tsrc)]
assert len(texts) > 250, len(texts)
word = {"cudart": "RuntimeError: CUDA error: {t}", "cu": "CUDA driver error: {t}",
        "hip": "RuntimeError: HIP error: {t}", "nccl": "NCCL error in: nccl.cpp:42, {t}",
        "cublas": "cuBLAS error: {t}", "nvrtc": "NVRTC error: {t}"}
bytext = {}
for a, v, t in texts:
    bytext.setdefault((a, t), v)  # the first code a text belongs to
typ = dict(apis)
ntext = 0
for (a, t), v in bytext.items():
    if a == "cu" and any(x == "cudart" and y == t for x, y in bytext):
        continue  # "CUDA error: TEXT" is the runtime's code first
    n = first.get(([x for x, _ in apis].index(a), v))
    if n is None or success(n, v):
        continue
    got = run([word[a].format(t=t)])
    checked += 1
    ntext += 1
    if not any(c["type"] == typ[a] and c["value"] == v and c["matched"] == "text" for c in got):
        print(f"FAIL by text: {word[a].format(t=t)!r} not decoded as {typ[a]} {v} ({n})")
        fail += 1
# a text with no runtime named on its line is not decoded
got = run(["error: invalid argument", "tool: out of memory"])
checked += 1
if got:
    print(f"FAIL: {got[0]['name']} decoded from a line that names no runtime"); fail += 1
# a negative code printed with %u (MoltenVK's -9 as 4294967287), the runtime
# named on its line; a large number that is no such code stays undecoded
for line, want in (("Failed to create Vulkan instance 4294967287", ("VkResult", -9)),
                   ("clEnqueueNDRangeKernel error code 4294967291", ("cl_int", -5)),
                   ("Vulkan heap of 4294900000 bytes", None)):
    got = run([line])
    checked += 1
    if want and not any((c["type"], c["value"]) == want for c in got):
        print(f"FAIL: {line!r} not decoded as {want}"); fail += 1
    if not want and got:
        print(f"FAIL: {line!r} decoded as {got[0]['name']}"); fail += 1
# every code notes.tsv gives a usual cause: the signature that explains a line
# naming it (tools/errcodes/signatures.tsv), or '-' and why none can
notes, sigrows = {}, {}
tools = os.path.join(srcdir, "tools", "errcodes")
for line in open(os.path.join(tools, "notes.tsv"), encoding="utf-8"):
    if line.strip() and not line.startswith("#"):
        f = line.rstrip("\n").split("\t")
        notes[f[0]] = f[2]
for k, line in enumerate(open(os.path.join(tools, "signatures.tsv"), encoding="utf-8"), 1):
    if not line.strip() or line.startswith("#"):
        continue
    f = line.rstrip("\n").split("\t")
    if len(f) != 3 or f[0] in sigrows or not notes.get(f[0]) or (f[1] == "-") != bool(f[2]):
        print(f"FAIL signatures.tsv:{k}: want NAME, SIGNATURE or '-', why (only for '-'), "
              f"once each, for a code notes.tsv gives a cause: {line.strip()!r}")
        fail += 1
        continue
    sigrows[f[0]] = f[1]
for n in sorted(x for x, c in notes.items() if c and x not in sigrows):
    print(f"FAIL: {n} has a usual cause in notes.tsv but no line in signatures.tsv"); fail += 1
for n in sorted(sigrows):
    m = [x["id"] for x in explain([f"[E] call failed: {n} at x.c:1"])["matches"]]
    checked += 1
    want = sigrows[n]
    if want == "-" and m:
        print(f"FAIL: {n} is matched by {m[0]}: give it that signature in signatures.tsv"); fail += 1
    elif want != "-" and m[:1] != [want]:
        print(f"FAIL: {n}: signatures.tsv says {want}, explain's first match is {m[:1]}"); fail += 1
print(f"{len(sigrows)} codes with a usual cause: "
      f"{sum(1 for v in sigrows.values() if v != '-')} named by a signature")
print(f"{ntext} texts decoded")
print(f"{checked} decodings checked over {len(codes)} codes of {len(apis)} tables, {fail} failed")
sys.exit(1 if fail else 0)
PY
