#!/usr/bin/env python3
"""Checks an NFD local feature file (features.d) as NFD and Kubernetes
read it. Usage: nfd_check.py FILE EXPECTED_BRIEF_JSON

- lines: '# comment', '# +expiry-time=RFC3339' (NFD customization guide),
  or 'key=value'; under 64 kB (NFD ignores bigger files);
- keys: prefix gpudoctor.io (a lowercase DNS-1123 subdomain), name part at
  most 63 of ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]; each key once;
- values: empty, or at most 63 of the same charset (k8s apimachinery
  validation.go, IsQualifiedName / IsValidLabelValue);
- gpu-N.verdict equals check --brief's status for GPU N, gpu.count the
  number of GPUs."""
import datetime
import json
import re
import sys

NAME = re.compile(r"([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]")
VALUE = NAME
DNS1123 = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*")


def check(path, brief_path):
    raw = open(path, "rb").read()
    errs = []
    if len(raw) >= 64 * 1024:
        errs.append("file is %d bytes; NFD ignores files over 64 kB" % len(raw))
    labels = {}
    for n, line in enumerate(raw.decode("utf-8").splitlines(), 1):
        if line.startswith("# +expiry-time="):
            try:
                datetime.datetime.strptime(line[15:], "%Y-%m-%dT%H:%M:%SZ")
            except ValueError:
                errs.append("line %d: expiry-time is not RFC3339: %r" % (n, line))
            continue
        if line.startswith("#") or not line:
            continue
        key, sep, value = line.partition("=")
        prefix, slash, name = key.rpartition("/")
        if not slash or prefix != "gpudoctor.io" or not DNS1123.fullmatch(prefix):
            errs.append("line %d: key %r not under gpudoctor.io/" % (n, key))
        if len(name) > 63 or not NAME.fullmatch(name):
            errs.append("line %d: invalid label name %r" % (n, name))
        if not sep or (value and (len(value) > 63 or not VALUE.fullmatch(value))):
            errs.append("line %d: invalid label value %r" % (n, value))
        if key in labels:
            errs.append("line %d: %s twice" % (n, key))
        labels[key] = value
    brief = json.load(open(brief_path))
    if labels.get("gpudoctor.io/gpu.count") != str(len(brief["gpus"])):
        errs.append("gpu.count %r, want %d" % (labels.get("gpudoctor.io/gpu.count"),
                                               len(brief["gpus"])))
    for g in brief["gpus"]:
        got = labels.get("gpudoctor.io/gpu-%d.verdict" % g["index"])
        if got != g["status"]:
            errs.append("GPU %d verdict %r, want %r" % (g["index"], got, g["status"]))
    return errs


if __name__ == "__main__":
    errors = check(sys.argv[1], sys.argv[2])
    for e in errors:
        print(e)
    sys.exit(1 if errors else 0)
