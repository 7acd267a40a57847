#!/usr/bin/env python3
"""Measure `gpudoctor explain` on the held-out real-log corpus.

tests/fixtures/explain-corpus/INDEX.tsv lists real logs from public threads
(file, thread URL, the cause the thread established, a note). Each log goes to
the "train" half or the "held-out" half by its thread: the first hex digit of
sha256(URL without its #fragment), even = train, odd = held-out. The split is
fixed by the URL alone, so a thread's logs stay together and nobody chooses.
Signatures may be written from train logs only; held-out logs only measure.

explain's top cause is its first match's first cause: explain lists matches
in the order it ranks them, and each match's "causes" (kb cause codes,
docs/kb.md) likeliest first: the one the log's other lines point to (the
evidence's alternative), then the signature's own. INDEX.tsv's cause column
uses the same codes (the kb's "causes"). A log is
  right     the top match's first cause is the thread's cause
  hedged    a later cause of the top match is the thread's cause
  wrong     the top match names other causes only (a confident wrong one)
  none      no signature matched
  unmapped  the top match names no cause (a kb without "causes")

  bench/explain-corpus.py [--gpudoctor build/gpudoctor] [--corpus DIR] [-v]
      [--check-floor]   (fail unless train is all right with none wrong and
                         held-out is at or above the floor in README.md)

A held-out log whose thread the kb cites as a source, or whose thread gave a
signature fixture (tests/fixtures/logs/INDEX.tsv), is not held out: a
signature was written from it. It is counted apart ("cited") and in neither
half's figures (ROCm/ROCm and ROCm/legacy-rocm-build are one tracker, and an
issue and a pull request of one number are one thread). So is a held-out log
that someone writing signatures opened: README.md lists it on a
"held-out-seen: FILE (why)" line, and it no longer measures anything.

A train log may be hedged instead of right only where README.md lists it on
a "train-hedged: FILE (why)" line: the same message as other train logs, a
cause the thread established that its text cannot tell apart, and a
signature that names both causes.
"""
import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def split_of(url):
    h = hashlib.sha256(url.split("#")[0].encode()).hexdigest()
    return "train" if int(h[0], 16) % 2 == 0 else "held-out"


def thread_key(url):
    """One key per thread: the URL without fragment, case or trailing '/',
    /pull/ as /issues/, ROCm's renamed trackers as one."""
    u = (url or "").split("#")[0].rstrip("/").lower().replace("/pull/",
                                                              "/issues/")
    for old in ("rocm/legacy-rocm-build", "radeonopencompute/rocm"):
        u = u.replace("github.com/" + old + "/", "github.com/rocm/rocm/")
    return u


def read_kb():
    with open(os.path.join(ROOT, "src", "kb", "gpudoctor-kb.json"),
              encoding="utf-8") as f:
        return json.load(f)


def cited_threads(kb):
    """Threads a signature was written from: the kb's sources and the
    signature fixtures' threads."""
    keys = set(thread_key(src.get("url"))
               for src in kb.get("sources", {}).values())
    with open(os.path.join(ROOT, "tests", "fixtures", "logs", "INDEX.tsv"),
              encoding="utf-8") as f:
        for line in f:
            cols = line.split("\t")
            if not line.startswith("#") and len(cols) > 1:
                keys.add(thread_key(cols[1]))
    keys.discard("")
    return keys


