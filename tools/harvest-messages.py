#!/usr/bin/env python3
"""Find where the kb's error signatures come from in framework source trees.

  tools/harvest-messages.py [--kb FILE] [--update] TREE...

Each TREE is a checked-out source tree (PyTorch, llama.cpp, ollama, NCCL,
JAX, vLLM, CTranslate2, ONNX Runtime, compute-runtime ...). For every
signature of the kb, the script looks in every text file of the trees for
the signature's literals and for the fixed text of its regex alternatives
(format strings in sources hold the words, not the numbers), and prints one
line per hit:

  signature-id <TAB> tree-relative-path:line <TAB> the source line

Then, for every signature `origin` entry that names a `file`, it says
whether that file was found and on which line the message is now
("origin ok", "origin moved: kb says N, tree has M", "origin not found").
With --update the kb's `line` values of moved origins are rewritten in place
(one signature per line, as the kb file is kept). Nothing else in the kb is
changed: versions and sources stay a person's judgement.
"""
import argparse
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
KB = os.path.join(os.path.dirname(HERE), "src", "kb", "gpudoctor-kb.json")
EXTS = (".c", ".cc", ".cpp", ".cu", ".h", ".hpp", ".cuh", ".m", ".mm", ".go",
        ".py", ".rs", ".metal", ".txt", ".md", ".rst", ".java", ".cs", ".js")


def fixed_runs(regex):
    """The longest run of plain text in each top-level alternative."""
    out = []
    for alt in re.split(r"(?<!\\)\|", regex):
        text = re.sub(r"\\(.)", r"\1", alt)
        runs = re.split(r"[][()*+?{}^$.|]", text)
        best = max(runs, key=len) if runs else ""
        if len(best) >= 12:
            out.append(best.strip())
    return out


def needles(sig):
    n = [x for x in sig.get("literals", []) if len(x) >= 8]
    return sorted(set(n + fixed_runs(sig.get("regex", ""))), key=len,
                  reverse=True)


def walk(tree):
    for root, dirs, files in os.walk(tree):
        dirs[:] = [d for d in dirs if not d.startswith(".") and
                   d not in ("third_party", "node_modules", "build")]
        for f in files:
            if f.endswith(EXTS):
                p = os.path.join(root, f)
                try:
                    if os.path.getsize(p) < 4 << 20:
                        yield p
                except OSError:
                    pass


def scan(trees, sigs):
    hits = {}  # id -> [(relpath, line, text)]
    table = [(s["id"], needles(s)) for s in sigs]
    for tree in trees:
        for path in walk(tree):
            try:
                text = open(path, encoding="utf-8", errors="replace").read()
            except OSError:
                continue
            rel = os.path.relpath(path, tree)
            for sid, ns in table:
                if not any(n in text for n in ns):
                    continue
                for i, line in enumerate(text.split("\n"), 1):
                    if any(n in line for n in ns):
                        hits.setdefault(sid, []).append((rel, i, line.strip()))
    return hits


def check_origins(sigs, hits):
    moves = {}  # (id, k) -> new line
    for s in sigs:
        for k, o in enumerate(s.get("origin", [])):
            f = o.get("file")
            if not f:
                continue
            found = [h for h in hits.get(s["id"], [])
                     if h[0].replace(os.sep, "/").endswith(f)]
            if not found:
                print("%s\torigin not found\t%s" % (s["id"], f))
                continue
            lines = [h[1] for h in found]
            if o.get("line") in lines:
                print("%s\torigin ok\t%s:%d" % (s["id"], f, o["line"]))
            else:
                print("%s\torigin moved: kb says %s, tree has %s\t%s" %
                      (s["id"], o.get("line"), lines[0], f))
                if "line" in o:
                    moves[(s["id"], k)] = lines[0]
    return moves


def update(kb_path, moves):
    out = []
    for line in open(kb_path, encoding="utf-8").read().split("\n"):
        if line.startswith('{"id": "'):
            o = json.loads(line.rstrip(","))
            changed = False
            for k, org in enumerate(o.get("origin", [])):
                if (o["id"], k) in moves:
                    org["line"] = moves[(o["id"], k)]
                    changed = True
            if changed:
                line = json.dumps(o, ensure_ascii=False) + (
                    "," if line.endswith(",") else "")
        out.append(line)
    open(kb_path, "w", encoding="utf-8").write("\n".join(out))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kb", default=KB)
    ap.add_argument("--update", action="store_true")
    ap.add_argument("trees", nargs="+")
    a = ap.parse_args()
    for t in a.trees:
        if not os.path.isdir(t):
            sys.exit("harvest-messages: %s is not a directory" % t)
    sigs = json.load(open(a.kb, encoding="utf-8"))["signatures"]
    hits = scan(a.trees, sigs)
    for s in sigs:
        for rel, i, text in hits.get(s["id"], []):
            print("%s\t%s:%d\t%s" % (s["id"], rel, i, text[:160]))
    moves = check_origins(sigs, hits)
    if a.update and moves:
        update(a.kb, moves)
        print("updated %d origin line(s) in %s" % (len(moves), a.kb))
    return 0


if __name__ == "__main__":
    sys.exit(main())
