"""Which directories a Windows app adds to its DLL search path
(os.add_dll_directory) before importing CTranslate2 or torch.

Python >= 3.8 on Windows does not search PATH for an extension module's
dependent DLLs (bpo-36085). gpudoctor's verdict carries the answer per GPU
as workaround.dll_directories (check --json: gpus[].verdict; check --brief
--json: gpus[]): the HIP SDK bin directory whose runtime matches the
driver's, known-broken SDKs excluded. This module reads that field and
derives nothing itself; a Linux report, or one without the field, gives
[]."""


def _verdicts(report):
    for g in report.get("gpus") or []:
        if not isinstance(g, dict):
            continue
        yield g["verdict"] if isinstance(g.get("verdict"), dict) else g


def dll_directories_from_report(report):
    out = []
    try:
        for v in _verdicts(report):
            wa = v.get("workaround")
            if not isinstance(wa, dict):
                continue
            for d in wa.get("dll_directories") or []:
                if isinstance(d, str) and d and d not in out:
                    out.append(d)
    except (AttributeError, TypeError):
        return []
    return out
