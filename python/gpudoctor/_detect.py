"""detect(): the brief verdict (`gpudoctor --json check --brief`) as
dataclasses. Never raises: a missing or broken program, or a broken GPU
stack, is a Detection whose error says why, and the app uses the CPU."""
from dataclasses import dataclass, field
from typing import List, Optional

from ._run import GpudoctorError, run_json

CPU_LINE = "No supported GPU found — CPU mode"


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


@dataclass(frozen=True)
class Detection:
    gpus: List[Gpu] = field(default_factory=list)
    cpu_only: bool = True
    lines: List[str] = field(default_factory=lambda: [CPU_LINE])
    exit_code: Optional[int] = None
    error: Optional[str] = None   # why gpudoctor gave no answer

    def best(self) -> Optional[Gpu]:
        """The first GPU an app can use now (works before workaround)."""
        for want in ("works", "workaround"):
            for g in self.gpus:
                if g.usable and g.status == want:
                    return g
        return None


def _gpu(o):
    return Gpu(index=int(o["index"]), name=str(o["name"]),
               vendor=str(o["vendor"]), target=o.get("target"),
               status=str(o["status"]), usable=bool(o["usable"]),
               backend=str(o["backend"]), reason=str(o.get("reason", "")),
               guide=str(o.get("guide", "")), line=str(o.get("line", "")))


def detect(root=None, timeout=20.0, probes=False, binary=None) -> Detection:
    """What gpudoctor says about this machine (or a captured one, root)."""
    args = ["check", "--brief"] + ([] if probes else ["--no-probe"])
    try:
        doc = run_json(args, root=root, timeout=timeout, binary=binary)
        gpus = [_gpu(o) for o in doc.get("gpus", [])]
        lines = [str(x) for x in doc.get("lines", [])] or [g.line for g in gpus]
        return Detection(gpus=gpus, cpu_only=bool(doc.get("cpu_only", not gpus)),
                         lines=lines or [CPU_LINE],
                         exit_code=doc.get("exit_code"))
    except GpudoctorError as e:
        return Detection(error=str(e),
                         lines=["%s (%s)" % (CPU_LINE, e)])
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        return Detection(error="unexpected gpudoctor report: %r" % (e,),
                         lines=["%s (unexpected gpudoctor report)" % CPU_LINE])
