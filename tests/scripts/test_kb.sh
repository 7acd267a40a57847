#!/usr/bin/env bash
# gpudoctor kb end to end: table, target details with footnotes, PCI and
# NVIDIA lookups, JSON, unknown targets, and --kb with good and corrupt
# files (the corrupt one must be reported as FILE:LINE: and the embedded
# copy used).
set -u
: "${GPUDOCTOR:?set GPUDOCTOR to the built binary}"
: "${GD_SRCDIR:?set GD_SRCDIR to the source tree}"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export NO_COLOR=1

check() { # name, command...
	local name=$1
	shift
	if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi
}
has() { grep -q -- "$2" "$1"; }

"$GPUDOCTOR" kb >"$tmp/list" 2>&1; rc=$?
check "list exits 0" test $rc -eq 0
check "list has gfx1010" has "$tmp/list" '^gfx1010 '
check "list has gfx1201" has "$tmp/list" '^gfx1201 '
check "list counts 44 targets" has "$tmp/list" '^44 targets'

"$GPUDOCTOR" kb gfx1010 >"$tmp/t" 2>&1; rc=$?
check "gfx1010 exits 0" test $rc -eq 0
check "gfx1010 names RX 5700 XT" has "$tmp/t" 'RX 5700 XT'
check "gfx1010 lists ROCm #2527 with its URL" has "$tmp/t" 'https://github.com/ROCm/ROCm/issues/2527'
check "gfx1010 has footnote marks" has "$tmp/t" '\[1\]'
check "gfx1010 shows the 10.3.0 override" has "$tmp/t" 'HSA_OVERRIDE_GFX_VERSION=10.3.0'
check "gfx1010 advice for llama.cpp" has "$tmp/t" 'GGML_VULKAN=ON'

"$GPUDOCTOR" kb 0x731f >"$tmp/p1" 2>&1; "$GPUDOCTOR" kb 731F >"$tmp/p2" 2>&1
check "PCI 0x731f is gfx1010" has "$tmp/p1" '^gfx1010'
check "PCI 731F is gfx1010" has "$tmp/p2" '^gfx1010'
"$GPUDOCTOR" kb 1586 >"$tmp/p3" 2>&1
check "PCI 1586 is gfx1151" has "$tmp/p3" '^gfx1151'
check "gfx1151 shows the cwsr step" has "$tmp/p3" 'amdgpu.cwsr_enable=0'
"$GPUDOCTOR" kb 0x2330 >"$tmp/n1" 2>&1
check "PCI 0x2330 is an H100 sm_90" has "$tmp/n1" 'sm_90'
"$GPUDOCTOR" kb sm_90 >"$tmp/n2" 2>&1; rc=$?
check "sm_90 exits 0" test $rc -eq 0
check "sm_90 is Hopper" has "$tmp/n2" 'Hopper'
check "sm_90 shows the CUDA 12 driver minimum" has "$tmp/n2" '525.60.13'
"$GPUDOCTOR" kb rocm-2527 >"$tmp/i" 2>&1
check "issue lookup" has "$tmp/i" 'Regression in rocm 5.3'

"$GPUDOCTOR" kb gfx9999 >"$tmp/u" 2>&1; rc=$?
check "unknown target exits 3" test $rc -eq 3
check "unknown target says so" has "$tmp/u" "knows nothing about 'gfx9999'"
"$GPUDOCTOR" kb --bogus >/dev/null 2>&1; rc=$?
check "bad option exits 3" test $rc -eq 3
"$GPUDOCTOR" kb --help >"$tmp/h" 2>&1; rc=$?
check "--help exits 0" test $rc -eq 0
check "--help shows usage" has "$tmp/h" 'Usage: gpudoctor kb'

