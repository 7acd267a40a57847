#!/usr/bin/env python3
"""A strict parser for the Prometheus text exposition format, as specified
at prometheus.io/docs/instrumenting/exposition_formats: HELP/TYPE at most
once per name and TYPE before the name's first sample; metric names
[a-zA-Z_:][a-zA-Z0-9_:]*, label names [a-zA-Z_][a-zA-Z0-9_]*, label values
quoted with \\\\, \\" and \\n as the only escapes; a float value and an
optional integer timestamp; the text ends with a newline.

Usage: promtext.py FILE [--no-timestamps] [--expect NAME ...]
Prints one line per sample (name, sorted labels, value) as JSON."""
import json
import re
import sys

NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
LABEL = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")
TYPES = {"counter", "gauge", "histogram", "summary", "untyped"}


class ParseError(Exception):
    pass


def _labels(s, i, lineno):
    """Parse {a="x",b="y"} from s[i] == '{'; returns (dict, index after)."""
    out, i = {}, i + 1
    while True:
        if s[i] == "}":
            return out, i + 1
        m = LABEL.match(s, i)
        if not m or s[m.end():m.end() + 2] != '="':
            raise ParseError("line %d: bad label at %r" % (lineno, s[i:]))
        name, i, val = m.group(), m.end() + 2, []
        while s[i] != '"':
            if s[i] == "\\":
                esc = s[i + 1]
                if esc not in '\\"n':
                    raise ParseError("line %d: bad escape \\%s" % (lineno, esc))
                val.append("\n" if esc == "n" else esc)
                i += 2
            else:
                val.append(s[i])
                i += 1
        if name in out:
            raise ParseError("line %d: label %s twice" % (lineno, name))
        out[name] = "".join(val)
        i += 1
        if s[i] == ",":
            i += 1
        elif s[i] != "}":
            raise ParseError("line %d: expected , or }" % lineno)


def parse(text, timestamps=True):
    if text and not text.endswith("\n"):
        raise ParseError("the text does not end with a newline")
    helps, types, seen, samples = set(), {}, set(), []
    for lineno, line in enumerate(text.split("\n")[:-1], 1):
        if not line.strip():
            continue
        if line.startswith("#"):
            parts = line.split(None, 3)
            if len(parts) >= 3 and parts[1] in ("HELP", "TYPE"):
                name = parts[2]
                if not NAME.fullmatch(name):
                    raise ParseError("line %d: bad name %r" % (lineno, name))
                if parts[1] == "HELP":
                    if name in helps:
                        raise ParseError("line %d: second HELP for %s" % (lineno, name))
                    helps.add(name)
                else:
                    if name in types or name in seen:
                        raise ParseError("line %d: TYPE for %s late or twice" % (lineno, name))
                    if len(parts) < 4 or parts[3] not in TYPES:
                        raise ParseError("line %d: bad TYPE" % lineno)
                    types[name] = parts[3]
            continue
        m = NAME.match(line)
        if not m:
            raise ParseError("line %d: bad metric name: %r" % (lineno, line))
        name, i, labels = m.group(), m.end(), {}
        try:
            if i < len(line) and line[i] == "{":
                labels, i = _labels(line, i, lineno)
        except IndexError:
            raise ParseError("line %d: unterminated labels" % lineno) from None
        rest = line[i:].split()
        if not rest or len(rest) > 2 or (len(rest) == 2 and not timestamps):
            raise ParseError("line %d: expected value [timestamp]" % lineno)
        try:
            value = float(rest[0])
            if len(rest) == 2:
                int(rest[1])
        except ValueError:
            raise ParseError("line %d: bad number in %r" % (lineno, line)) from None
        seen.add(name)
        samples.append((name, labels, value))
    return samples, types


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    text = open(argv[1], encoding="utf-8").read()
    args = argv[2:]
    try:
        samples, _ = parse(text, timestamps="--no-timestamps" not in args)
    except ParseError as e:
        print("exposition format error: %s" % e)
        return 1
    names = {s[0] for s in samples}
    if "--expect" in args:
        missing = [n for n in args[args.index("--expect") + 1:] if n not in names]
        if missing:
            print("missing metrics: %s" % ", ".join(missing))
            return 1
    for name, labels, value in samples:
        print(json.dumps([name, dict(sorted(labels.items())), value]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
