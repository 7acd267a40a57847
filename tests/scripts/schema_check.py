"""Validate JSON documents against gpudoctor's schemas (docs/schema/).

usage: schema_check.py SCHEMA_DIR [--expect-invalid] [--schema NAME] FILE...

Each FILE is validated against the schema its "$schema" key names (or
--schema NAME, e.g. kb-file.json, for documents without one). Every schema
is first checked against the JSON Schema 2020-12 meta-schema. Exit 0 when
every FILE passes (or, with --expect-invalid, when every FILE is rejected).
Works with jsonschema 4.10 (Debian 12's python3-jsonschema) and newer.
"""
import json
import os
import sys

import jsonschema
from jsonschema import Draft202012Validator


def load_schemas(d):
    out = {}
    for name in sorted(os.listdir(d)):
        if name.endswith(".json"):
            with open(os.path.join(d, name), encoding="utf-8") as f:
                s = json.load(f)
            Draft202012Validator.check_schema(s)
            out[s["$id"]] = (name, s)
    return out


def validator_factory(schemas):
    try:  # jsonschema >= 4.18
        from referencing import Registry, Resource
        reg = Registry().with_resources(
            (i, Resource.from_contents(s)) for i, (_, s) in schemas.items())
        return lambda s: Draft202012Validator(s, registry=reg)
    except ImportError:
        store = {i: s for i, (_, s) in schemas.items()}
        return lambda s: Draft202012Validator(
            s, resolver=jsonschema.RefResolver.from_schema(s, store=store))


def main(argv):
    d, args = argv[1], argv[2:]
    expect_invalid = "--expect-invalid" in args
    args = [a for a in args if a != "--expect-invalid"]
    forced = None
    if args[:1] == ["--schema"]:
        forced, args = args[1], args[2:]
    schemas = load_schemas(d)
    by_name = {n: s for n, s in schemas.values()}
    make = validator_factory(schemas)
    bad = 0
    for path in args:
        try:
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
            if forced:
                schema = by_name[forced]
            else:
                sid = doc.get("$schema") if isinstance(doc, dict) else None
                if sid not in schemas:
                    raise ValueError("no schema for $schema %r" % (sid,))
                schema = schemas[sid][1]
            errs = sorted(make(schema).iter_errors(doc), key=lambda e: list(e.path))
        except Exception as e:  # unreadable, not JSON, unknown $schema
            errs = [e]
        if expect_invalid:
            if not errs:
                print("FAIL %s: accepted, but it is broken on purpose" % path)
                bad += 1
            else:
                print("ok %s rejected: %s" % (os.path.basename(path),
                                              getattr(errs[0], "message", errs[0])))
        elif errs:
            bad += 1
            for e in errs[:5]:
                where = "/".join(str(p) for p in getattr(e, "absolute_path", []))
                print("FAIL %s: at /%s: %s" % (path, where, getattr(e, "message", e)))
    try:
        from importlib.metadata import version
        ver = version("jsonschema")
    except Exception:
        ver = "?"
    print("schema: %d documents, %d failures (jsonschema %s)" % (len(args), bad, ver))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
