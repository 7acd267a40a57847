"""Finding and running the gpudoctor program, with a time limit.

gpudoctor runs in a process group (POSIX: a session) of its own. On a
timeout it gets SIGTERM first, which it handles by ending its probe
children's process groups (helpers a GPU runtime forked included), and
after a grace period the whole group gets SIGKILL. Output is read with a
size cap, so a program that floods its standard output cannot grow this
process without bound."""
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from typing import Dict, List, Optional, Sequence, Union, Any

from ._errors import (BadOutputError, ExitStatusError, GpudoctorError,
                      ProgramNotFoundError, GpudoctorTimeoutError)

PathLike = Union[str, "os.PathLike[str]"]

#: The most bytes of standard output read from gpudoctor (a check report of
#: a 16-GPU machine is well under 1 MiB).
MAX_OUTPUT = 64 << 20
#: The most bytes of standard error kept (for messages).
MAX_STDERR = 1 << 20
#: Seconds gpudoctor has, after SIGTERM, to end its probes before SIGKILL.
TERM_GRACE = 2.0

NOT_FOUND = ("gpudoctor program not found (set GPUDOCTOR_BIN or put "
             "gpudoctor on PATH)")


def _exe_names() -> Sequence[str]:
    return ("gpudoctor.exe", "gpudoctor") if sys.platform == "win32" \
        else ("gpudoctor",)


def packaged_binary(here: Optional[str] = None) -> Optional[str]:
    """The program shipped inside this package (gpudoctor/bin/), if any."""
    d = os.path.join(here or os.path.dirname(os.path.abspath(__file__)),
                     "bin")
    for name in _exe_names():
        p = os.path.join(d, name)
        if os.path.isfile(p) and (sys.platform == "win32"
                                  or os.access(p, os.X_OK)):
            return p
    return None


def find_binary() -> Optional[str]:
    """GPUDOCTOR_BIN, then the copy shipped inside this package (a wheel
    built by `make wheel`), then PATH; None when there is none."""
    env = os.environ.get("GPUDOCTOR_BIN")
    if env:
        return env
    return packaged_binary() or shutil.which("gpudoctor")


class _Reader(threading.Thread):
    """Reads a pipe into memory up to cap bytes; sets over past it."""

    def __init__(self, pipe: Any, cap: int) -> None:
        super().__init__(daemon=True)
        self.pipe, self.cap = pipe, cap
        self.chunks: List[bytes] = []
        self.size = 0
        self.over = False

    def run(self) -> None:
        try:
            while True:
                b = self.pipe.read1(65536) if hasattr(self.pipe, "read1") \
                    else self.pipe.read(65536)
                if not b:
                    return
                if self.size + len(b) > self.cap:
                    self.over = True  # stop reading: the writer blocks
                    return
                self.chunks.append(b)
                self.size += len(b)
        except (OSError, ValueError):
            return

    def data(self) -> bytes:
        return b"".join(self.chunks)


def _popen(cmd: List[str]) -> "subprocess.Popen[bytes]":
    kw: Dict[str, Any] = {}
    if sys.platform == "win32":
        kw["creationflags"] = getattr(subprocess,
                                      "CREATE_NEW_PROCESS_GROUP", 0)
    else:
        kw["start_new_session"] = True
    return subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            **kw)


def _signal_group(p: "subprocess.Popen[bytes]", sig: int) -> None:
    try:
        os.killpg(p.pid, sig)  # gpudoctor leads its own session
    except (ProcessLookupError, PermissionError):
        pass


def stop(p: "subprocess.Popen[bytes]", grace: float = TERM_GRACE) -> None:
    """End gpudoctor: SIGTERM (it then ends its probes), SIGKILL to its
    whole process group after grace seconds; reaped on return."""
    if sys.platform == "win32":
        p.kill()
        p.wait()
        return
    _signal_group(p, signal.SIGTERM)
    try:
        p.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        pass
    _signal_group(p, signal.SIGKILL)  # what is left of the group
    p.wait()


def _wait(p: "subprocess.Popen[bytes]", out: _Reader,
          deadline: float) -> str:
    """'' when p exited in time; else 'timeout' or 'flood'."""
    while True:
        if out.over:
            return "flood"
        left = deadline - time.monotonic()
        if left <= 0:
            return "timeout"
        try:
            p.wait(timeout=min(0.05, left))
            return ""
        except subprocess.TimeoutExpired:
            continue


def run_raw(args: Sequence[str], root: Optional[PathLike] = None,
            timeout: float = 60.0, binary: Optional[PathLike] = None,
            json_flag: bool = True) -> "subprocess.CompletedProcess[bytes]":
    """Run `gpudoctor [--json] [--root R] ARGS` with a deadline and output
    caps. Raises ProgramNotFoundError, GpudoctorTimeoutError or
    BadOutputError."""
    exe = os.fspath(binary) if binary else find_binary()
    if not exe:
        raise ProgramNotFoundError(NOT_FOUND)
    cmd = [exe] + (["--json"] if json_flag else []) + ["--color=never"]
    if root is not None:
        cmd += ["--root", os.fspath(root)]
    cmd += list(args)
    try:
        p = _popen(cmd)
    except OSError as e:
        raise ProgramNotFoundError("cannot run %s: %s" % (exe, e)) from None
    out, err = _Reader(p.stdout, MAX_OUTPUT), _Reader(p.stderr, MAX_STDERR)
    out.start()
    err.start()
    why = _wait(p, out, time.monotonic() + timeout)
    if why:
        stop(p)
    elif sys.platform != "win32":
        _signal_group(p, signal.SIGKILL)  # leftovers holding the pipes
    out.join(1.0)
    err.join(1.0)
    for f in (p.stdout, p.stderr):
        try:
            f.close()
        except OSError:
            pass
    if why == "timeout":
        raise GpudoctorTimeoutError("gpudoctor took longer than %gs"
                                    % timeout)
    if why == "flood" or out.over:
        raise BadOutputError("gpudoctor wrote more than %d bytes"
                             % MAX_OUTPUT)
    return subprocess.CompletedProcess(cmd, p.returncode, out.data(),
                                       err.data())


def run_json(args: Sequence[str], root: Optional[PathLike] = None,
             timeout: float = 60.0,
             binary: Optional[PathLike] = None) -> Dict[str, Any]:
    """Run `gpudoctor --json [--root R] ARGS` and return the parsed object.

    gpudoctor's exit codes 0-2 are verdicts (works, not usable, no GPU),
    not failures; 3 and anything else raise ExitStatusError."""
    p = run_raw(args, root=root, timeout=timeout, binary=binary)
    err = p.stderr.decode("utf-8", "replace").strip()
    if p.returncode not in (0, 1, 2):
        why = err.splitlines()[-1] if err else "no message"
        raise ExitStatusError(p.returncode, why)
    try:
        doc = json.loads(p.stdout.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise BadOutputError("gpudoctor gave no JSON report: %s"
                             % (str(e)[:200] or type(e).__name__)) from None
    if not isinstance(doc, dict):
        raise BadOutputError("gpudoctor's report is not a JSON object")
    return doc
