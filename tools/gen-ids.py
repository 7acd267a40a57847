#!/usr/bin/env python3
"""Generate src/discover/ids_table.c from the vendored lists in data/ids/.

    python3 tools/gen-ids.py [--check]

Inputs (data/ids/README.md says where each comes from, its version and date):
  pci.ids                      names and chip code names (AMD, NVIDIA, Intel)
  amdgpu.ids                   AMD product names per device and revision
  amdgpu_drv-pciidlist.c       Linux amdgpu: device id -> CHIP_* family
  drm_pciids.h                 Linux radeon: the family of the few
                               amdgpu.ids ids amdgpu's table lacks
  intel-pciids.h               Linux i915/xe: device id -> platform
  xe_pci-pciidlist.c           which platforms the xe driver binds
  nvidia-open-README-gpus.md   NVIDIA's released product names per device id
and src/kb/gpudoctor-kb.json (the AMD targets' pci_ids, for the ids no list
gives a family for).

The small hand tables below (chip -> compute capability, AMD family -> gfx
target, Intel platform -> graphics IP) carry their sources in docs/ids.md.
--check: exit 1 when the committed output differs (the test uses it).
"""
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "data", "ids")
OUT = os.path.join(ROOT, "src", "discover", "ids_table.c")

# ---- NVIDIA: chip code name (pci.ids first word) -> (arch, sm) ----------
# Longest prefix wins. sm "" = no CUDA (pre-Tesla). Sources: docs/ids.md.
NV_CHIPS = [
    ("NV", "Celsius/Kelvin/Rankine/Curie", ""),
    ("G7", "Curie", ""),
    ("C5", "Curie", ""),  # nForce 4xx/6xx IGPs (C51, C55): GeForce 6100-class
    ("C6", "Curie", ""),  # C61/C67/C68: GeForce 7000M/7100-class
    ("C73", "Curie", ""),
    ("G80", "Tesla", "sm_10"),
    ("G84", "Tesla", "sm_11"),
    ("G86", "Tesla", "sm_11"),
    ("G92", "Tesla", "sm_11"),
    ("G94", "Tesla", "sm_11"),
    ("G96", "Tesla", "sm_11"),
    ("G98", "Tesla", "sm_11"),
    ("C77", "Tesla", "sm_11"),
    ("C78", "Tesla", "sm_11"),
    ("C79", "Tesla", "sm_11"),
    ("C7A", "Tesla", "sm_11"),
    ("MCP7", "Tesla", "sm_11"),
    ("GT21", "Tesla", "sm_12"),
    ("C89", "Tesla", "sm_12"),
    ("MCP89", "Tesla", "sm_12"),
    ("GT200", "Tesla", "sm_13"),
    ("GF1", "Fermi", "sm_21"),
    ("GF100", "Fermi", "sm_20"),
    ("GF110", "Fermi", "sm_20"),
    ("GK1", "Kepler", "sm_30"),
    ("GK110", "Kepler", "sm_35"),
    ("GK180", "Kepler", "sm_35"),
    ("GK208", "Kepler", "sm_35"),
    ("GK210", "Kepler", "sm_37"),
    ("GM10", "Maxwell", "sm_50"),
    ("GM20", "Maxwell", "sm_52"),
    ("GP10", "Pascal", "sm_61"),
    ("GP100", "Pascal", "sm_60"),
    ("GV100", "Volta", "sm_70"),
    ("TU1", "Turing", "sm_75"),
    ("GA100", "Ampere", "sm_80"),
    ("GA10", "Ampere", "sm_86"),
    ("AD10", "Ada Lovelace", "sm_89"),
    ("GH100", "Hopper", "sm_90"),
    ("GB100", "Blackwell", "sm_100"),
    ("GB102", "Blackwell", "sm_100"),
    ("GB10B", "Blackwell", "sm_110"),  # Jetson AGX Thor (T5000, T4000)
    ("GB110", "Blackwell", "sm_103"),  # B300, GB300 (pci.ids names them)
    ("GB20", "Blackwell", "sm_120"),
    ("GB20B", "Blackwell", "sm_121"),  # GB10 (DGX Spark), N1X
    # no published compute capability for these chips (docs/ids.md)
    ("GB112", "Blackwell", ""),
    ("GB120", "Blackwell", ""),
    ("GR1", "Rubin", ""),
]
# A pci.ids NVIDIA entry is a GPU when its name is a chip code name alone or
# followed by "[Product]" ("GA102 [GeForce RTX 3090]", "GF100GL"); "GA102
# High Definition Audio Controller" and "MCP79 SMBus" are not.
NV_GPU_RE = re.compile(
    r"^(NV[0-9]+|G[0-9]{2}|GT2[0-9]{2}|G[FKMPVAHBR][0-9]{2}[0-9A-Z]|TU[0-9]{3}|"
    r"AD[0-9]{3}|C[5-8][0-9A]|MCP[78][0-9A])[A-Z0-9]*( / [^[]*)?( \[.*\])?$")
