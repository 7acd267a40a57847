#!/usr/bin/env python3
"""dll_directories() reads the verdict's workaround.dll_directories and
derives nothing (issue #21). On every captured machine's check --json and
check --brief --json golden (tests/fixtures/*/expected*.json) it must give
exactly the directories of the verdicts' os.add_dll_directory lines
("python"): 6.2's bin on windows-rx5700xt-hip62-hip71, 6.4's on
windows-rx6800xt-hip64-hip71 (no HIP runtime in System32), [] on Linux.
A broken report gives []."""
import glob
import json
import os
import re
import sys

import gpudoctor

fails = 0


def expect(name, got, want):
    global fails
    if got != want:
        print("FAIL %s: got %r, want %r" % (name, got, want))
        fails += 1


def python_lines(full):
    out = []
    for g in full.get("gpus") or []:
        m = re.match(r'os\.add_dll_directory\(r"(.*)"\)$',
                     (g.get("verdict") or {}).get("python") or "")
        if m and m.group(1) not in out:
            out.append(m.group(1))
    return out


here = os.path.dirname(os.path.abspath(__file__))
fixtures = os.path.join(here, "..", "fixtures")
n = 0
for d in sorted(glob.glob(os.path.join(fixtures, "*", "expected.json"))):
    name = os.path.basename(os.path.dirname(d))
    full = json.load(open(d))
    brief = json.load(open(os.path.join(os.path.dirname(d),
                                        "expected-brief.json")))
    want = python_lines(full)
    expect(name, gpudoctor.dll_directories(full), want)
    expect(name + " (brief)", gpudoctor.dll_directories(brief), want)
    n += 1
rx6800 = json.load(open(os.path.join(
    fixtures, "windows-rx6800xt-hip64-hip71", "expected.json")))
expect("windows-rx6800xt-hip64-hip71 (ROCm/hip#3899)",
       gpudoctor.dll_directories(rx6800),
       ["C:\\Program Files\\AMD\\ROCm\\6.4\\bin"])
expect("broken report", gpudoctor.dll_directories({"gpus": "x"}), [])
expect("broken verdict", gpudoctor.dll_directories(
    {"gpus": [{"verdict": {"workaround": {"dll_directories": 3}}}]}), [])
if n < 30:
    print("FAIL only %d captured machines found" % n)
    fails += 1
sys.exit(1 if fails else 0)