if command -v jq >/dev/null; then
	"$GPUDOCTOR" --json kb gfx1010 >"$tmp/j" 2>&1
	check "json schema_version" test "$(jq -r .schema_version "$tmp/j")" = 1
	check "json kind" test "$(jq -r .kind "$tmp/j")" = amd-target
	check "json target gfx" test "$(jq -r .result.target.gfx "$tmp/j")" = gfx1010
	check "json sources resolved" test "$(jq -r '.sources["rocm-2527"].url' "$tmp/j")" = https://github.com/ROCm/ROCm/issues/2527
	"$GPUDOCTOR" kb --json >"$tmp/jl" 2>&1
	check "json list has 44 targets" test "$(jq '.result.targets | length' "$tmp/jl")" = 44
	"$GPUDOCTOR" kb --json sm_120 >"$tmp/jn" 2>&1
	check "json nvidia sm_120" test "$(jq -r .result.compute_capability.arch "$tmp/jn")" != null
	# kb audit 3 (docs/kb-audit-3-status.md): the release each target first
	# appears in AMD's lists, and what the 7.14 pages say of the Ryzen APUs.
	linux() { "$GPUDOCTOR" --json kb "$1" | jq -r ".result.target.rocm_linux.$2"; }
	for g in gfx1101 gfx1200 gfx1201; do
		check "$g on Linux since 6.4.1 (matrix 6.4.1 column)" test "$(linux $g since)" = 6.4.1
	done
	for g in gfx1150 gfx1152 gfx1153; do
		check "$g supported on Linux (ROCm 7.14)" test "$(linux $g status)" = supported
	done
	check "gfx1150 first release not pinned" test "$(linux gfx1150 since)" = null
	check "gfx1153 since 7.14 (release notes)" test "$(linux gfx1153 since)" = 7.14
	check "gfx950 note names the 7.x matrix" test "$(linux gfx950 note | grep -c 'not retrieved')" = 0
	check "gfx1153 has no PyTorch wheel" test "$("$GPUDOCTOR" --json kb gfx1153 | jq -r .result.target.pytorch_wheels.status)" = no
else
	echo "note: jq not installed, JSON checks skipped"
fi

# --kb with a valid copy: the origin is the file.
cp "$GD_SRCDIR/src/kb/gpudoctor-kb.json" "$tmp/good.json"
"$GPUDOCTOR" --kb "$tmp/good.json" kb >"$tmp/g" 2>&1
check "--kb FILE is used" has "$tmp/g" "Knowledge base: $tmp/good.json"

# --kb with a corrupt copy: line 3 broken; error names FILE:LINE, falls back.
sed '3s/.*/"kb_date": ,/' "$GD_SRCDIR/src/kb/gpudoctor-kb.json" >"$tmp/bad.json"
"$GPUDOCTOR" --kb "$tmp/bad.json" kb gfx1010 >"$tmp/b.out" 2>"$tmp/b.err"; rc=$?
check "corrupt --kb still answers (embedded)" test $rc -eq 0
check "corrupt --kb error is FILE:LINE:" has "$tmp/b.err" "$tmp/bad.json:3:"
check "corrupt --kb says it falls back" has "$tmp/b.err" 'built-in knowledge base'
check "fallback output is real" has "$tmp/b.out" '^gfx1010'

# Schema error (not syntax): an unknown source id, reported with its line.
python3 - "$GD_SRCDIR/src/kb/gpudoctor-kb.json" "$tmp/bad2.json" <<'PY' || true
import sys
lines = open(sys.argv[1]).read().split("\n")
# gfx1030's entry (spread over lines by tools/kb-format.py): its first
# "sources" that starts with kfd-device-c
seen = False
for i, l in enumerate(lines):
    seen = seen or '"gfx": "gfx1030"' in l
    if seen and '"sources": ["kfd-device-c"' in l:
        lines[i] = l.replace('"sources": ["kfd-device-c"', '"sources": ["no-such-source"', 1)
        break
open(sys.argv[2], "w").write("\n".join(lines))
PY
if [ -s "$tmp/bad2.json" ]; then
	line=$(grep -n 'no-such-source' "$tmp/bad2.json" | head -1 | cut -d: -f1)
	"$GPUDOCTOR" --kb "$tmp/bad2.json" kb gfx1030 >/dev/null 2>"$tmp/b2.err"
	check "unknown source reported at its line" has "$tmp/b2.err" "$tmp/bad2.json:$line: unknown source \"no-such-source\""
fi

