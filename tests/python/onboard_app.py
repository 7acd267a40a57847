#!/usr/bin/env python3
"""A small app that onboards its user the way issue #13's field report asks
(whisper-key): at start-up it asks gpudoctor what the GPU can do, shows the
line, and picks a device. Usage: onboard_app.py [ROOT]

Prints each onboarding line, then "device: <backend> (GPU n)" or
"device: cpu"; tests/scripts/test_python.sh compares the lines with the
machine's expected-brief.txt."""
import os
import sys

import gpudoctor


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else None
    d = gpudoctor.detect(root=root, timeout=30)
    for line in d.lines:
        print(line)
    gpu = d.best()
    if gpu is None:
        print("device: cpu")
    else:
        print("device: %s (GPU %d)" % (gpu.backend, gpu.index))
    # what a Windows app would do before `import ctranslate2`
    if sys.platform == "win32":
        for p in gpudoctor.dll_directories():
            os.add_dll_directory(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
