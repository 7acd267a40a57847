#!/usr/bin/env python3
"""Every GPU id of the generated table (src/discover/ids_table.c), read by
`gpudoctor --root T list --json` from a tree holding only each GPU's PCI
files (class, vendor, device, uevent): the architecture must come out for
each one, with no ids file in the tree. Trees are made on the fly, 256 GPUs
each (one PCI bus per tree)."""
import json
import os
import re
import subprocess
import sys
import tempfile

gpud, src = os.environ["GPUDOCTOR"], os.environ["GD_SRCDIR"]
ROW = re.compile(r'^\s*\{0x([0-9a-f]{4}), 0x([0-9a-f]{4}), [^,]+, "((?:[^"\\]|\\.)*)", '
                 r'"((?:[^"\\]|\\.)*)", "((?:[^"\\]|\\.)*)", "((?:[^"\\]|\\.)*)",')
rows = []
with open(os.path.join(src, "src/discover/ids_table.c"), encoding="utf-8") as f:
    for line in f:
        m = ROW.match(line)
        if m:
            rows.append((int(m[1], 16), int(m[2], 16), m[4], m[5], m[6]))
per_vendor = {}
for r in rows:
    per_vendor[r[0]] = per_vendor.get(r[0], 0) + 1
if min(per_vendor.get(v, 0) for v in (0x1002, 0x10DE, 0x8086)) < 100:
    sys.exit("FAIL: the table is not what it should be: %r" % per_vendor)

fails, checked = [], 0


def write(d, name, text):
    with open(os.path.join(d, name), "w") as f:
        f.write(text)


for start in range(0, len(rows), 256):
    batch = rows[start:start + 256]
    with tempfile.TemporaryDirectory() as root:
        want = {}
        for i, (ven, dev, chip, arch, target) in enumerate(batch):
            bdf = "0000:%02x:%02x.%x" % (1 + i // 256, (i % 256) >> 3, i & 7)
            d = os.path.join(root, "sys/bus/pci/devices", bdf)
            os.makedirs(d)
            write(d, "vendor", "0x%04x\n" % ven)
            write(d, "device", "0x%04x\n" % dev)
            write(d, "class", "0x030000\n")
            write(d, "uevent", "PCI_CLASS=30000\nPCI_ID=%04X:%04X\n"
                  "PCI_SLOT_NAME=%s\n" % (ven, dev, bdf))
            want[bdf] = (ven, dev, chip, arch, target)
        p = subprocess.run([gpud, "--root", root, "list", "--json"],
                           capture_output=True, text=True,
                           env={"PATH": os.environ.get("PATH", "")})
        try:
            doc = json.loads(p.stdout)
        except ValueError:
            sys.exit("FAIL: list --json gave no JSON (rc %d): %s" %
                     (p.returncode, p.stderr[-500:]))
        got = {g["pci"]["bdf"]: g for g in doc["gpus"]}
        for bdf, (ven, dev, chip, arch, target) in want.items():
            checked += 1
            g = got.get(bdf)
            tag = "%04x:%04x (%s)" % (ven, dev, chip)
            if not g:
                fails.append("%s: not listed as a GPU" % tag)
                continue
            ids = g["pci"].get("device_ids") or {}
            if ids.get("arch") != arch:
                fails.append("%s: device_ids.arch %r, want %r" %
                             (tag, ids.get("arch"), arch))
            # AMD before GCN (TeraScale, R100-R500): no gfx target at all
            if ven == 0x1002 and (g.get("amd", g).get("gfx") or "") != target:
                fails.append("%s: gfx %r, want %r" %
                             (tag, g.get("amd", g).get("gfx"), target))
            nv = g.get("nvidia") or {}
            if ven == 0x10DE and not nv.get("arch"):
                fails.append("%s: no nvidia.arch" % tag)
            if ven == 0x10DE and target and nv.get("sm") != target:
                fails.append("%s: sm %r, want %r" % (tag, nv.get("sm"), target))
for f in fails[:30]:
    print("FAIL", f)
print("%d passed, %d failed" % (checked - len(fails), len(fails)))
sys.exit(1 if fails else 0)