def read_index(corpus):
    rows = []
    with open(os.path.join(corpus, "INDEX.tsv"), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            if len(cols) != 4:
                sys.exit("INDEX.tsv:%d: want 4 tab-separated columns" % n)
            rows.append(cols)
    return rows


def top_match(gd, root, path):
    p = subprocess.run([gd, "--root", root, "explain", "--json", path],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        doc = json.loads(p.stdout.decode("utf-8", "replace"))
    except ValueError:
        sys.exit("explain --json gave no JSON for %s (exit %d)" %
                 (path, p.returncode))
    m = doc.get("matches") or []
    if not m:
        return None
    return (m[0]["id"], [c["id"] for c in m[0].get("causes") or []])


def judge(top, expected):
    if top is None:
        return "none"
    cs = top[1]
    if not cs:
        return "unmapped"
    if cs[0] == expected:
        return "right"
    return "hedged" if expected in cs[1:] else "wrong"


def floor_of(corpus):
    txt = open(os.path.join(corpus, "README.md"), encoding="utf-8").read()
    m = re.search(r"held-out-floor: right (\d+) of (\d+), wrong at most (\d+)",
                  txt)
    if not m:
        sys.exit("README.md: no 'held-out-floor: right N of M, wrong at "
                 "most W' line")
    return int(m.group(1)), int(m.group(2)), int(m.group(3))


def listed_in_readme(corpus, key):
    """The files README.md lists on "KEY: FILE (why)" lines."""
    txt = open(os.path.join(corpus, "README.md"), encoding="utf-8").read()
    return set(re.findall(r"^ *%s: (\S+)" % key, txt, re.M))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpudoctor", default=os.path.join(ROOT, "build",
                                                        "gpudoctor"))
    ap.add_argument("--corpus", default=os.path.join(
        ROOT, "tests", "fixtures", "explain-corpus"))
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--check-floor", action="store_true")
    a = ap.parse_args()
    rows = read_index(a.corpus)
    kb = read_kb()
    causes = kb.get("causes", {})  # the codes INDEX.tsv's causes must be
    kinds = ("right", "hedged", "wrong", "none", "unmapped")
    halves = ("train", "held-out", "cited")
    tally = {s: dict.fromkeys(kinds, 0) for s in halves}
    cited = cited_threads(kb)
    fail = []
    listed = set()
    hedged_ok = listed_in_readme(a.corpus, "train-hedged")
    seen = listed_in_readme(a.corpus, "held-out-seen")
    kind_of = {}
    with tempfile.TemporaryDirectory() as root:  # an empty machine
        for file, url, cause, _ in rows:
            listed.add(file)
            path = os.path.join(a.corpus, file)
            if cause not in causes:
                fail.append("%s: cause %s is not one of the kb's causes" %
                            (file, cause))
            if not os.path.isfile(path):
                fail.append("%s: listed in INDEX.tsv but missing" % file)
                continue
            half = split_of(url)
            if half == "held-out" and (thread_key(url) in cited or
                                       file in seen):
                half = "cited"
            elif file in seen:
                fail.append("README.md: held-out-seen %s is no held-out log"
                            % file)
            top = top_match(a.gpudoctor, root, path)
            k = judge(top, cause)
            tally[half][k] += 1
            kind_of[file] = (half, k)
            if a.verbose or (k != "right" and half == "train"):
                print("%-8s %-8s %s: got %s, thread: %s" %
                      (half, k.upper(), file, top[0] if top else "-", cause))
    for f in sorted(os.listdir(a.corpus)):
        if f.endswith(".txt") and f not in listed:
            fail.append("%s: not in INDEX.tsv" % f)
    for half in halves:
        t = tally[half]
        n = sum(t.values())
        print("%-8s %3d logs: right %d (%.0f%%), hedged %d, wrong %d (%.1f%%),"
              " none %d, unmapped %d" %
              (half, n, t["right"], 100.0 * t["right"] / max(n, 1),
               t["hedged"], t["wrong"], 100.0 * t["wrong"] / max(n, 1),
               t["none"], t["unmapped"]))
    if a.check_floor:
        tr, ho = tally["train"], tally["held-out"]
        for f in sorted(hedged_ok):
            if kind_of.get(f, ("", ""))[0] != "train":
                fail.append("README.md: train-hedged %s is no train log" % f)
        bad = [f for f, (h, k) in sorted(kind_of.items()) if h == "train"
               and k != "right" and not (k == "hedged" and f in hedged_ok)]
        if bad:
            fail.append("train: %d of %d right (all must be, or hedged where "
                        "README.md says why): %s" %
                        (tr["right"], sum(tr.values()), " ".join(bad)))
        right, total, wrong = floor_of(a.corpus)
        if ho["right"] < right:
            fail.append("held-out: right %d is below the floor %d" %
                        (ho["right"], right))
        if ho["wrong"] > wrong:
            fail.append("held-out: wrong %d is above the ceiling %d" %
                        (ho["wrong"], wrong))
    for f in fail:
        print("FAIL " + f)
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
