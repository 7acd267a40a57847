#!/usr/bin/env python3
"""Generate src/doctor/errcodes_gen.c: every error code of the GPU runtimes,
read from their own headers at the versions pinned in
tools/errcodes/sources.txt.

    tools/gen_errcodes.py HEADERDIR [-o src/doctor/errcodes_gen.c]

HEADERDIR holds the headers as sources.txt names them (driver_types.h,
hip/hip_runtime_api.h, CL/cl.h, ...). Names and numbers are facts taken from
the headers; the meaning is derived from the name unless
tools/errcodes/notes.tsv (hand-written) gives one, and the usual cause comes
only from notes.tsv. A table whose header is missing is an error: every
table is regenerated together so that the pins stay true.
"""
import argparse, datetime, os, re, shutil, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP = re.compile(r"(_MAX_ENUM|_FORCE_UINT32|_FORCE_SIZE|NumResults|_RANGE_SIZE|_BEGIN_RANGE|_END_RANGE)$")


def read_sources(path):
    apis = []
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        f = [x.strip() for x in line.split(" ; ")]
        if len(f) != 5:
            sys.exit(f"{path}: bad line: {line}")
        apis.append(dict(id=f[0], type=f[1], files=f[2].split(","),
                         rx=re.compile(f[3] + r"$"), pin=f[4]))
    return apis


def strip_comments(text):
    return re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)


def evaluate(expr, known):
    expr = re.sub(r"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]+\b", r"\1", expr.strip())
    expr = re.sub(r"\((?:int|unsigned|int32_t|cl_int)\)", "", expr)
    names = re.findall(r"(?<!\w)[A-Za-z_]\w*", expr)
    for n in names:
        if n not in known:
            return None
    try:
        v = eval(expr, {"__builtins__": {}}, dict(known))
    except Exception:
        return None
    return v if isinstance(v, int) else None


def enum_codes(text, api, out, known):
    """Members of every enum of text that is api's type, or whose members
    all match api's name pattern."""
    for m in re.finditer(r"\benum\b[^{;]*\{([^}]*)\}\s*(\w*)\s*;", text):
        body, tname = m.group(1), m.group(2)
        items = []
        for it in body.split(","):
            it = "\n".join(l for l in it.split("\n") if not l.strip().startswith("#"))
            it = re.sub(r"\[\[[^\]]*\]\]|__attribute__\s*\(\([^)]*\)\)", " ", it).strip()
            if not it:
                continue
            mm = re.match(r"([A-Za-z_]\w*)(?:\s+[A-Za-z_]\w*)*\s*(?:=\s*(.+))?$", it, re.S)
            if not mm:
                items = None
                break
            items.append((mm.group(1), mm.group(2)))
        if not items:
            continue
        if tname != api["type"] and (tname or not all(api["rx"].match(n) for n, _ in items)):
            continue
        prev = -1
        for name, expr in items:
            v = prev + 1 if expr is None else evaluate(expr, known)
            if v is None:
                sys.exit(f"{api['type']}: cannot evaluate {name} = {expr}")
            known[name] = v
            prev = v
            if api["rx"].match(name) and not SKIP.search(name):
                out.append((name, v))


def define_codes(text, api, out, known):
    """#define NAME -N (OpenCL): the error codes are 0 and the negatives."""
    for m in re.finditer(r"^\s*#\s*define\s+(\w+)\s+\(?(-?\s*\d+)\)?\s*$", text, re.M):
        name, v = m.group(1), int(m.group(2).replace(" ", ""))
        if api["rx"].match(name) and (v < 0 or name.endswith("_SUCCESS")):
            known[name] = v
            out.append((name, v))


def collect(hdir, api):
    out, known = [], {}
    for f in api["files"]:
        p = os.path.join(hdir, f)
        if not os.path.exists(p):
            continue
        text = strip_comments(open(p, encoding="utf-8", errors="replace").read())
        if api["id"] == "cl":
            define_codes(text, api, out, known)
        else:
            enum_codes(text, api, out, known)
    if not out:
        sys.exit(f"{api['type']}: no codes found in {hdir}/{api['files']}")
    seen, uniq = set(), []
    for n, v in out:
        if n not in seen:
            seen.add(n)
            uniq.append((n, v))
    return uniq


