#!/usr/bin/env python3
"""Checks deploy/kubernetes/*.yaml without a cluster: what the API server
would refuse (structure of apps/v1 DaemonSet and v1 Namespace as in the
Kubernetes API reference: required fields, selector matching the template,
mounts naming volumes, DNS-1123 names) and what this deployment promises
(read-only host mounts, runAsNonRoot, no capabilities, no privilege,
read-only root filesystem, writes only to features.d and the textfile
directory). When python3-jsonschema and a vendored schema in
tests/fixtures/k8s-schema/<kind>-<group>-<version>.json exist, each object
is validated against it too.

Usage: k8s_check.py [--require-schema] SCHEMA_DIR FILE...   Prints the
gpudoctor command lines found in the containers' args, one per line, for the
caller to run. With --require-schema an object that cannot be validated
against a vendored schema (no file, no jsonschema) is an error."""
import json
import os
import re
import sys

import yaml

DNS1123_LABEL = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?")
HOST_RO = {"/sys", "/proc", "/dev", "/usr", "/opt", "/etc"}
# the taints GPU node pools carry (device plugins, GKE, AKS): each must be
# tolerated with NoSchedule, or the pod never lands where it is needed
GPU_TAINTS = {"nvidia.com/gpu", "amd.com/gpu", "gpu.intel.com/i915",
              "gpu.intel.com/xe", "sku"}
WRITABLE = {"/features.d", "/textfile"}
errors = []


def err(where, msg):
    errors.append("%s: %s" % (where, msg))


def need(obj, path, where):
    cur = obj
    for k in path.split("."):
        if not isinstance(cur, dict) or k not in cur:
            err(where, "missing %s" % path)
            return None
        cur = cur[k]
    return cur


def check_container(c, vols, where):
    w = "%s container %s" % (where, c.get("name"))
    for k in ("name", "image"):
        need(c, k, w)
    sc = c.get("securityContext") or {}
    if sc.get("allowPrivilegeEscalation") is not False:
        err(w, "allowPrivilegeEscalation must be false")
    if sc.get("readOnlyRootFilesystem") is not True:
        err(w, "readOnlyRootFilesystem must be true")
    if sc.get("privileged"):
        err(w, "must not be privileged")
    caps = sc.get("capabilities") or {}
    if "ALL" not in (caps.get("drop") or []) or caps.get("add"):
        err(w, "capabilities: drop ALL, add none")
    for m in c.get("volumeMounts") or []:
        v = vols.get(m.get("name"))
        if v is None:
            err(w, "mount %s names no volume" % m.get("name"))
            continue
        host = (v.get("hostPath") or {}).get("path")
        if host in HOST_RO and m.get("readOnly") is not True:
            err(w, "host %s must be mounted read-only" % host)
        if host in HOST_RO and (v.get("hostPath") or {}).get("type") \
                == "DirectoryOrCreate":
            err(w, "host %s: DirectoryOrCreate on a read-only mount" % host)
        if not m.get("readOnly") and m.get("mountPath") not in WRITABLE \
                and "emptyDir" not in v:
            err(w, "writable mount %s" % m.get("mountPath"))


def gpudoctor_lines(c):
    """The gpudoctor command lines of a container (a line's shell redirect
    and the closing parenthesis of a $(...) left out)."""
    text = "\n".join(c.get("args") or []) + "\n" + " ".join(c.get("command") or [])
    return [re.sub(r"\s+2>&1\)?$", "", l.strip()) for l in text.splitlines()
            if l.strip().startswith("gpudoctor ")]


def check_health(c, vols, w):
    """Health from the last successful write: exec readiness and liveness
    probes that test a file's age, in a volume the loop writes to."""
    for kind in ("readinessProbe", "livenessProbe"):
        cmd = " ".join(((c.get(kind) or {}).get("exec") or {}).get("command") or [])
        m = re.search(r"find (\S+) -mmin -(\d+)", cmd)
        if not m:
            err(w, "%s: no exec probe on the last write's age" % kind)
            continue
        mounts = [x.get("mountPath") for x in c.get("volumeMounts") or []]
        if not any(m.group(1).startswith(p + "/") for p in mounts):
            err(w, "%s: %s is in no mounted volume" % (kind, m.group(1)))
        if "touch %s" % m.group(1) not in "\n".join(c.get("args") or []):
            err(w, "%s: the loop never writes %s" % (kind, m.group(1)))


