"""detect(): the brief verdict (`gpudoctor --json check --brief`) as
dataclasses. Never raises: a missing or broken program, or a broken GPU
stack, is a Detection whose error says why, and the app uses the CPU.

The lines are for the app's user; why gpudoctor gave no answer (a hint for
the developer, such as "set GPUDOCTOR_BIN") is in Detection.error and
logged to the "gpudoctor" logger, never in the lines."""
import logging
import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Union

from ._errors import GpudoctorError
from ._frameworks import for_gpu
from ._run import run_json
from ._types import Frameworks, Workaround

CPU_LINE = "No supported GPU found — CPU mode"
log = logging.getLogger("gpudoctor")


@dataclass(frozen=True)
class Gpu:
    index: int
    name: str
    vendor: str            # "amd", "nvidia", "intel"
    target: Optional[str]  # "gfx1010", "sm_90"
    status: str            # works, workaround, needs-setup, unsupported, ...
    usable: bool           # works now, or with a known workaround
    backend: str           # "ROCm", "CUDA", "Vulkan", "CPU"
    reason: str            # gpudoctor's words on why (or the workaround)
    guide: str             # section of `gpudoctor guide --vendor ...`
    line: str              # the onboarding line to show
    frameworks: Frameworks  # torch / ctranslate2 / llama.cpp device names
    workaround: Optional[Workaround] = None  # what to apply, as data

    @property
    def torch_device(self) -> str:
        return self.frameworks.torch.device


@dataclass(frozen=True)
class Detection:
    gpus: List[Gpu] = field(default_factory=list)
    cpu_only: bool = True
    lines: List[str] = field(default_factory=lambda: [CPU_LINE])
    exit_code: Optional[int] = None
    error: Optional[str] = None   # why gpudoctor gave no answer (developer)
    error_kind: Optional[str] = None  # the GpudoctorError subclass's name

    def best(self) -> Optional[Gpu]:
        """The first GPU an app can use now (works before workaround)."""
        for want in ("works", "workaround"):
            for g in self.gpus:
                if g.usable and g.status == want:
                    return g
        return None


def _gpu(o: Dict[str, Any], seen: Dict[str, int]) -> Gpu:
    backend = str(o["backend"])
    ordinal = seen.get(backend, 0)
    seen[backend] = ordinal + 1
    fw, wa = for_gpu(o, ordinal)
    return Gpu(index=int(o["index"]), name=str(o["name"]),
               vendor=str(o["vendor"]), target=o.get("target"),
               status=str(o["status"]), usable=bool(o["usable"]),
               backend=backend, reason=str(o.get("reason", "")),
               guide=str(o.get("guide", "")), line=str(o.get("line", "")),
               frameworks=fw, workaround=wa)


def from_brief(doc: Dict[str, Any]) -> Detection:
    """A Detection from a parsed `check --brief --json` document."""
    seen: Dict[str, int] = {}
    gpus = [_gpu(o, seen) for o in doc.get("gpus", [])]
    lines = [str(x) for x in doc.get("lines", [])] or [g.line for g in gpus]
    return Detection(gpus=gpus, cpu_only=bool(doc.get("cpu_only", not gpus)),
                     lines=lines or [CPU_LINE],
                     exit_code=doc.get("exit_code"))


def detect(root: Optional[Union[str, "os.PathLike[str]"]] = None,
           timeout: float = 20.0, probes: bool = False,
           binary: Optional[Union[str, "os.PathLike[str]"]] = None
           ) -> Detection:
    """What gpudoctor says about this machine (or a captured one, root).

    Never raises: without an answer the Detection is CPU mode, its lines
    the plain CPU line, and error/error_kind say why."""
    args = ["check", "--brief"] + ([] if probes else ["--no-probe"])
    try:
        return from_brief(run_json(args, root=root, timeout=timeout,
                                   binary=binary))
    except GpudoctorError as e:
        log.warning("%s", e)
        return Detection(error=str(e), error_kind=type(e).__name__)
    except (KeyError, TypeError, ValueError, AttributeError,
            RecursionError) as e:
        log.warning("unexpected gpudoctor report: %r", e)
        return Detection(error="unexpected gpudoctor report: %r" % (e,),
                         error_kind="BadOutputError")