NV_PLACEHOLDER_RE = re.compile(r"^Reserved Dev ID|^Desktop Device$|Generic-GPU$")
NV_IGP_RE = re.compile(r"GeForce|ION|nForce|Quadro|Graphics")

# ---- AMD ------------------------------------------------------------------
# kernel CHIP_* family -> (gfx target, architecture). The gfx targets are
# the KFD's gfx_target_version where KFD supports the chip, else LLVM
# AMDGPUUsage's processor table (sources: docs/ids.md, "Hand tables").
AMD_CHIPS = {
    "TAHITI": ("gfx600", "GCN 1"), "PITCAIRN": ("gfx601", "GCN 1"),
    "VERDE": ("gfx601", "GCN 1"), "OLAND": ("gfx602", "GCN 1"),
    "HAINAN": ("gfx602", "GCN 1"),
    "KAVERI": ("gfx700", "GCN 2"), "HAWAII": ("gfx701", "GCN 2"),
    "KABINI": ("gfx703", "GCN 2"), "MULLINS": ("gfx703", "GCN 2"),
    "BONAIRE": ("gfx704", "GCN 2"),
    "CARRIZO": ("gfx801", "GCN 3"), "TOPAZ": ("gfx802", "GCN 3"),
    "TONGA": ("gfx802", "GCN 3"), "FIJI": ("gfx803", "GCN 3"),
    "POLARIS10": ("gfx803", "GCN 4"), "POLARIS11": ("gfx803", "GCN 4"),
    "POLARIS12": ("gfx803", "GCN 4"), "VEGAM": ("gfx803", "GCN 4"),
    "STONEY": ("gfx810", "GCN 3"),
    "VEGA10": ("gfx900", "GCN 5"), "VEGA12": ("gfx904", "GCN 5"),
    "VEGA20": ("gfx906", "GCN 5"), "RAVEN": ("gfx902", "GCN 5"),
    "RENOIR": ("gfx90c", "GCN 5"), "ARCTURUS": ("gfx908", "CDNA"),
    "ALDEBARAN": ("gfx90a", "CDNA 2"),
    "NAVI10": ("gfx1010", "RDNA"), "NAVI12": ("gfx1011", "RDNA"),
    "NAVI14": ("gfx1012", "RDNA"), "CYAN_SKILLFISH": ("gfx1013", "RDNA"),
    "SIENNA_CICHLID": ("gfx1030", "RDNA 2"),
    "NAVY_FLOUNDER": ("gfx1031", "RDNA 2"),
    "DIMGREY_CAVEFISH": ("gfx1032", "RDNA 2"),
    "VANGOGH": ("gfx1033", "RDNA 2"), "BEIGE_GOBY": ("gfx1034", "RDNA 2"),
    "YELLOW_CARP": ("gfx1035", "RDNA 2"),
}
# pci.ids AMD code names (the name's start) -> kernel family, for the ids the
# kernel finds by IP discovery (no per-id row) and amdgpu.ids-only ids.
AMD_CODENAMES = [
    ("Tahiti", "TAHITI"), ("Pitcairn", "PITCAIRN"), ("Curacao", "PITCAIRN"),
    ("Cape Verde", "VERDE"), ("Oland", "OLAND"), ("Hainan", "HAINAN"),
    ("Sun ", "HAINAN"), ("Kaveri", "KAVERI"), ("Hawaii", "HAWAII"),
    ("Kabini", "KABINI"), ("Mullins", "MULLINS"), ("Bonaire", "BONAIRE"),
    ("Carrizo", "CARRIZO"), ("Topaz", "TOPAZ"), ("Iceland", "TOPAZ"),
    ("Tonga", "TONGA"), ("Fiji", "FIJI"), ("Ellesmere", "POLARIS10"),
    ("Baffin", "POLARIS11"), ("Lexa", "POLARIS12"), ("Polaris 22", "VEGAM"),
    ("Stoney", "STONEY"), ("Vega 10", "VEGA10"), ("Vega 12", "VEGA12"),
    ("Vega 20", "VEGA20"), ("Raven", "RAVEN"), ("Picasso", "RAVEN"),
    ("Renoir", "RENOIR"), ("Lucienne", "RENOIR"), ("Cezanne", "RENOIR"),
    ("Barcelo", "RENOIR"), ("Arcturus", "ARCTURUS"),
    ("Aldebaran", "ALDEBARAN"), ("Navi 10", "NAVI10"), ("Navi 12", "NAVI12"),
    ("Navi 14", "NAVI14"), ("Cyan Skillfish", "CYAN_SKILLFISH"),
    ("Navi 21", "SIENNA_CICHLID"), ("Navi 22", "NAVY_FLOUNDER"),
    ("Navi 23", "DIMGREY_CAVEFISH"), ("Navi 24", "BEIGE_GOBY"),
    ("VanGogh", "VANGOGH"), ("Van Gogh", "VANGOGH"),
    ("Sephiroth", "VANGOGH"), ("Rembrandt", "YELLOW_CARP"),
    ("Yellow Carp", "YELLOW_CARP"),
    # IP discovery families: GC version -> KFD gfx_target_version
    ("Raphael", "GC_10_3_6"), ("Mendocino", "GC_10_3_6"),
    ("Granite Ridge", "GC_10_3_6"),  # Ryzen 9000: Raphael's 2-CU iGPU
    ("Navi 31", "GC_11_0_0"), ("Navi 32", "GC_11_0_3"), ("Navi32", "GC_11_0_3"),
    ("Navi 33", "GC_11_0_2"), ("Phoenix", "GC_11_0_1"),
    ("Hawk Point", "GC_11_0_1"), ("HawkPoint", "GC_11_0_1"), ("Strix Halo", "GC_11_5_1"),
    ("Strix", "GC_11_5_0"), ("Krackan", "GC_11_5_2"),
    ("Navi 44", "GC_12_0_0"), ("Navi 48", "GC_12_0_1"),
    ("Aqua Vanjaram", "GC_9_4_3"),
    # pci.ids 2026.08 also files the MI350 series under "Aqua Vanjaram";
    # they are GC 9.5.0 (docs/ids.md)
    ("Aqua Vanjaram [Instinct MI35", "GC_9_5_0"),
]
AMD_APU_RE = (r"Raphael|Granite Ridge|Mendocino|Phoenix|Hawk ?Point|Strix|Krackan|VanGogh|"
              r"Van Gogh|Sephiroth|Rembrandt|Yellow Carp|Raven|Picasso|"
              r"Renoir|Lucienne|Cezanne|Barcelo|Kaveri|Kabini|Mullins|"
              r"Carrizo|Stoney|Aqua Vanjaram \[Instinct MI300A")
