"""Per-GPU framework device strings and the workaround as data (issue #24).

Every captured machine's expected-brief.json (the brief JSON as gpudoctor
writes it) goes through gpudoctor.from_brief():
- when a "gpus" entry has "frameworks" / "workaround" (the C side's
  fields), the Gpu carries exactly them, derived=False;
- when it has not (the FALLBACK), they are derived from "backend" and
  "reason": usable ROCm/CUDA -> torch "cuda:N" and CTranslate2 "cuda" with
  N counting the earlier GPUs of that backend; else CPU with
  compute_type "int8"; a workaround whose reason is NAME=VALUE words
  becomes env vars (rx5700xt: HSA_OVERRIDE_GFX_VERSION=10.3.0).
A synthetic brief with the C fields checks the first branch even before
any fixture has them.

Usage: test_frameworks.py FIXTURES_DIR"""
import glob
import json
import os
import sys

import gpudoctor

fails = []


def expect(cond, what):
    if not cond:
        print("FAIL " + what)
        fails.append(what)


def check_machine(path):
    doc = json.load(open(path, encoding="utf-8"))
    d = gpudoctor.from_brief(doc)
    seen = {}
    for o, g in zip(doc.get("gpus", []), d.gpus):
        name = "%s GPU %d" % (os.path.basename(os.path.dirname(path)), g.index)
        n = seen.get(g.backend, 0)
        seen[g.backend] = n + 1
        fw = g.frameworks
        if "frameworks" in o:
            j = o["frameworks"]
            expect(not fw.derived, name + ": frameworks should come from JSON")
            expect(fw.torch.device == j["torch"]["device"], name + ": torch")
            expect(fw.ctranslate2.compute_type == j["ctranslate2"]["compute_type"],
                   name + ": ct2 compute_type")
            expect(fw.llama_cpp.backend == j["llama.cpp"]["backend"], name + ": llama")
        else:
            expect(fw.derived, name + ": fallback must say derived")
            if g.usable and g.backend in ("ROCm", "CUDA"):
                expect(fw.torch.device == "cuda:%d" % n
                       and fw.ctranslate2.device == "cuda"
                       and fw.ctranslate2.device_index == n
                       and fw.llama_cpp.device == "%s%d" % (g.backend, n),
                       name + ": fallback GPU devices %r" % (fw,))
            elif g.backend != "Vulkan" or not g.usable:
                expect(fw.torch.device == "cpu" and fw.ctranslate2.device == "cpu"
                       and fw.ctranslate2.compute_type == "int8"
                       and fw.llama_cpp.device is None,
                       name + ": fallback CPU devices %r" % (fw,))
        if "workaround" in o:
            w = o["workaround"]
            expect((g.workaround is None) == (w is None), name + ": workaround null")
            if w:
                expect([(e.name, e.value) for e in g.workaround.env]
                       == [(e["name"], e["value"]) for e in w.get("env", [])],
                       name + ": workaround env")
        elif g.status != "workaround":
            expect(g.workaround is None, name + ": no workaround expected")
    return d


n = 0
for p in sorted(glob.glob(os.path.join(sys.argv[1], "*", "expected-brief.json"))):
    check_machine(p)
    n += 1
expect(n > 10, "machines: %d" % n)

# the rx5700xt: a workaround reason that is an assignment becomes data
rx = gpudoctor.from_brief(json.load(open(os.path.join(
    sys.argv[1], "rx5700xt", "expected-brief.json"), encoding="utf-8")))
g = rx.best()
expect(g is not None and g.workaround is not None
       and g.workaround.environ() == {"HSA_OVERRIDE_GFX_VERSION": "10.3.0"},
       "rx5700xt: workaround env %r" % (g and g.workaround,))
expect(g is not None and g.frameworks.torch.device == "cuda:0"
       and g.frameworks.llama_cpp.device == "ROCm0", "rx5700xt: ROCm devices")

# the C side's fields, as the contract names them, win over the fallback
doc = {"gpus": [{
    "index": 0, "name": "AMD Radeon RX 5700", "vendor": "amd",
    "target": "gfx1010", "status": "workaround", "usable": True,
    "backend": "ROCm", "reason": "HSA_OVERRIDE_GFX_VERSION=10.3.0",
    "guide": "amd#rdna1", "line": "x",
    "frameworks": {"torch": {"device": "cuda:0", "dtype": "float16"},
                   "ctranslate2": {"device": "cuda", "device_index": 0,
                                   "compute_type": "int8_float16"},
                   "llama.cpp": {"backend": "ROCm", "device": "ROCm0"}},
    "workaround": {"env": [{"name": "HSA_OVERRIDE_GFX_VERSION",
                            "value": "10.3.0"}],
                   "dll_directories": ["C:\\HIP\\bin"], "path_prepend": [],
                   "note": "RDNA 1 runs gfx1030 code"}}],
    "cpu_only": False, "lines": ["x"], "exit_code": 1}
g = gpudoctor.from_brief(doc).gpus[0]
expect(not g.frameworks.derived and g.frameworks.ctranslate2.compute_type
       == "int8_float16", "contract: frameworks from JSON")
expect(not g.workaround.derived and g.workaround.dll_directories
       == ["C:\\HIP\\bin"] and g.workaround.note == "RDNA 1 runs gfx1030 code",
       "contract: workaround from JSON")
doc["gpus"][0]["workaround"] = None
expect(gpudoctor.from_brief(doc).gpus[0].workaround is None,
       "contract: workaround null is None (no fallback)")
# hostile shapes never raise
for bad in ({"frameworks": 5, "workaround": "x"},
            {"frameworks": {"torch": [], "llama.cpp": None}},
            {"workaround": {"env": [1, {"name": 2}], "dll_directories": "C:"}}):
    o = dict(doc["gpus"][0], **bad)
    try:
        gpudoctor.from_brief({"gpus": [o]})
    except Exception as e:  # noqa: BLE001 - the point of the test
        expect(False, "hostile %r raised %r" % (bad, e))
print("%s: frameworks and workarounds on %d captured machines"
      % ("FAIL" if fails else "ok", n))
sys.exit(1 if fails else 0)
