"""Ask gpudoctor whether this machine's GPU can run ML work.

A thin, pure-Python wrapper around the gpudoctor program (issue #13): apps
call detect() at start-up and show its lines to their users. Nothing here
loads a GPU runtime; gpudoctor itself runs any probe in supervised children.
"""
from ._run import (GpudoctorError, find_binary, run_json)
from ._detect import Detection, Gpu, detect
from ._dll import dll_directories_from_report

__all__ = ["Detection", "Gpu", "GpudoctorError", "check", "detect",
           "dll_directories", "find_binary"]
__version__ = "0.1.0"


def check(root=None, timeout=60.0, probes=True, binary=None):
    """The full `gpudoctor --json check` report as a dict.

    Raises GpudoctorError when the program is missing, times out or gives
    no report (detect() never raises)."""
    args = ["check"] + ([] if probes else ["--no-probe"])
    return run_json(args, root=root, timeout=timeout, binary=binary)


def dll_directories(report=None, root=None, timeout=60.0, binary=None):
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
    return dll_directories_from_report(report)