AMD_CHIPS.update({
    "GC_10_3_6": ("gfx1036", "RDNA 2"), "GC_11_0_0": ("gfx1100", "RDNA 3"),
    "GC_11_0_1": ("gfx1103", "RDNA 3"), "GC_11_0_2": ("gfx1102", "RDNA 3"),
    "GC_11_0_3": ("gfx1101", "RDNA 3"), "GC_11_5_0": ("gfx1150", "RDNA 3.5"),
    "GC_11_5_1": ("gfx1151", "RDNA 3.5"), "GC_11_5_2": ("gfx1152", "RDNA 3.5"),
    "GC_11_5_3": ("gfx1153", "RDNA 3.5"),
    "GC_12_0_0": ("gfx1200", "RDNA 4"), "GC_12_0_1": ("gfx1201", "RDNA 4"),
    "GC_9_4_3": ("gfx942", "CDNA 3"), "GC_9_5_0": ("gfx950", "CDNA 4"),
})
# Linux radeon CHIP_* families before GCN (data/ids/drm_pciids.h.txt): no
# gfx target, no ROCm, no Vulkan driver; the architecture only
# (docs/ids.md).
AMD_PRE_GCN = {}
for _fams, _arch in (
        ("R100 RV100 RS100 RV200 RS200 R200 RV250 RS300 RV280",
         "R100/R200 (pre-GCN)"),
        ("R300 R350 RV350 RV380 R420 R423 RV410 RS400 RS480 RS600 RS690 "
         "RS740 RV515 R520 RV530 RV560 RV570 R580", "R300-R500 (pre-GCN)"),
        ("R600 RV610 RV630 RV670 RV620 RV635 RS780 RS880 RV770 RV730 RV710 "
         "RV740", "TeraScale 1"),
        ("CEDAR REDWOOD JUNIPER CYPRESS HEMLOCK PALM SUMO SUMO2 BARTS TURKS "
         "CAICOS", "TeraScale 2"),
        ("CAYMAN ARUBA", "TeraScale 3")):
    for _f in _fams.split():
        AMD_PRE_GCN[_f] = _arch