"$GPUDOCTOR" --kb "$tmp/does-not-exist.json" kb gfx1010 >/dev/null 2>"$tmp/m.err"; rc=$?
check "missing --kb file falls back" test $rc -eq 0
check "missing --kb file is named" has "$tmp/m.err" 'does-not-exist.json: No such file'

# --stale: the clock is SOURCE_DATE_EPOCH, moved relative to kb_date.
kbday=$(sed -n 's/^"kb_date": "\([0-9-]*\)".*/\1/p' "$GD_SRCDIR/src/kb/gpudoctor-kb.json")
epoch=$(date -u -d "$kbday" +%s)
SOURCE_DATE_EPOCH=$((epoch + 10 * 86400)) "$GPUDOCTOR" kb --stale >"$tmp/s0" 2>&1; rc=$?
check "stale: kb_date + 10 days exits 0" test $rc -eq 0
check "stale: kb_date + 10 days lists none" has "$tmp/s0" '^0 entries'
SOURCE_DATE_EPOCH=$((epoch + 730 * 86400)) "$GPUDOCTOR" --json kb --stale >"$tmp/s2" 2>&1; rc=$?
check "stale: 2 years later exits 1" test $rc -eq 1
SOURCE_DATE_EPOCH=$((epoch + 730 * 86400)) "$GPUDOCTOR" kb --stale --days 800 >/dev/null 2>&1; rc=$?
check "stale: --days 800 exits 0 two years later" test $rc -eq 0
"$GPUDOCTOR" kb --stale --days x >/dev/null 2>&1; rc=$?
check "stale: bad --days exits 3" test $rc -eq 3
# Every entry that cites a source is stale two years on (counted here
# independently of the C code), and the JSON parses.
python3 - "$GD_SRCDIR/src/kb/gpudoctor-kb.json" "$tmp/s2" <<'PY'; rc=$?
import json, sys
kb = json.load(open(sys.argv[1])); out = json.load(open(sys.argv[2]))
def cites(o):
    if isinstance(o, list): return any(cites(x) for x in o)
    if isinstance(o, dict): return bool(o.get("sources")) or any(cites(v) for k, v in o.items() if k != "sources")
    return False
n = sum(cites(e) for k in ("targets", "issues", "strategies", "signatures", "pci_not_gpu", "nvidia_chips", "amd_no_kfd", "libraries") for e in kb[k])
n += sum(cites(e) for k in ("gpus", "compute_capabilities", "cuda_driver_min") for e in kb["nvidia"][k])
n += sum(cites(a) for w in kb["workloads"].values() for a in w.values())
got = out["result"]["entries"]
assert out["kind"] == "stale" and len(got) == n, (len(got), n)
assert all(e["age_days"] >= 730 for e in got)
PY
check "stale: 2 years later lists every entry, JSON parses" test $rc -eq 0
# One source dated old: exactly the entries citing only that source.
python3 - "$GD_SRCDIR/src/kb/gpudoctor-kb.json" "$tmp/old.json" "$tmp/old.ids" <<'PY'
import collections, json, re, sys
text = open(sys.argv[1]).read(); kb = json.loads(text)
def ids(o, acc):
    if isinstance(o, list): [ids(x, acc) for x in o]
    elif isinstance(o, dict):
        acc.update(o.get("sources") or []); [ids(v, acc) for k, v in o.items() if k != "sources"]
    return acc
ent = [(e.get("gfx") or e.get("id") or e.get("name") or e.get("sm") or e.get("family") or e.get("pci_id") or e.get("cuda"), ids(e, set()))
       for k in ("targets", "issues", "strategies", "signatures", "pci_not_gpu", "nvidia_chips", "amd_no_kfd") for e in kb[k]]
