#!/usr/bin/env bash
# gpudoctor metrics (issue #13): Prometheus text exposition.
# 1. every captured machine: the output parses under the exposition format's
#    rules (tests/python/promtext.py), each GPU has exactly one verdict
#    series at 1 and it is the one check --brief gives;
# 2. --textfile: the file appears whole (mode 0644, no temporary left), an
#    unwritable directory is gpudoctor's error (3);
# 3. a GPU name with quotes and backslashes (the rx5700xt capture with its
#    amdgpu.ids line edited) survives escaping;
# 4. the real consumer: Debian's prometheus-node-exporter, started on
#    127.0.0.1 with --collector.textfile.directory, scraped over HTTP; the
#    gpudoctor series must come back unchanged and node_textfile_scrape_error
#    be 0. Skipped visibly when node_exporter is not installed.
set -u
. "$(dirname "$0")/machine_env.sh"
: "${GPUDOCTOR:?}" "${GD_SRCDIR:?}"
py=${PYTHON:-python3}
parser="$GD_SRCDIR/tests/python/promtext.py"
tmp=$(mktemp -d)
ne_pid=
cleanup() { [ -n "$ne_pid" ] && kill "$ne_pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
fail=0 n=0

check_verdicts() { # samples.jsonl expected-brief.json name
  "$py" - "$1" "$2" "$3" <<'PY'
import json, sys
samples = [json.loads(l) for l in open(sys.argv[1])]
brief = json.load(open(sys.argv[2]))
want = {str(g["index"]): g["status"] for g in brief["gpus"]}
got = {}
for name, labels, value in samples:
    if name == "gpudoctor_gpu_verdict" and value == 1:
        if labels["gpu"] in got:
            sys.exit("%s: GPU %s has two verdicts" % (sys.argv[3], labels["gpu"]))
        got[labels["gpu"]] = labels["verdict"]
count = [v for n, l, v in samples if n == "gpudoctor_gpu_count"]
if got != want or count != [len(want)]:
    sys.exit("%s: verdicts %r, gpus %r; want %r" % (sys.argv[3], got, count, want))
PY
}

# Prometheus naming and joins (issue #24): no empty or placeholder label
# (dev="-1", device=""), no unit or status label, name/target/backend only
# on gpudoctor_gpu_info, pci_bus_id in dcgm-exporter's 8-digit-domain form
# on every GPU series, UUID where NVIDIA tells it, gpu_id on AMD GPUs.
check_names() { # samples.jsonl name
  "$py" - "$1" "$2" <<'PY'
import json, re, sys
bad = []
for name, labels, value in (json.loads(l) for l in open(sys.argv[1])):
    for k, v in labels.items():
        if v == "" or v == "-1":
            bad.append("%s: placeholder %s=%r" % (name, k, v))
    if "unit" in labels or ("status" in labels and name != "gpudoctor_probe_status"):
        bad.append("%s: unit/status label" % name)
    if "device" in labels:
        bad.append("%s: 'device' label (dcgm-exporter's means nvidia0)" % name)
    if name.startswith("gpudoctor_gpu_") and name != "gpudoctor_gpu_count":
        if name != "gpudoctor_gpu_info" and {"name", "target", "backend"} & set(labels):
            bad.append("%s: name/target/backend outside gpudoctor_gpu_info" % name)
        if not re.fullmatch(r"[0-9A-F]{8}:[0-9A-F]{2}:[0-9A-F]{2}\.[0-7]",
                            labels.get("pci_bus_id", "")):
            bad.append("%s: pci_bus_id %r" % (name, labels.get("pci_bus_id")))
        if labels.get("vendor") == "nvidia" and not labels.get("UUID", "GPU-").startswith("GPU-"):
            bad.append("%s: UUID %r" % (name, labels.get("UUID")))
        if labels.get("vendor") == "amd" and "gpu_id" not in labels:
            bad.append("%s: AMD GPU without gpu_id" % name)
    if name in ("gpudoctor_gpus", "gpudoctor_bench"):
        bad.append("%s: old name" % name)
if bad:
    sys.exit("%s: %s" % (sys.argv[2], "; ".join(sorted(set(bad))[:5])))
PY
}

for d in "$GD_SRCDIR"/tests/fixtures/*/; do
  d=${d%/}
  [ -f "$d/expected-brief.json" ] || continue
  case $d in */windows-*) continue ;; esac # Linux nodes only (refused below)
  name=$(basename "$d") n=$((n + 1))
  # each machine's env file applies, as in test_brief.sh
  envs=(PATH=/usr/bin:/bin LANG=C HOME=/nonexistent)
  machine_env "$d"
  (cd "$d" && env -i "${envs[@]}" \
     "$GPUDOCTOR" --root root metrics --no-probe > "$tmp/$name.prom" 2>/dev/null)
  rc=$?
  [ "$rc" -le 2 ] || { echo "FAIL $name: metrics exited $rc"; fail=1; continue; }
  if ! "$py" "$parser" "$tmp/$name.prom" --no-timestamps --expect gpudoctor_info \
       gpudoctor_last_run_timestamp_seconds gpudoctor_gpu_count gpudoctor_probes_ran \
       > "$tmp/$name.jsonl"; then
    cat "$tmp/$name.jsonl"; echo "FAIL $name: not valid exposition text"; fail=1; continue
  fi
  check_verdicts "$tmp/$name.jsonl" "$d/expected-brief.json" "$name" || fail=1
  check_names "$tmp/$name.jsonl" "$name" || fail=1