GFX_ARCH = [("gfx60", "GCN 1"), ("gfx70", "GCN 2"), ("gfx80", "GCN 3"),
            ("gfx810", "GCN 3"), ("gfx908", "CDNA"), ("gfx90a", "CDNA 2"),
            ("gfx94", "CDNA 3"), ("gfx950", "CDNA 4"), ("gfx90", "GCN 5"),
            ("gfx101", "RDNA"), ("gfx103", "RDNA 2"), ("gfx110", "RDNA 3"),
            ("gfx115", "RDNA 3.5"), ("gfx120", "RDNA 4")]

# ---- Intel: platform macro (without INTEL_ and _IDS) -> (arch, target) ----
# target: the kernel's platform name. arch: the graphics IP (the xe
# driver's graphics_ips[] names for Xe, the i915 generation before;
# docs/ids.md, "Hand tables and their sources").
INTEL_PLATFORMS = [
    ("I810", "Gen2", "i810"), ("I815", "Gen2", "i815"),
    ("I830", "Gen2", "i830"), ("I845G", "Gen2", "i845g"),
    ("I85X", "Gen2", "i85x"), ("I865G", "Gen2", "i865g"),
    ("I915G", "Gen3", "i915g"), ("I945G", "Gen3", "i945g"),
    ("G33", "Gen3", "g33"), ("PNV", "Gen3", "pnv"),
    ("I965G", "Gen4", "i965g"), ("GM45", "Gen4", "gm45"),
    ("G45", "Gen4", "g45"), ("ILK", "Gen5", "ilk"),
    ("SNB", "Gen6", "snb"), ("IVB", "Gen7", "ivb"), ("VLV", "Gen7", "vlv"),
    ("HSW", "Gen7.5", "hsw"), ("BDW", "Gen8", "bdw"), ("CHV", "Gen8", "chv"),
    ("SKL", "Gen9", "skl"), ("BXT", "Gen9", "bxt"), ("GLK", "Gen9", "glk"),
    ("KBL", "Gen9", "kbl"), ("AML_KBL", "Gen9", "kbl"),
    ("AML_CFL", "Gen9", "cfl"), ("CML", "Gen9", "cml"), ("CFL", "Gen9", "cfl"),
    ("WHL", "Gen9", "cfl"), ("CNL", "Gen10", "cnl"), ("ICL", "Gen11", "icl"),
    ("EHL", "Gen11", "ehl"), ("JSL", "Gen11", "jsl"),
    ("TGL", "Xe_LP (Gen12)", "tgl"), ("RKL", "Xe_LP (Gen12)", "rkl"),
    ("DG1", "Xe_LP (Gen12)", "dg1"), ("ADLS", "Xe_LP (Gen12)", "adl-s"),
    ("ADLP", "Xe_LP (Gen12)", "adl-p"), ("ADLN", "Xe_LP (Gen12)", "adl-n"),
    ("RPLS", "Xe_LP (Gen12)", "rpl-s"), ("RPLU", "Xe_LP (Gen12)", "rpl-u"),
    ("RPLP", "Xe_LP (Gen12)", "rpl-p"),
    ("DG2_G10", "Xe_HPG (Alchemist)", "dg2-g10"),
    ("DG2_G11", "Xe_HPG (Alchemist)", "dg2-g11"),
    ("DG2_G12", "Xe_HPG (Alchemist)", "dg2-g12"),
    ("ATS_M", "Xe_HPG", "ats-m"),
    ("MTL", "Xe_LPG", "mtl"), ("ARL_H", "Xe_LPG+", "arl-h"),
    ("ARL", "Xe_LPG", "arl"), ("PVC", "Xe_HPC", "pvc"),
    ("LNL", "Xe2_LPG", "lnl"), ("BMG", "Xe2_HPG (Battlemage)", "bmg"),
    ("PTL", "Xe3_LPG", "ptl"), ("WCL", "Xe3_LPG", "wcl"),
    ("NVLS", "Xe3_LPG", "nvl-s"), ("NVLP", "Xe3p_LPG", "nvl-p"),
    ("CRI", "Xe3p_XPC", "cri"),
]