def check_tolerations(pod, where):
    have = {t.get("key") for t in pod.get("tolerations") or []
            if t.get("effect") in ("NoSchedule", None)}
    for t in sorted(GPU_TAINTS - have):
        err(where, "no toleration for the GPU taint %s:NoSchedule" % t)


def check_daemonset(o, where):
    for p in ("metadata.name", "metadata.namespace", "spec.selector.matchLabels",
              "spec.template.spec.containers"):
        need(o, p, where)
    for n in (o.get("metadata", {}).get("name"), o.get("metadata", {}).get("namespace")):
        if n and not DNS1123_LABEL.fullmatch(n):
            err(where, "name %r is not a DNS-1123 label" % n)
    spec = o.get("spec", {})
    sel = (spec.get("selector") or {}).get("matchLabels") or {}
    tl = ((spec.get("template") or {}).get("metadata") or {}).get("labels") or {}
    if not sel or any(tl.get(k) != v for k, v in sel.items()):
        err(where, "selector does not match the template's labels")
    pod = (spec.get("template") or {}).get("spec") or {}
    psc = pod.get("securityContext") or {}
    if psc.get("runAsNonRoot") is not True:
        err(where, "runAsNonRoot must be true")
    if pod.get("hostNetwork") or pod.get("hostPID"):
        err(where, "no host namespaces")
    vols = {v.get("name"): v for v in pod.get("volumes") or []}
    check_tolerations(pod, where)
    lines = []
    for c in pod.get("containers") or []:
        check_health(c, vols, "%s container %s" % (where, c.get("name")))
    for c in (pod.get("containers") or []) + (pod.get("initContainers") or []):
        check_container(c, vols, where)
        lines += gpudoctor_lines(c)
    # one probe run per cycle: one gpudoctor command writes both files
    if len(lines) != 1 or "--nfd-dir" not in lines[0] or "--textfile" not in lines[0]:
        err(where, "one gpudoctor run per cycle should write both files: %r" % lines)
    # /dev: read-only for the --root variant (the other gets its GPU from
    # the device plugin)
    if any("--root /host" in l for l in lines):
        mounts = {m.get("mountPath"): m for c in pod.get("containers") or []
                  for m in c.get("volumeMounts") or []}
        if not (mounts.get("/host/dev") or {}).get("readOnly"):
            err(where, "/dev is not mounted read-only under /host")
    return lines


def schema_check(o, schema_dir, where):
    try:
        import jsonschema
    except ImportError:
        return "no python3-jsonschema"
    group, _, version = o.get("apiVersion", "").rpartition("/")
    name = "%s-%s%s.json" % (o.get("kind", "").lower(),
                              group.split(".")[0] + "-" if group else "", version)
    path = os.path.join(schema_dir, name)
    if not os.path.exists(path):
        return "no vendored schema %s" % name
    schema = json.load(open(path))
    # "$schema": "http://json-schema.org/schema#" names no draft; the
    # files are OpenAPI v2 definitions made standalone, draft 4's dialect
    cls = jsonschema.Draft4Validator
    cls.check_schema(schema)
    for e in sorted(cls(schema).iter_errors(o), key=lambda e: list(e.path)):
        err(where, "schema: %s: %s" % ("/".join(map(str, e.path)), e.message))
    return None


def main(argv):
    require = len(argv) > 1 and argv[1] == "--require-schema"
    if require:
        argv = argv[1:]
    schema_dir, files = argv[1], argv[2:]
    lines, skipped = [], set()
    for f in files:
        for i, o in enumerate(yaml.safe_load_all(open(f))):
            where = "%s[%d]" % (os.path.basename(f), i)
            if not isinstance(o, dict):
                err(where, "not an object")
                continue
            kind = (o.get("apiVersion"), o.get("kind"))
            if kind == ("apps/v1", "DaemonSet"):
                lines += check_daemonset(o, where)
            elif kind == ("v1", "Namespace"):
                need(o, "metadata.name", where)
            else:
                err(where, "unexpected %s %s" % kind)
            why = schema_check(o, schema_dir, where)
            if why and require:
                err(where, "not validated: %s" % why)
            elif why:
                skipped.add(why)
    for s in sorted(skipped):
        print("note: schema validation skipped: %s" % s, file=sys.stderr)
    for e in errors:
        print("FAIL %s" % e, file=sys.stderr)
    for l in lines:
        print(l)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