ent += [(e.get("pci_id") or e.get("sm") or e.get("cuda"), ids(e, set())) for k in ("gpus", "compute_capabilities", "cuda_driver_min") for e in kb["nvidia"][k]]
ent += [(w + "/" + s, ids(a, set())) for w, st in kb["workloads"].items() for s, a in st.items()]
only = collections.Counter(next(iter(s)) for _, s in ent if len(s) == 1)
src = only.most_common(1)[0][0]
text = re.sub(r'(^"%s": \{.*"checked": ")[0-9-]+' % re.escape(src), r"\g<1>2020-01-01", text, count=1, flags=re.M)
open(sys.argv[2], "w").write(text)
open(sys.argv[3], "w").write("".join(sorted(i + "\n" for i, s in ent if s == {src})))
PY
SOURCE_DATE_EPOCH=$((epoch + 10 * 86400)) "$GPUDOCTOR" --kb "$tmp/old.json" --json kb --stale >"$tmp/s3" 2>"$tmp/s3.err"; rc=$?
check "stale: one old source exits 1" test $rc -eq 1
jq -r '.result.entries[].id' "$tmp/s3" 2>/dev/null | sort >"$tmp/s3.ids"
check "stale: one old source lists exactly its sole citers" cmp -s "$tmp/s3.ids" "$tmp/old.ids"
check "stale: that list is not empty" test -s "$tmp/old.ids"

# The validator wants a real "checked" date, not after kb_date.
sed '5s/"checked": "[0-9-]*"/"checked": "2026-13-01"/' "$GD_SRCDIR/src/kb/gpudoctor-kb.json" >"$tmp/bad3.json"
"$GPUDOCTOR" --kb "$tmp/bad3.json" kb gfx1010 >/dev/null 2>"$tmp/b3.err"
check "bad checked date reported at its line" has "$tmp/b3.err" "$tmp/bad3.json:5: source .* needs \"checked\""
sed '5s/"checked": "[0-9-]*"/"checked": "2099-01-01"/' "$GD_SRCDIR/src/kb/gpudoctor-kb.json" >"$tmp/bad4.json"
"$GPUDOCTOR" --kb "$tmp/bad4.json" kb gfx1010 >/dev/null 2>"$tmp/b4.err"
check "checked after kb_date refused" has "$tmp/b4.err" "$tmp/bad4.json:5: .*after kb_date"

# explain reads a log once, looking for every signature's literals, and runs
# a regex only on lines holding one of its own: a shipped signature without
# literals, or case-insensitive (which drops them), costs a regex on every
# line of a 16 MiB log (bench/explain.sh, docs/kb.md)
python3 - "$GD_SRCDIR/src/kb/gpudoctor-kb.json" >"$tmp/nolit" <<'PY'
import json, sys
for s in json.load(open(sys.argv[1]))["signatures"]:
    if s.get("icase") or not s.get("literals"):
        print(s["id"])
PY
check "every signature has literals, none case-insensitive" test ! -s "$tmp/nolit"

# Every shipped signature names its causes (codes of causes{}, likeliest
# first): explain's JSON gives them to apps, and the corpus is judged on them
# (docs/kb.md). The validator refuses an undefined or repeated code.
python3 - "$GD_SRCDIR/src/kb/gpudoctor-kb.json" >"$tmp/nocause" <<'PY'
import json, sys
for s in json.load(open(sys.argv[1]))["signatures"]:
    if not s.get("causes"):
        print(s["id"])
PY
check "every signature names its causes" test ! -s "$tmp/nocause"
python3 - "$GD_SRCDIR/src/kb/gpudoctor-kb.json" "$tmp" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def bad(name, f):
    e = json.loads(json.dumps(d))
    f(e)
    json.dump(e, open(sys.argv[2] + "/" + name, "w"), indent=1)
