"""Which HIP SDK bin directory a Windows app should add to its DLL search
path before importing CTranslate2.

Python >= 3.8 on Windows does not search PATH for an extension module's
dependent DLLs; it searches the app directory, System32 and the directories
given to os.add_dll_directory() (bpo-36085). The driver ships its own HIP
runtime in System32 (amdhip64_6.dll or amdhip64_7.dll), and an SDK of another
HIP major reports no devices with it, so the directory to add is the bin
directory of the SDK whose HIP major equals the driver's, not HIP_PATH's.

Read from the report's "windows" object: driver_hip_major (the driver's
amdhip64_N.dll in System32) and hip_sdks[] with root, hip_major and comgr
(an SDK without its amd_comgr DLL finds no device, so it is skipped).
Older reports: runtimes[] entries that are Windows HIP SDKs (kind "hip-sdk",
or a ROCm install with a Windows path) with hip_major and bin_dir, against
frameworks.system_hip_major. A Linux report has neither: []."""
import ntpath


def _is_windows_path(p):
    return isinstance(p, str) and len(p) > 2 and p[1] == ":" and p[2] in "\\/"


def _bin_dir(rt):
    for key in ("bin_dir", "lib_dir"):
        if _is_windows_path(rt.get(key)):
            return rt[key]
    if _is_windows_path(rt.get("path")):
        return ntpath.join(rt["path"], "bin")
    return None


def _from_windows(win):
    driver = win.get("driver_hip_major")
    out = []
    for sdk in win.get("hip_sdks") or []:
        root = sdk.get("root") if isinstance(sdk, dict) else None
        if (_is_windows_path(root) and isinstance(driver, int) and driver
                and sdk.get("hip_major") == driver and sdk.get("comgr") != ""):
            d = ntpath.join(root, "bin")
            if d not in out:
                out.append(d)
    return out


def dll_directories_from_report(report):
    try:
        if isinstance(report.get("windows"), dict):
            return _from_windows(report["windows"])
        fw = report.get("frameworks") or {}
        driver = fw.get("system_hip_major")
        if not isinstance(driver, int):
            return []
        out = []
        for rt in report.get("runtimes") or []:
            if not isinstance(rt, dict):
                continue
            if rt.get("kind") not in ("hip-sdk", "hip_sdk", "rocm"):
                continue
            d = _bin_dir(rt)
            if d and rt.get("hip_major") == driver and d not in out:
                out.append(d)
        return out
    except (AttributeError, TypeError):
        return []
