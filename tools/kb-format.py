#!/usr/bin/env python3
"""Keeps src/kb/gpudoctor-kb.json reviewable line by line: every line at
most MAX characters. The file is written one entry per line; an entry too
long for one line is spread out, one member (object) or element (array)
per line, recursively, as far as needed. Lines that fit are left as they
are, so the diff of a change is the lines it touches. The JSON value is
unchanged (checked before writing); tools/kbgen.c re-serialises it compact
at build time, whatever the layout.

usage: tools/kb-format.py [--check] [FILE]   (default src/kb/gpudoctor-kb.json)
--check: exit 1 and name the lines over MAX instead of rewriting.
Either way an unparsable FILE, or one that gives a key twice in an object,
is an error (exit 1)."""
import json
import os
import sys

MAX = 1000
WIDTH = 400  # a spread-out entry's lines aim at this width


def dump(v):
    return json.dumps(v, ensure_ascii=False)


def spread(v, indent):
    """v as lines, each under WIDTH where a member allows."""
    pad = "  " * indent
    if not isinstance(v, (dict, list)) or len(pad) + len(dump(v)) <= WIDTH:
        return [dump(v)]
    if isinstance(v, dict):
        items = [(dump(k) + ": ", x) for k, x in v.items()]
        open_, close = "{", "}"
    else:
        items = [("", x) for x in v]
        open_, close = "[", "]"
    out = [open_]
    inner = "  " * (indent + 1)
    for i, (head, x) in enumerate(items):
        sub = spread(x, indent + 1)
        sub[0] = inner + head + sub[0]
        if i + 1 < len(items):
            sub[-1] += ","
        out.extend(sub)
    out.append(pad + close)
    return out


def reformat_line(line):
    """A too-long line '"key": VALUE,' or 'VALUE,' spread out."""
    body = line.rstrip("\n")
    comma = body.endswith(",")
    if comma:
        body = body[:-1]
    try:
        obj = json.loads("{" + body + "}")
        (key, val), = obj.items()
        head = dump(key) + ": "
    except (ValueError, TypeError):
        val = json.loads(body)
        head = ""
    lines = spread(val, 0)
    lines[0] = head + lines[0]
    if comma:
        lines[-1] += ","
    return [l + "\n" for l in lines]


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    path = args[0] if args else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "src", "kb",
        "gpudoctor-kb.json")
    with open(path, encoding="utf-8") as f:
        lines = f.readlines()
    long_ = [i + 1 for i, l in enumerate(lines) if len(l.rstrip("\n")) > MAX]
    dups = []

    def no_dups(pairs):
        seen = set()
        for k, _ in pairs:
            if k in seen:
                dups.append(k)
            seen.add(k)
        return dict(pairs)
    try:
        value = json.loads("".join(lines), object_pairs_hook=no_dups)
    except ValueError as e:
        # Long lines are only this tool's business, but a check that passes
        # an unparsable kb sends its author to the build to find out.
        print("%s: not valid JSON: %s" % (path, e))
        return 1
    if dups:
        # JSON keeps the last of two equal keys: two helpers adding the same
        # source id would silently lose one entry's text.
        print("%s: key given twice: %s" % (path, ", ".join(sorted(set(dups)))))
        return 1
    if check:
        for n in long_:
            print("%s:%d: %d characters (at most %d)"
                  % (path, n, len(lines[n - 1].rstrip("\n")), MAX))
        return 1 if long_ else 0
    out = []
    for l in lines:
        out.extend(reformat_line(l) if len(l.rstrip("\n")) > MAX else [l])
    text = "".join(out)
    if json.loads(text) != value:
        print("kb-format: the value would change; nothing written",
              file=sys.stderr)
        return 1
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