# Intel platform (macro prefix) -> the name a row gets when pci.ids has
# none: Intel's code names as the kernel's comments and pci.ids use them.
INTEL_NAMES = [
    ("I8", "i8xx"), ("I915", "915G"), ("I945", "945G"), ("I965", "965G"),
    ("G33", "G33"), ("G45", "G45"), ("GM45", "GM45"), ("PNV", "Pineview"),
    ("ILK", "Ironlake"), ("SNB", "Sandy Bridge"), ("IVB", "Ivy Bridge"),
    ("VLV", "Bay Trail"), ("HSW", "Haswell"), ("BDW", "Broadwell"),
    ("CHV", "Cherry Trail / Braswell"), ("SKL", "Skylake"),
    ("BXT", "Apollo Lake"), ("GLK", "Gemini Lake"), ("KBL", "Kaby Lake"),
    ("AML", "Amber Lake"), ("CML", "Comet Lake"), ("CFL", "Coffee Lake"),
    ("WHL", "Whiskey Lake"), ("CNL", "Cannon Lake"), ("ICL", "Ice Lake"),
    ("EHL", "Elkhart Lake"), ("JSL", "Jasper Lake"), ("TGL", "Tiger Lake"),
    ("RKL", "Rocket Lake"), ("DG1", "Iris Xe MAX (DG1)"),
    ("ADLS", "Alder Lake-S"), ("ADLP", "Alder Lake-P"),
    ("ADLN", "Alder Lake-N"), ("RPLS", "Raptor Lake-S"),
    ("RPLU", "Raptor Lake-U"), ("RPLP", "Raptor Lake-P"),
    ("DG2", "Arc A-series (Alchemist)"),
    ("ATS_M", "Data Center GPU Flex (Arctic Sound-M)"),
    ("MTL", "Meteor Lake"), ("ARL", "Arrow Lake"),
    ("PVC", "Data Center GPU Max (Ponte Vecchio)"), ("LNL", "Lunar Lake"),
    ("BMG", "Arc B-series (Battlemage)"), ("PTL", "Panther Lake"),
    ("WCL", "Wildcat Lake"), ("NVLS", "Nova Lake-S"), ("NVLP", "Nova Lake-P"),
    ("CRI", "Crescent Island"),
]


def read(name):
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        return f.read()


def header_field(text, key):
    m = re.search(r"#\s*%s:\s*(\S+)" % key, text)
    return m.group(1) if m else "?"


def pci_ids(text):
    """{vendor: {device: name}} for the three vendors."""
    out, vendor = {}, None
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = re.match(r"^([0-9a-f]{4})\s+(.*)$", line)
        if m:
            vendor = int(m.group(1), 16)
            out.setdefault(vendor, {})
            continue
        m = re.match(r"^\t([0-9a-f]{4})\s+(.*)$", line)
        if m and vendor is not None:
            out[vendor][int(m.group(1), 16)] = m.group(2).strip()
    return out


def bracket(name):
    m = re.search(r"\[(.*)\]", name)
    return m.group(1) if m else name


def longest_prefix(table, chip):
    best = None
    for row in table:
        if chip.startswith(row[0]) and (not best or len(row[0]) > len(best[0])):
            best = row
    return best


