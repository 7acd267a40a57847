#!/usr/bin/env python3
"""Write a gpudoctor wheel with the program inside (as ruff, uv, cmake and
ninja ship on PyPI), with no build backend: a wheel is a zip holding the
package, NAME.dist-info/{METADATA,WHEEL,RECORD} and RECORD's sha256 of
every file (PEP 427, PEP 491; the platform tags of PEP 600).

  make_wheel.py --binary build-static/gpudoctor [--out dist]
      a Linux wheel, tagged manylinux_2_X_ARCH from the highest GLIBC_
      symbol version the program needs; refused when it needs a shared
      library other than glibc's (build it with `make static`)
  make_wheel.py --binary build-win/gpudoctor.exe --plat win_amd64
  make_wheel.py  (no --binary): the pure-Python package, py3-none-any

Prints the wheel's path. Python 3.8+ standard library only; objdump
(binutils) for the Linux tag."""
import argparse
import base64
import hashlib
import os
import re
import stat
import subprocess
import sys
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "..", "python")
NAME = "gpudoctor"
# the libraries the manylinux policies let a wheel take from the system
# (PEP 600: glibc's own); anything else must be linked in
GLIBC_LIBS = re.compile(r"^(libc|libm|libpthread|libdl|librt|libresolv|"
                        r"ld-linux(-x86-64|-aarch64)?)\.so(\.\d+)*$")
ELF_ARCH = {"x86-64": "x86_64", "aarch64": "aarch64", "i386": "i686"}
# a fixed date for reproducible zips (zip cannot hold dates before 1980)
EPOCH = time.gmtime(int(os.environ.get("SOURCE_DATE_EPOCH", "315532800")))


def version():
    """The package's version, from pyproject.toml (one place)."""
    with open(os.path.join(SRC, "pyproject.toml"), encoding="utf-8") as f:
        m = re.search(r'^version\s*=\s*"([^"]+)"', f.read(), re.M)
    if not m:
        sys.exit("make_wheel: no version in python/pyproject.toml")
    return m.group(1)


def linux_tag(binary):
    """manylinux_2_X_ARCH for an ELF program, from objdump's view of it."""
    try:
        p = subprocess.run(["objdump", "-p", "-T", binary], check=True,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit("make_wheel: objdump %s: %s" % (binary, e))
    text = p.stdout
    arch = re.search(r"file format elf64-(\S+)", text)
    arch = ELF_ARCH.get(arch.group(1) if arch else "", None)
    if not arch:
        sys.exit("make_wheel: %s: not an ELF program for a known CPU" % binary)
    needed = re.findall(r"^\s*NEEDED\s+(\S+)", text, re.M)
    other = [n for n in needed if not GLIBC_LIBS.match(n)]
    if other:
        sys.exit("make_wheel: %s needs %s, which a manylinux wheel may not "
                 "take from the system: build it with 'make static'"
                 % (binary, ", ".join(other)))
    vers = [tuple(int(x) for x in v.split("."))
            for v in re.findall(r"GLIBC_(\d+\.\d+(?:\.\d+)?)", text)]
    major, minor = max(vers)[:2] if vers else (2, 17)
    return "manylinux_%d_%d_%s" % (major, minor, arch)


def record_line(arc, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest())
    return "%s,sha256=%s,%d" % (arc, digest.rstrip(b"=").decode(), len(data))


def metadata(ver):
    with open(os.path.join(SRC, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    return ("Metadata-Version: 2.1\nName: %s\nVersion: %s\n"
            "Summary: Ask gpudoctor whether this machine's GPU can run ML "
            "work, from a Python app\nRequires-Python: >=3.8\n"
            "License: see the gpudoctor repository\n"
            "Classifier: Programming Language :: Python :: 3\n"
            "Classifier: Operating System :: POSIX :: Linux\n"
            "Classifier: Operating System :: Microsoft :: Windows\n"
            "Description-Content-Type: text/markdown\n\n%s"
            % (NAME, ver, readme))


def files(binary, plat):
    """(archive name, bytes, executable) of everything in the wheel."""
    pkg = os.path.join(SRC, NAME)
    for fn in sorted(os.listdir(pkg)):
        if fn.endswith(".py") or fn == "py.typed":
            with open(os.path.join(pkg, fn), "rb") as f:
                yield "%s/%s" % (NAME, fn), f.read(), False
    if binary:
        exe = "gpudoctor.exe" if plat.startswith("win") else "gpudoctor"
        with open(binary, "rb") as f:
            yield "%s/bin/%s" % (NAME, exe), f.read(), True


def write(out_dir, binary, plat):
    ver = version()
    tag = "py3-none-" + plat
    dist = "%s-%s.dist-info" % (NAME, ver)
    path = os.path.join(out_dir, "%s-%s-%s.whl" % (NAME, ver, tag))
    wheel = ("Wheel-Version: 1.0\nGenerator: gpudoctor tools/make_wheel.py\n"
             "Root-Is-Purelib: %s\nTag: %s\n"
             % ("true" if plat == "any" else "false", tag))
    entries = list(files(binary, plat))
    entries += [(dist + "/METADATA", metadata(ver).encode(), False),
                (dist + "/WHEEL", wheel.encode(), False)]
    record = [record_line(a, d) for a, d, _ in entries] + [dist + "/RECORD,,"]
    entries.append((dist + "/RECORD", ("\n".join(record) + "\n").encode(),
                    False))
    os.makedirs(out_dir, exist_ok=True)
    tmp = path + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for arc, data, exe in entries:
            zi = zipfile.ZipInfo(arc, EPOCH[:6])
            zi.compress_type = zipfile.ZIP_DEFLATED
            mode = 0o755 if exe else 0o644
            zi.external_attr = (stat.S_IFREG | mode) << 16
            z.writestr(zi, data)
    os.replace(tmp, path)
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", help="the gpudoctor program to put inside")
    ap.add_argument("--plat", help="platform tag (default: from the "
                    "program: manylinux_2_X_ARCH; win_amd64 for an .exe)")
    ap.add_argument("--out", default="dist", help="output directory")
    a = ap.parse_args()
    plat = a.plat
    if a.binary and not os.path.isfile(a.binary):
        sys.exit("make_wheel: %s: no such program" % a.binary)
    if not a.binary:
        plat = "any"
    elif not plat:
        plat = "win_amd64" if a.binary.lower().endswith(".exe") \
            else linux_tag(a.binary)
    print(write(a.out, a.binary, plat))


if __name__ == "__main__":
    main()