PREFIX = re.compile(r"^(cudaError|cuda|CUDA_ERROR_|CUDA_|CUBLAS_STATUS_|NVRTC_ERROR_|NVRTC_|"
                    r"CUDNN_STATUS_|nccl|hipError|hip|HSA_STATUS_ERROR_|HSA_STATUS_|"
                    r"rocblas_status_|HIPBLAS_STATUS_|miopenStatus|VK_ERROR_|VK_|CL_|"
                    r"ZE_RESULT_ERROR_|ZE_RESULT_|UR_RESULT_ERROR_|UR_RESULT_)")


def derived_meaning(name):
    rest = PREFIX.sub("", name)
    words = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", rest.replace("_", " "))
    words = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", words)
    w = " ".join(x if (x.isupper() and len(x) > 1 and x not in ("INVALID",)) and False else x.lower()
                 for x in words.split())
    for acr in ("gpu", "ptx", "jit", "elf", "api", "mps", "cdp", "nvlink", "ecc", "pc", "tma",
                "cuda", "nvrtc", "opengl", "gl", "d3d", "dx9", "egl", "khr", "ext", "usm",
                "spirv", "hsa", "hip", "isa", "khr", "cig", "tpc", "sm", "gpc", "dx", "va"):
        w = re.sub(rf"\b{acr}\b", acr.upper(), w)
    return w


def read_notes(path, names):
    notes = {}
    for i, line in enumerate(open(path, encoding="utf-8"), 1):
        if not line.strip() or line.startswith("#"):
            continue
        f = line.rstrip("\n").split("\t")
        if len(f) != 3:
            sys.exit(f"{path}:{i}: want NAME<TAB>meaning<TAB>cause")
        if f[0] not in names:
            sys.exit(f"{path}:{i}: {f[0]} is in no table")
        notes[f[0]] = (f[1], f[2])
    return notes


def cstr(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("headers")
    ap.add_argument("-o", default=os.path.join(HERE, "..", "src", "doctor", "errcodes_gen.c"))
    a = ap.parse_args()
    apis = read_sources(os.path.join(HERE, "errcodes", "sources.txt"))
    tables = [(api, collect(a.headers, api)) for api in apis]
    names = {n for _, t in tables for n, _ in t}
    notes = read_notes(os.path.join(HERE, "errcodes", "notes.tsv"), names)
    o = []
    o.append("/* GENERATED by tools/gen_errcodes.py from the runtimes' headers at the")
    o.append(" * versions pinned in tools/errcodes/sources.txt, meanings and causes from")
    o.append(" * tools/errcodes/notes.tsv. Do not edit: rerun the script.")
    o.append(f" * Generated {datetime.date.today().isoformat()}; each header's version")
    o.append(" * is in gd_errcode_apis[] below. */")
    o.append('#include "errcodes.h"')
    o.append("")
    o.append("const struct gd_errcode_api gd_errcode_apis[] = {")
    for api, t in tables:
        o.append(f"    {{{cstr(api['id'])}, {cstr(api['type'])}, {cstr(api['pin'])}}},")
    o.append("};")
    o.append("const unsigned gd_errcode_n_apis = sizeof gd_errcode_apis / sizeof *gd_errcode_apis;")
    o.append("")
    o.append("const struct gd_errcode gd_errcodes[] = {")
    for k, (api, t) in enumerate(tables):
        for n, v in t:
            mean, cause = notes.get(n, (derived_meaning(n), ""))
            o.append(f"    {{{cstr(n)}, {v}LL, {k}, {cstr(mean)}, {cstr(cause)}}},")
    o.append("};")
    o.append("const unsigned gd_errcode_n = sizeof gd_errcodes / sizeof *gd_errcodes;")
    o.append("")
    with open(a.o, "w", encoding="utf-8") as f:
        f.write("\n".join(o))
    cf = shutil.which("clang-format-14") or shutil.which("clang-format")
    if cf:  # the repository's style (tests/scripts/test_format.sh)
        subprocess.run([cf, "-i", a.o], check=True)
    for api, t in tables:
        print(f"{api['type']:18} {len(t):4} codes  {api['pin']}", file=sys.stderr)


if __name__ == "__main__":
    main()