def nvidia_rows(pci, readme):
    names = {}
    for m in re.finditer(r"^\| (.+?)\s+\| ([0-9A-F]{4})\s+\|", readme, re.M):
        names.setdefault(int(m.group(2), 16), m.group(1).strip())
    rows = {}
    for dev, name in pci.get(0x10DE, {}).items():
        if not NV_GPU_RE.match(name):
            continue
        chip = re.match(r"^[A-Z0-9]+", name).group(0)
        if chip.startswith(("C", "MCP")) and not NV_IGP_RE.search(name):
            continue
        hit = longest_prefix(NV_CHIPS, chip)
        if not hit:
            sys.exit("gen-ids: no NVIDIA chip row for %s (%s)" % (chip, name))
        pname = bracket(name)
        if NV_PLACEHOLDER_RE.search(pname):
            pname = chip  # pci.ids' placeholder, not a product name
        rows[dev] = dict(name=names.get(dev, pname), chip=chip,
                         arch=hit[1], target=hit[2], src="pci.ids", flags=[])
        if dev in names:
            rows[dev]["src"] = "pci.ids, nvidia-open README"
    for dev, pname in names.items():
        if dev not in rows:
            sys.exit("gen-ids: NVIDIA 0x%04x (%s) in the README has no "
                     "chip in pci.ids" % (dev, pname))
    return rows


def amd_codename(name):
    for prefix, fam in sorted(AMD_CODENAMES, key=lambda r: -len(r[0])):
        if name.startswith(prefix):
            return fam
    return None


def amd_rows(pci, drv, amdids, kb, radeon_text):
    rows = {}
    radeon = {int(d, 16): c for d, c in re.findall(
        r"\{0x1002, 0x([0-9A-Fa-f]{4}), PCI_ANY_ID, PCI_ANY_ID, 0, 0, "
        r"CHIP_(\w+?)[|}]", radeon_text)}
    for dev, fam, extra in re.findall(
            r"PCI_DEVICE\(0x1002, 0x([0-9A-Fa-f]{4})\),\s*\.driver_data = "
            r"CHIP_(\w+)((?:\|AMD_IS_\w+)*)", drv):
        dev = int(dev, 16)
        gfx, arch = AMD_CHIPS[fam]
        flags = ["apu"] if "AMD_IS_APU" in extra else []
        rows[dev] = dict(chip=fam.lower(), target=gfx, arch=arch,
                         src="amdgpu_drv.c", flags=flags)
    kbgfx, kbname = {}, {}
    for t in kb["targets"]:
        for p in t.get("products", []):
            for pid in p.get("pci_ids", []):
                kbgfx[int(pid, 16)] = t["gfx"]
                kbname[int(pid, 16)] = p["name"]
    for t in kb["amd_no_kfd"]:
        for pid in t.get("pci_ids", []):
            kbgfx.setdefault(int(pid, 16), t["gfx"])
    amdpci = pci.get(0x1002, {})
    want = set(amdids) | set(kbgfx)
    for dev, name in amdpci.items():
        if amd_codename(name) and "Audio" not in name and "USB" not in name \
                and not re.search(r"Bridge|Function|Fabric|IOMMU|Root|"
                                  r"Neural|CCP|Controller|Host|PCIe|"
                                  r"Sensor|Bus|SMU|Dummy", name):
            want.add(dev)
    for dev in sorted(want - set(rows)):
        fam = amd_codename(amdpci.get(dev, ""))
        if fam:
            gfx, arch = AMD_CHIPS[fam]
            code = re.match(r"[^\[/]*", amdpci[dev]).group(0).strip()
            apu = re.match(AMD_APU_RE, amdpci[dev])
            rows[dev] = dict(chip=code, target=gfx, arch=arch,
                             src="pci.ids code name",
                             flags=["apu"] if apu else [])
        elif dev in radeon and radeon[dev] in AMD_CHIPS:
            gfx, arch = AMD_CHIPS[radeon[dev]]
            rows[dev] = dict(chip=radeon[dev].lower(), target=gfx, arch=arch,
                             src="drm_pciids.h (radeon)", flags=[])
        elif dev in kbgfx:
            gfx = kbgfx[dev]
            arch = longest_prefix(GFX_ARCH, gfx)[1]
            rows[dev] = dict(chip="", target=gfx, arch=arch,
                             src="knowledge base", flags=[])
        else:
            # named by amdgpu.ids only, in no family list: its name stays
            # (revs[]), its target is unknown (docs/ids.md lists them)
            print("gen-ids: AMD 0x%04x (%s) has no family: left out" %
                  (dev, amdids.get(dev)), file=sys.stderr)
    not_gpu = {int(d, 16) for e in kb.get("pci_not_gpu", [])
               if e.get("vendor_id") == "0x1002" for d in e["device_ids"]}
    for dev, fam, extra in re.findall(
            r"\{0x1002, 0x([0-9A-Fa-f]{4}), PCI_ANY_ID, PCI_ANY_ID, 0, 0, "
            r"CHIP_(\w+?)((?:\|RADEON_\w+)*)\}", radeon_text):
        dev = int(dev, 16)
        if dev in rows or fam in AMD_CHIPS or dev in not_gpu:
            continue  # not_gpu: the kb's server displays (ES1000)
        if fam not in AMD_PRE_GCN:
            sys.exit("gen-ids: radeon family %s has no architecture" % fam)
        rows[dev] = dict(chip=fam.lower(), target="", arch=AMD_PRE_GCN[fam],
                         src="drm_pciids.h (radeon)",
                         flags=["apu"] if "RADEON_IS_IGP" in extra else [])
    for dev, r in rows.items():
        if dev in kbgfx and kbgfx[dev] != r["target"]:
            sys.exit("gen-ids: AMD 0x%04x: %s from %s, %s in the kb" %
                     (dev, r["target"], r["src"], kbgfx[dev]))
        names = amdids.get(dev)
        r["name"] = names[0][1] if names else \
            bracket(amdpci[dev]) if dev in amdpci else kbname.get(dev, "")
        if not r["name"]:  # no list names it: the family's name
            r["name"] = "AMD %s GPU" % r["chip"].replace("_", " ").title()
        if names:
            r["src"] += ", amdgpu.ids"
        full = " ".join([amdpci.get(dev, ""), kbname.get(dev, "")] +
                        [n for _, n in names or []])
        if re.search(r"\bVF\b|MxGPU", full):
            r["flags"].append("vf")
    return rows


