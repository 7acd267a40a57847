"""Typed results, mirroring docs/schema/check-brief.json and
docs/schema/check.json: TypedDicts for the JSON documents as gpudoctor
writes them (check() returns CheckReport), dataclasses for what detect()
makes of the brief."""
import sys
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

if sys.version_info >= (3, 8):
    from typing import Literal, TypedDict
else:  # pragma: no cover - requires-python is 3.8
    raise ImportError("gpudoctor needs Python 3.8 or newer")

Status = Literal["works", "workaround", "needs-setup", "unsupported",
                 "unknown"]
Backend = Literal["ROCm", "CUDA", "Vulkan", "OpenCL", "oneAPI", "CPU"]


class EnvVarJSON(TypedDict):
    name: str
    value: str


class WorkaroundJSON(TypedDict, total=False):
    env: List[EnvVarJSON]
    dll_directories: List[str]
    path_prepend: List[str]
    note: Optional[str]


class TorchJSON(TypedDict, total=False):
    device: str
    dtype: Optional[str]


class CTranslate2JSON(TypedDict, total=False):
    device: str
    device_index: int
    compute_type: str


class LlamaCppJSON(TypedDict, total=False):
    backend: str
    device: Optional[str]


FrameworksJSON = TypedDict("FrameworksJSON", {
    "torch": TorchJSON, "ctranslate2": CTranslate2JSON,
    "llama.cpp": LlamaCppJSON}, total=False)


class BriefGpuJSON(TypedDict, total=False):
    index: int
    name: str
    vendor: str
    target: Optional[str]
    status: str
    usable: bool
    backend: str
    reason: str
    guide: str
    line: str
    frameworks: FrameworksJSON
    workaround: Optional[WorkaroundJSON]


BriefJSON = TypedDict("BriefJSON", {
    "$schema": str, "schema_version": int, "command": str,
    "gpudoctor_version": str, "gpus": List[BriefGpuJSON], "cpu_only": bool,
    "lines": List[str], "exit_code": int, "platform": str}, total=False)

CheckReport = TypedDict("CheckReport", {
    "$schema": str, "schema_version": int, "command": str,
    "platform": str, "root": str, "gpus": List[Dict[str, Any]],
    "verdict": Dict[str, Any], "runtimes": List[Dict[str, Any]],
    "frameworks": Dict[str, Any], "probes": Optional[Dict[str, Any]],
    "windows": Dict[str, Any], "exit_code": int}, total=False)

ExplainReport = TypedDict("ExplainReport", {
    "$schema": str, "schema_version": int, "command": str, "input": str,
    "lines": int, "bytes": int, "truncated": bool, "skipped_bytes": int,
    "signatures_checked": int, "matches": List[Dict[str, Any]],
    "codes": List[Dict[str, Any]]}, total=False)

EnvReport = TypedDict("EnvReport", {
    "$schema": str, "command": str, "origin": str, "gpu": Optional[str],
    "profile": Optional[Dict[str, Any]], "shell": str,
    "dll_directories": List[str], "python": List[str]}, total=False)


@dataclass(frozen=True)
class EnvVar:
    name: str
    value: str


@dataclass(frozen=True)
class Workaround:
    """What an app applies before it loads the GPU runtime: set env (in
    os.environ, before importing torch / ctranslate2 / llama.cpp), pass
    each of dll_directories to os.add_dll_directory() (Windows), put
    path_prepend first on PATH."""
    env: List[EnvVar] = field(default_factory=list)
    dll_directories: List[str] = field(default_factory=list)
    path_prepend: List[str] = field(default_factory=list)
    note: Optional[str] = None
    derived: bool = False  # True: read from the brief's reason (fallback)

    def environ(self) -> Dict[str, str]:
        """The variables as a dict, for os.environ.update()."""
        return {v.name: v.value for v in self.env}


@dataclass(frozen=True)
class TorchDevice:
    device: str                # "cuda:0" (ROCm builds too), "xpu:0", "cpu"
    dtype: Optional[str]       # "float16", "bfloat16", "float32"


@dataclass(frozen=True)
class CTranslate2Device:
    device: str                # "cuda" (ROCm builds too) or "cpu"
    device_index: int
    compute_type: str          # "float16", "int8_float16", "int8", ...


@dataclass(frozen=True)
class LlamaCppDevice:
    backend: str               # "ROCm", "CUDA", "Vulkan", "CPU"
    device: Optional[str]      # "ROCm0", "CUDA1", "Vulkan0"; None for CPU


@dataclass(frozen=True)
class Frameworks:
    """How each framework names this GPU. derived is True while gpudoctor
    gives no "frameworks" object and these come from the backend alone
    (the fallback, see _frameworks.py)."""
    torch: TorchDevice
    ctranslate2: CTranslate2Device
    llama_cpp: LlamaCppDevice
    derived: bool = False