bad("undef.json", lambda e: e["signatures"][0]["causes"].append("no-such-cause"))
bad("twice.json", lambda e: e["signatures"][0]["causes"].append(e["signatures"][0]["causes"][0]))
bad("altundef.json", lambda e: e["alternatives"].update({"x-alt": "no-such-cause"}))
bad("badcode.json", lambda e: e["causes"].update({"Bad Code": "text"}))
# evidence[] (docs/kb.md "evidence"): each rule names a defined cause,
# signatures the kb has and markers long enough not to be in every log
bad("evcause.json", lambda e: e["evidence"][0].update({"cause": "no-such-cause"}))
bad("evsig.json", lambda e: e["evidence"][0]["signatures"].append("no-such-signature"))
bad("evmarker.json", lambda e: e["evidence"][0]["markers"].append("ab"))
bad("evdup.json", lambda e: e["evidence"].append(dict(e["evidence"][0])))
bad("evnotext.json", lambda e: e["evidence"][0].pop("text"))
bad("evalt.json", lambda e: e["evidence"][0].update({"id": "wsl-no-kfd"}))
PY
for c in "evcause:names cause \"no-such-cause\", which causes{} does not define" \
	"evsig:names signature \"no-such-signature\", which signatures[] does not have" \
	"evmarker:each of \"markers\" is a string of 3 to 120 bytes" \
	"evdup:duplicate evidence id \"gpu-lost-in-log\"" \
	"evnotext:needs a \"text\" of 20 to 560 bytes (what tells the causes apart)" \
	"evalt:alternatives{} names another cause for that id"; do
	"$GPUDOCTOR" --kb "$tmp/${c%%:*}.json" kb gfx1010 >/dev/null 2>"$tmp/${c%%:*}.err"
	check "a bad evidence rule refused (${c%%:*}): says why, keeps the built-in kb" \
		grep -qF -- "${c#*:}; using the built-in knowledge base" "$tmp/${c%%:*}.err"
done
"$GPUDOCTOR" --kb "$tmp/undef.json" kb gfx1010 >/dev/null 2>"$tmp/c1.err"
check "a signature's undefined cause refused" has "$tmp/c1.err" "names cause \"no-such-cause\", which causes{} does not define"
"$GPUDOCTOR" --kb "$tmp/twice.json" kb gfx1010 >/dev/null 2>"$tmp/c2.err"
check "a cause named twice refused" has "$tmp/c2.err" "twice"
"$GPUDOCTOR" --kb "$tmp/altundef.json" kb gfx1010 >/dev/null 2>"$tmp/c3.err"
check "an alternative's undefined cause refused" has "$tmp/c3.err" "alternative \"x-alt\" names \"no-such-cause\""
"$GPUDOCTOR" --kb "$tmp/badcode.json" kb gfx1010 >/dev/null 2>"$tmp/c4.err"
check "a cause code outside a-z, 0-9, '-' refused" has "$tmp/c4.err" "\"Bad Code\" is not a code"

# kb CAUSE and kb SIGNATURE: explain's codes looked up
"$GPUDOCTOR" kb container-gpu-not-requested >"$tmp/cause.txt" 2>&1; rc=$?
check "kb CAUSE exits 0" test $rc -eq 0
check "kb CAUSE prints its text" has "$tmp/cause.txt" "the container was started without the GPU"
check "kb CAUSE lists a signature naming it first" has "$tmp/cause.txt" "ngc-driver-not-detected  *1 "
"$GPUDOCTOR" kb cuda-driver-insufficient >"$tmp/sig.txt" 2>&1; rc=$?
check "kb SIGNATURE exits 0" test $rc -eq 0
check "kb SIGNATURE names its causes in order" has "$tmp/sig.txt" "(2) nvidia-driver-missing: no NVIDIA driver"
# kb SIGNATURE names the evidence rules that may put another cause first
"$GPUDOCTOR" kb rocm-kfd-not-loaded >"$tmp/sigev.txt" 2>&1
check "kb SIGNATURE lists its evidence rules" grep -qF '"lsmod: not found" or "lsmod: command not found": container-kmod-missing (rocminfo-no-lsmod)' "$tmp/sigev.txt"
check "kb --json SIGNATURE: evidence ids in the kb's order" test "$("$GPUDOCTOR" --json kb rocm-kfd-not-loaded |
	python3 -c 'import json, sys; print(" ".join(e["id"] for e in json.load(sys.stdin)["result"]["evidence"]))')" = "rocminfo-no-lsmod rocminfo-kfd-present"
"$GPUDOCTOR" --json kb gpu-oom >"$tmp/cause.json"
check "kb --json CAUSE: kind and ranks" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
r = {s["id"]: s["rank"] for s in d["result"]["signatures"]}
sys.exit(0 if d["kind"] == "cause" and r.get("cuda-oom") == 1 and r.get("cublas-not-initialized") == 2 else 1)' "$tmp/cause.json"

exit $fail