def intel_rows(pci, hdr, xe):
    leaf = {}
    for m in re.finditer(r"#define INTEL_(\w+)_IDS\(MACRO__, \.\.\.\) \\\n"
                         r"((?:.*\\\n)*.*)", hdr):
        for dev in re.findall(r"MACRO__\(0[xX]([0-9A-Fa-f]{4})", m.group(2)):
            leaf.setdefault(int(dev, 16), m.group(1))
    xe_plat = re.findall(r"INTEL_(\w+)_IDS\(INTEL_", xe)
    macros = dict(re.findall(r"#define INTEL_(\w+)_IDS\(MACRO__, \.\.\.\) "
                             r"\\\n((?:.*\\\n)*.*)", hdr))

    def expand(mac, seen=()):
        body = macros.get(mac, "")
        ids = {int(d, 16) for d in re.findall(r"MACRO__\(0[xX]([0-9A-Fa-f]{4})",
                                              body)}
        for sub in re.findall(r"INTEL_(\w+)_IDS\(MACRO__", body):
            if sub not in seen:
                ids |= expand(sub, seen + (mac,))
        return ids
    on_xe = set()
    for p in xe_plat:
        on_xe |= expand(p)
    rows = {}
    pnames = pci.get(0x8086, {})
    for dev, mac in leaf.items():
        hit = longest_prefix(INTEL_PLATFORMS, mac)
        if not hit:
            sys.exit("gen-ids: no Intel platform row for INTEL_%s_IDS" % mac)
        flags = ["xe"] if dev in on_xe else []
        if not mac.startswith(("DG1", "DG2", "ATS", "PVC", "BMG", "CRI")):
            flags.append("apu")
        name = bracket(pnames[dev]) if dev in pnames else \
            "Intel %s graphics" % longest_prefix(INTEL_NAMES, mac)[1]
        rows[dev] = dict(name=name, chip=mac.lower(), arch=hit[1],
                         target=hit[2], flags=flags,
                         src="pciids.h" + (", pci.ids" if name else ""))
    return rows


