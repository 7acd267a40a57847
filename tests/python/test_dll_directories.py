#!/usr/bin/env python3
"""dll_directories() on report shapes: a Linux report gives []; a Windows
one with HIP SDK 6.2 and 7.1 next to a driver with amdhip64_6.dll (the
windows-rx5700xt-hip62-hip71 field report) gives 6.2's bin directory only;
no driver runtime, or a broken report, gives []."""
import json
import os
import sys

import gpudoctor

fails = 0


def expect(name, got, want):
    global fails
    if got != want:
        print("FAIL %s: got %r, want %r" % (name, got, want))
        fails += 1


win = {
    "frameworks": {"system_hip_major": 6},
    "runtimes": [
        {"kind": "hip-sdk", "path": "C:\\Program Files\\AMD\\ROCm\\7.1",
         "hip_major": 7},
        {"kind": "hip-sdk", "path": "C:\\Program Files\\AMD\\ROCm\\6.2",
         "hip_major": 6, "bin_dir": "C:\\Program Files\\AMD\\ROCm\\6.2\\bin"},
        {"kind": "vulkan", "path": "C:\\Windows\\System32\\amdvlk64.dll"},
    ],
}
expect("windows 6.2 + 7.1, driver HIP 6",
       gpudoctor.dll_directories(win), ["C:\\Program Files\\AMD\\ROCm\\6.2\\bin"])
win7 = dict(win, frameworks={"system_hip_major": 7})
expect("windows, driver HIP 7 (path only)", gpudoctor.dll_directories(win7),
       ["C:\\Program Files\\AMD\\ROCm\\7.1\\bin"])
expect("no driver runtime", gpudoctor.dll_directories(
    dict(win, frameworks={"system_hip_major": None})), [])
linux = {"frameworks": {"system_hip_major": 6},
         "runtimes": [{"kind": "rocm", "path": "/opt/rocm-6.2.4",
                       "lib_dir": "/opt/rocm-6.2.4/lib", "hip_major": 6}]}
expect("linux", gpudoctor.dll_directories(linux), [])
expect("broken report", gpudoctor.dll_directories({"runtimes": "x"}), [])
# the report of the captured field-report machine: driver HIP 6, SDK 6.2
# (matches, has comgr) and 7.1 (HIP_PATH's, HIP 7, no comgr)
here = os.path.dirname(os.path.abspath(__file__))
rep = json.load(open(os.path.join(here, "data", "windows-rx5700xt-hip62-hip71.report.json")))
expect("windows-rx5700xt-hip62-hip71", gpudoctor.dll_directories(rep),
       ["C:\\Program Files\\AMD\\ROCm\\6.2\\bin"])
rep["windows"]["driver_hip_major"] = 7
expect("driver HIP 7, SDK 7.1 without comgr", gpudoctor.dll_directories(rep), [])
rep["windows"]["driver_hip_major"] = 0
expect("no driver HIP runtime", gpudoctor.dll_directories(rep), [])
sys.exit(1 if fails else 0)