done

# the join labels on known captures: dcgm-exporter's form on the H100s
grep -q '^gpudoctor_gpu_info{gpu="0",pci_bus_id="00000000:18:00.0",UUID="GPU-b42dd28e-ffdd-8720-1df0-98bd8cdc05b1",name="NVIDIA H100 80GB HBM3"' \
  "$tmp/nvidia-h100x8-pci-order.prom" || { echo "FAIL: h100x8 join labels"; fail=1; }
grep -q '^gpudoctor_gpu_usable{gpu="0",pci_bus_id="00000000:28:00.0",gpu_id="0"} 1$' \
  "$tmp/rx5700xt.prom" || { echo "FAIL: rx5700xt join labels"; fail=1; }

# with probes, on this machine's real runtimes (lavapipe, PoCL when present)
"$GPUDOCTOR" metrics --timeout 20 > "$tmp/live.prom" 2>/dev/null
if "$py" "$parser" "$tmp/live.prom" --no-timestamps --expect gpudoctor_probes_ran > "$tmp/live.jsonl"; then
  check_names "$tmp/live.jsonl" "this machine, probes" || fail=1
  if grep -q '"gpudoctor_probe_ok"' "$tmp/live.jsonl"; then
    "$py" - "$tmp/live.jsonl" <<'PY' || fail=1
import json, sys
s = [json.loads(l) for l in open(sys.argv[1])]
ops = {(l["backend"], l.get("device_index"), l["op"]): v for n, l, v in s if n == "gpudoctor_probe_ok"}
st = {}
for n, l, v in s:
    if n == "gpudoctor_probe_status":
        st.setdefault((l["backend"], l.get("device_index"), l["op"]), []).append((l["status"], v))
for k, ok in ops.items():
    ones = [x for x, v in st.get(k, []) if v == 1]
    if len(ones) != 1 or (ok == 1) != (ones == ["ok"]) or len(st[k]) != 8:
        sys.exit("FAIL probe state set %r: ok=%r states=%r" % (k, ok, st.get(k)))
print("ok: probe state sets for %d ops" % len(ops))
PY
  fi
else
  echo "FAIL: metrics with probes does not parse"; fail=1
fi

# 2. --textfile
mkdir -p "$tmp/tf"
(umask 077 && cd "$GD_SRCDIR/tests/fixtures/rx5700xt" &&
 "$GPUDOCTOR" --root root metrics --no-probe --textfile "$tmp/tf" 2>/dev/null)
[ $? = 0 ] || { echo "FAIL textfile: a successful write should exit 0 (check's is 1)"; fail=1; }
[ "$(stat -c %a "$tmp/tf/gpudoctor.prom" 2>/dev/null)" = 644 ] ||
  { echo "FAIL textfile: gpudoctor.prom missing or not mode 0644"; fail=1; }
[ "$(ls -A "$tmp/tf")" = gpudoctor.prom ] || { echo "FAIL textfile: leftovers: $(ls -A "$tmp/tf")"; fail=1; }
"$GPUDOCTOR" --root "$GD_SRCDIR/tests/fixtures/no-gpu/root" metrics --no-probe \
  --textfile "$tmp/nonexistent" 2>/dev/null
[ $? = 3 ] || { echo "FAIL textfile: a missing directory should exit 3"; fail=1; }

# 3. escaping: a name with " and \ (and the exposition parser must agree)
cp -r "$GD_SRCDIR/tests/fixtures/rx5700xt/root" "$tmp/evil"
ids="$tmp/evil/usr/share/libdrm/amdgpu.ids"
sed -i 's/^731F,\tC4,\t.*/731F,\tC4,\tRX "5700" \\ evil/' "$ids"
"$GPUDOCTOR" --root "$tmp/evil" metrics --no-probe > "$tmp/evil.prom" 2>/dev/null
if ! "$py" "$parser" "$tmp/evil.prom" --no-timestamps > "$tmp/evil.jsonl" ||
   ! grep -qF '"name": "RX \"5700\" \\ evil"' "$tmp/evil.jsonl"; then
  grep -m1 gpudoctor_gpu_info "$tmp/evil.prom"; echo "FAIL escaping"; fail=1