def cstr(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def flagexpr(flags):
    bits = {"vf": "GD_IDF_VF", "apu": "GD_IDF_IGPU", "xe": "GD_IDF_XE"}
    return "|".join(bits[f] for f in sorted(set(flags))) or "0"


def render(rows, revs, versions):
    out = ["/* GENERATED by tools/gen-ids.py from data/ids/ -- do not edit. */",
           "/* clang-format off */",
           "/* Inputs (data/ids/README.md):"]
    out += [" *   %s" % v for v in versions]
    out += [" */", "#include \"ids_table.h\"", "",
            "const char *const gd_ids_inputs =",
            "    " + cstr("; ".join(versions)) + ";", "",
            "static const struct gd_id_row rows[] = {"]
    for (vendor, dev), r in sorted(rows.items()):
        out.append("    {0x%04x, 0x%04x, %s, %s, %s, %s, %s, %s}," % (
            vendor, dev, flagexpr(r["flags"]), cstr(r["name"]),
            cstr(r["chip"]), cstr(r["arch"]), cstr(r["target"]),
            cstr(r["src"])))
    out += ["};", "", "static const struct gd_id_rev revs[] = {"]
    for dev, rev, name in sorted(revs):
        out.append("    {0x%04x, 0x%02x, %s}," % (dev, rev, cstr(name)))
    out += ["};", "",
            "const struct gd_id_row *gd_ids_rows(size_t *n)",
            "{", "\t*n = sizeof rows / sizeof rows[0];", "\treturn rows;",
            "}", "",
            "const struct gd_id_rev *gd_ids_revs(size_t *n)",
            "{", "\t*n = sizeof revs / sizeof revs[0];", "\treturn revs;",
            "}", "/* clang-format on */", ""]
    return "\n".join(out)


def main():
    pci_text = read("pci.ids")
    pci = pci_ids(pci_text)
    amdids_text = read("amdgpu.ids")
    amdids, revs = {}, []
    for m in re.finditer(r"^([0-9A-F]{4}),\s*([0-9A-F]{2}),\s*(.*?)\s*$",
                         amdids_text, re.M):
        dev, rev = int(m.group(1), 16), int(m.group(2), 16)
        amdids.setdefault(dev, []).append((rev, m.group(3)))
        revs.append((dev, rev, m.group(3)))
    with open(os.path.join(ROOT, "src", "kb", "gpudoctor-kb.json")) as f:
        kb = json.load(f)
    rows = {}
    for dev, r in nvidia_rows(pci, read("nvidia-open-README-gpus.md")).items():
        rows[(0x10DE, dev)] = r
    for dev, r in amd_rows(pci, read("amdgpu_drv-pciidlist.c.txt"), amdids,
                           kb, read("drm_pciids.h.txt")).items():
        rows[(0x1002, dev)] = r
    for dev, r in intel_rows(pci, read("intel-pciids.h.txt"),
                             read("xe_pci-pciidlist.c.txt")).items():
        rows[(0x8086, dev)] = r
    versions = [
        "pci.ids %s (%s)" % (header_field(pci_text, "Version"),
                             header_field(pci_text, "Date")),
        "amdgpu.ids (libdrm main 369990d9, 2025-12-19, after 2.4.131)",
        "Linux 7.3.4 amdgpu_drv.c pciidlist, include/drm/intel/pciids.h, "
        "xe_pci.c (linux-source-7.3 7.3.4-1~bpo13+1)",
        "NVIDIA open kernel modules README 595.45.04 (2026-03-05)",
    ]
    text = render(rows, revs, versions)
    if "--check" in sys.argv:
        with open(OUT, encoding="utf-8") as f:
            if f.read() != text:
                sys.exit("gen-ids: %s is stale: run tools/gen-ids.py" % OUT)
        return
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    counts = {}
    for (v, _), r in rows.items():
        counts[v] = counts.get(v, 0) + 1
    print("gen-ids: %s" % ", ".join("%04x: %d" % kv
                                      for kv in sorted(counts.items())))


if __name__ == "__main__":
    main()
