"""Per-GPU framework device strings and the workaround, as data.

gpudoctor's brief gives, per GPU, "frameworks" (torch, ctranslate2,
llama.cpp) and "workaround" (env, dll_directories, path_prepend, note).
A gpudoctor that predates them gives neither; then, and only then, they
are DERIVED here (the FALLBACK, marked derived=True):

* frameworks from "backend": ROCm and CUDA builds of torch and CTranslate2
  both name the GPU "cuda" (torch "cuda:N"), N counting the earlier GPUs of
  the same backend; llama.cpp names it "<backend>N"; anything else is the
  CPU, with CTranslate2's compute_type "int8" and torch "float32";
* the workaround from "reason" when the status is "workaround" and the
  reason is only NAME=VALUE words (as "HSA_OVERRIDE_GFX_VERSION=10.3.0").
"""
import re
from typing import Any, Dict, List, Mapping, Optional

from ._types import (CTranslate2Device, EnvVar, Frameworks, LlamaCppDevice,
                     TorchDevice, Workaround)

_GPU_BACKENDS = ("ROCm", "CUDA")
_ASSIGN = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(\S*)$")


def _s(v: Any) -> Optional[str]:
    return v if isinstance(v, str) else None


def _i(v: Any, default: int = 0) -> int:
    return v if isinstance(v, int) and not isinstance(v, bool) else default


def frameworks_from_json(fw: Mapping[str, Any]) -> Optional[Frameworks]:
    """The brief's "frameworks" object, or None when it is not one."""
    if not isinstance(fw, Mapping):
        return None
    t = fw.get("torch") if isinstance(fw.get("torch"), Mapping) else {}
    c = fw.get("ctranslate2") \
        if isinstance(fw.get("ctranslate2"), Mapping) else {}
    ll = fw.get("llama.cpp") if isinstance(fw.get("llama.cpp"), Mapping) \
        else {}
    if not (t or c or ll):
        return None
    return Frameworks(
        torch=TorchDevice(device=_s(t.get("device")) or "cpu",
                          dtype=_s(t.get("dtype"))),
        ctranslate2=CTranslate2Device(
            device=_s(c.get("device")) or "cpu",
            device_index=_i(c.get("device_index")),
            compute_type=_s(c.get("compute_type")) or "default"),
        llama_cpp=LlamaCppDevice(backend=_s(ll.get("backend")) or "CPU",
                                 device=_s(ll.get("device"))))


def derive_frameworks(backend: str, usable: bool, ordinal: int) -> Frameworks:
    """FALLBACK: frameworks from the backend alone (see module doc);
    ordinal: how many earlier GPUs have the same backend."""
    if usable and backend in _GPU_BACKENDS:
        return Frameworks(
            torch=TorchDevice("cuda:%d" % ordinal, "float16"),
            ctranslate2=CTranslate2Device("cuda", ordinal, "float16"),
            llama_cpp=LlamaCppDevice(backend, "%s%d" % (backend, ordinal)),
            derived=True)
    if usable and backend == "Vulkan":
        return Frameworks(
            torch=TorchDevice("cpu", "float32"),
            ctranslate2=CTranslate2Device("cpu", 0, "int8"),
            llama_cpp=LlamaCppDevice("Vulkan", "Vulkan%d" % ordinal),
            derived=True)
    return Frameworks(torch=TorchDevice("cpu", "float32"),
                      ctranslate2=CTranslate2Device("cpu", 0, "int8"),
                      llama_cpp=LlamaCppDevice("CPU", None), derived=True)


def _strings(v: Any) -> List[str]:
    return [x for x in v if isinstance(x, str)] if isinstance(v, list) \
        else []


def workaround_from_json(w: Any) -> Optional[Workaround]:
    """The brief's "workaround" object; None for null or not an object."""
    if not isinstance(w, Mapping):
        return None
    env = []
    for e in w.get("env") or []:
        if isinstance(e, Mapping) and isinstance(e.get("name"), str) \
                and isinstance(e.get("value"), str):
            env.append(EnvVar(e["name"], e["value"]))
    return Workaround(env=env,
                      dll_directories=_strings(w.get("dll_directories")),
                      path_prepend=_strings(w.get("path_prepend")),
                      note=_s(w.get("note")))


def derive_workaround(status: str, reason: str) -> Optional[Workaround]:
    """FALLBACK: a workaround from the brief's reason when it is only
    NAME=VALUE words; None otherwise (the reason stays prose)."""
    if status != "workaround" or not reason:
        return None
    env = []
    for word in reason.split():
        m = _ASSIGN.match(word)
        if not m:
            return Workaround(note=reason, derived=True)
        env.append(EnvVar(m.group(1), m.group(2)))
    return Workaround(env=env, derived=True)


def for_gpu(o: Dict[str, Any], ordinal: int):
    """(Frameworks, Optional[Workaround]) for one brief "gpus" entry."""
    fw = frameworks_from_json(o.get("frameworks")) \
        if "frameworks" in o else None
    if fw is None:
        fw = derive_frameworks(str(o.get("backend", "CPU")),
                               bool(o.get("usable")), ordinal)
    if "workaround" in o:
        wa = workaround_from_json(o.get("workaround"))
    else:
        wa = derive_workaround(str(o.get("status", "")),
                               str(o.get("reason", "")))
    return fw, wa
