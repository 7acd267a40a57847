"""Ask gpudoctor whether this machine's GPU can run ML work.

A thin, pure-Python wrapper around the gpudoctor program (issue #13): apps
call detect() at start-up and show its lines to their users. Nothing here
loads a GPU runtime; gpudoctor itself runs any probe in supervised children.

The program is looked for at GPUDOCTOR_BIN, then inside this package (the
wheels `make wheel` builds carry it in gpudoctor/bin/), then on PATH.
"""
import os
import tempfile
from typing import List, Optional, Union

from ._errors import (BadOutputError, ExitStatusError, GpudoctorError,
                      ProgramNotFoundError, GpudoctorTimeoutError)
from ._run import find_binary, run_json, run_raw
from ._detect import CPU_LINE, Detection, Gpu, detect, from_brief
from ._dll import dll_directories_from_report
from ._types import (BriefJSON, CheckReport, CTranslate2Device, EnvReport,
                     EnvVar, ExplainReport, Frameworks, LlamaCppDevice,
                     TorchDevice, Workaround)

__all__ = ["BadOutputError", "BriefJSON", "CPU_LINE", "CTranslate2Device",
           "CheckReport", "Detection", "EnvReport", "EnvVar",
           "ExitStatusError", "ExplainReport", "Frameworks", "Gpu", "GpudoctorError",
           "GpudoctorTimeoutError", "LlamaCppDevice", "ProgramNotFoundError",
           "TorchDevice", "Workaround", "brief", "check", "detect",
           "dll_directories", "env", "explain", "find_binary", "from_brief"]
__version__ = "0.1.0"

Path = Union[str, "os.PathLike[str]"]


def check(root: Optional[Path] = None, timeout: float = 60.0,
          probes: bool = True, binary: Optional[Path] = None
          ) -> CheckReport:
    """The full `gpudoctor --json check` report (docs/schema/check.json).

    Raises ProgramNotFoundError, GpudoctorTimeoutError, ExitStatusError or
    BadOutputError, all GpudoctorError (detect() never raises)."""
    args = ["check"] + ([] if probes else ["--no-probe"])
    return run_json(args, root=root, timeout=timeout,
                    binary=binary)  # type: ignore[return-value]


def brief(root: Optional[Path] = None, timeout: float = 20.0,
          probes: bool = False, binary: Optional[Path] = None) -> BriefJSON:
    """The `gpudoctor --json check --brief` document as gpudoctor wrote it
    (docs/schema/check-brief.json); raises as check() does."""
    args = ["check", "--brief"] + ([] if probes else ["--no-probe"])
    return run_json(args, root=root, timeout=timeout,
                    binary=binary)  # type: ignore[return-value]


def env(profile: Optional[str] = None, root: Optional[Path] = None,
        timeout: float = 20.0, binary: Optional[Path] = None) -> EnvReport:
    """`gpudoctor --json env`: the saved workaround profile for this GPU
    (docs/schema/env.json; "profile" is null until `gpudoctor try --save`
    found one: the brief's Gpu.workaround is there before). Raises as
    check() does."""
    args = ["env"] + (["--profile", profile] if profile else [])
    return run_json(args, root=root, timeout=timeout,
                    binary=binary)  # type: ignore[return-value]


def dll_directories(report: Optional[CheckReport] = None,
                    root: Optional[Path] = None, timeout: float = 60.0,
                    binary: Optional[Path] = None) -> List[str]:
    """Directories a Windows app passes to os.add_dll_directory() before
    importing CTranslate2: the HIP SDK bin directory that matches the
    driver's HIP runtime. [] on Linux, and whenever gpudoctor cannot tell
    (never raises)."""
    if report is None:
        try:
            report = check(root=root, timeout=timeout, probes=False,
                           binary=binary)
        except GpudoctorError:
            return []
    try:
        return dll_directories_from_report(report)
    except (RecursionError, ValueError):
        return []


def explain(log: Union[str, bytes], cmd: Optional[str] = None,
            root: Optional[Path] = None, timeout: float = 20.0,
            binary: Optional[Path] = None) -> ExplainReport:
    """`gpudoctor --json explain` on an error an app caught (a traceback, a
    runtime's message, a child's output): docs/schema/explain.json.

    Each of report["matches"] says what the line means, its "causes" (kb
    cause codes with their text, likeliest first: an app can act on the
    code) and the "fix"; "codes" decodes the runtime error codes it names.
    cmd names the program that failed, for a fix that speaks of it. A text
    nothing known matches gives a report without matches (explain's exit 1
    is a verdict). Raises as check() does."""
    data = log.encode("utf-8", "replace") if isinstance(log, str) else log
    # a file, not stdin: the runner gives gpudoctor no stdin, and Windows
    # cannot reopen a file still open here
    fd, path = tempfile.mkstemp(prefix="gpudoctor-", suffix=".log")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        args = ["explain"] + (["--cmd", cmd] if cmd else []) + [path]
        return run_json(args, root=root, timeout=timeout,
                        binary=binary)  # type: ignore[return-value]
    finally:
        try:
            os.unlink(path)
        except OSError:
            pass