fi

# 3b. E7: a name that is not UTF-8 (ff fe, an overlong c0 af) is mended to
# U+FFFD, as the JSON output does; Prometheus' own parser takes the file
cp -r "$GD_SRCDIR/tests/fixtures/rx5700xt/root" "$tmp/bad8"
sed -i 's/^731F,\tC4,\t.*/731F,\tC4,\tbad \xff\xfe \xc0\xaf name/' "$tmp/bad8/usr/share/libdrm/amdgpu.ids"
"$GPUDOCTOR" --root "$tmp/bad8" metrics --no-probe > "$tmp/bad8.prom" 2>/dev/null
if ! iconv -f UTF-8 -t UTF-8 "$tmp/bad8.prom" > /dev/null 2>&1 ||
   ! grep -qF "$(printf 'name="bad \xef\xbf\xbd\xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd name"')" "$tmp/bad8.prom"; then
  grep -m1 'gpudoctor_gpu_info{' "$tmp/bad8.prom" | od -c | head; echo "FAIL E7: label values not UTF-8 / not mended"; fail=1
fi
pc=
for c in "$py" /usr/bin/python3; do "$c" -c 'import prometheus_client' 2>/dev/null && pc=$c && break; done
if [ -n "$pc" ]; then
  "$pc" - "$tmp/bad8.prom" <<'PY' || { echo "FAIL E7: prometheus_client rejects the file"; fail=1; }
import sys
from prometheus_client.parser import text_string_to_metric_families
text = open(sys.argv[1], "rb").read().decode("utf-8")  # raises when not UTF-8
names = [s.labels.get("name") for f in text_string_to_metric_families(text)
         for s in f.samples if "name" in s.labels]
assert "bad \ufffd\ufffd \ufffd\ufffd name" in names, names
PY
else
  echo "SKIPPED prometheus_client parse: python3-prometheus-client not installed"
fi

# --json is refused, not ignored
"$GPUDOCTOR" --json --root "$GD_SRCDIR/tests/fixtures/no-gpu/root" metrics > "$tmp/j" 2>&1
[ $? = 3 ] && grep -q -- "--json" "$tmp/j" || { echo "FAIL: --json metrics: $(cat "$tmp/j")"; fail=1; }

# 4. node_exporter
ne=$(command -v prometheus-node-exporter || command -v node_exporter || true)
if [ -z "$ne" ]; then
  echo "SKIPPED node_exporter round trip: prometheus-node-exporter not installed"
else
  port=$("$py" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  "$ne" --web.listen-address="127.0.0.1:$port" --collector.disable-defaults \
    --collector.textfile --collector.textfile.directory="$tmp/tf" > "$tmp/ne.log" 2>&1 &
  ne_pid=$!
  if "$py" - "$port" "$tmp/scrape.prom" <<'PY'
import sys, time, urllib.request
url = "http://127.0.0.1:%s/metrics" % sys.argv[1]
for _ in range(100):
    try:
        body = urllib.request.urlopen(url, timeout=2).read()
        open(sys.argv[2], "wb").write(body)
        sys.exit(0)
    except OSError:
        time.sleep(0.1)
sys.exit("node_exporter did not answer on " + url)
PY
  then
    "$py" "$parser" "$tmp/scrape.prom" > "$tmp/scrape.jsonl" ||
      { cat "$tmp/scrape.jsonl"; echo "FAIL: node_exporter's output does not parse"; fail=1; }
    grep '^\["gpudoctor_' "$tmp/scrape.jsonl" | sort > "$tmp/a"
    "$py" "$parser" "$tmp/tf/gpudoctor.prom" --no-timestamps | sort > "$tmp/b"
    diff -u "$tmp/b" "$tmp/a" || { echo "FAIL: node_exporter changed the gpudoctor series"; fail=1; }
    grep -qx '\["node_textfile_scrape_error", {}, 0.0\]' "$tmp/scrape.jsonl" ||
      { echo "FAIL: node_textfile_scrape_error is not 0"; cat "$tmp/ne.log"; fail=1; }
    check_verdicts "$tmp/scrape.jsonl" "$GD_SRCDIR/tests/fixtures/rx5700xt/expected-brief.json" \
      node_exporter || fail=1
    echo "node_exporter: $("$ne" --version 2>&1 | head -1)"
  else
    cat "$tmp/ne.log"; echo "FAIL: node_exporter scrape"; fail=1
  fi
  kill "$ne_pid"; wait "$ne_pid" 2>/dev/null; ne_pid=
fi
[ "$n" -gt 0 ] || { echo "FAIL: no machines"; fail=1; }
[ "$fail" = 0 ] && echo "ok: metrics on $n captured machines"
exit "$fail"
