#!/usr/bin/env python3
"""A small app that explains its own GPU failure: it loads the CUDA runtime
the way CTranslate2 and PyTorch do (ctypes, the soname of a CUDA 12 build),
and when that fails hands the error it caught to gpudoctor.explain() and
shows the likeliest cause and the fix. Usage: explain_app.py [LOG...]

With LOG files (real logs of tests/fixtures/logs), prints for each
"FILE: SIGNATURE CAUSE..." instead. tests/scripts/test_python.sh checks
both."""
import ctypes
import sys

import gpudoctor


def first(report):
    m = report.get("matches") or []
    if not m:
        return "none", [], ""
    return m[0]["id"], [c["id"] for c in m[0]["causes"]], m[0]["fix"]


def main():
    if len(sys.argv) > 1:
        for path in sys.argv[1:]:
            with open(path, "rb") as f:
                sig, causes, _ = first(gpudoctor.explain(f.read()))
            print("%s: %s %s" % (path.rsplit("/", 1)[-1], sig,
                                 " ".join(causes)))
        return 0
    try:
        ctypes.CDLL("libcudart.so.12")
    except OSError as e:
        sig, causes, fix = first(gpudoctor.explain(str(e)))
        print("error: %s" % e)
        print("signature: %s" % sig)
        print("likeliest cause: %s" % (causes[0] if causes else "none"))
        print("fix: %s" % fix)
        return 1
    print("loaded: the CUDA runtime is here")
    return 0


if __name__ == "__main__":
    sys.exit(main())
