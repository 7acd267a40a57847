"""Finding and running the gpudoctor program, with a time limit."""
import json
import os
import shutil
import subprocess
import sys


class GpudoctorError(Exception):
    """gpudoctor is missing, timed out, or gave no usable report."""


def _packaged():
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin")
    for name in ("gpudoctor.exe", "gpudoctor") if sys.platform == "win32" \
            else ("gpudoctor",):
        p = os.path.join(here, name)
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return None


def find_binary():
    """GPUDOCTOR_BIN, then the copy shipped inside this package, then PATH;
    None when there is none."""
    env = os.environ.get("GPUDOCTOR_BIN")
    if env:
        return env
    return _packaged() or shutil.which("gpudoctor")


def run_json(args, root=None, timeout=60.0, binary=None):
    """Run `gpudoctor --json [--root R] ARGS` and return the parsed object.

    gpudoctor's exit codes 0-2 are verdicts (works, not usable, no GPU),
    not failures; 3 and anything else is an error."""
    exe = binary or find_binary()
    if not exe:
        raise GpudoctorError("gpudoctor program not found (set GPUDOCTOR_BIN "
                             "or put gpudoctor on PATH)")
    cmd = [exe, "--json", "--color=never"]
    if root is not None:
        cmd += ["--root", str(root)]
    cmd += list(args)
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise GpudoctorError("gpudoctor took longer than %gs" % timeout) from None
    except OSError as e:
        raise GpudoctorError("cannot run %s: %s" % (exe, e)) from None
    err = p.stderr.decode("utf-8", "replace").strip()
    if p.returncode not in (0, 1, 2):
        why = err.splitlines()[-1] if err else "no message"
        raise GpudoctorError("gpudoctor exited with status %d: %s"
                             % (p.returncode, why))
    try:
        doc = json.loads(p.stdout.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise GpudoctorError("gpudoctor gave no JSON report: %s" % e) from None
    if not isinstance(doc, dict):
        raise GpudoctorError("gpudoctor's report is not a JSON object")
    return doc
