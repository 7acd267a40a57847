"""The exceptions, by kind; all derive from GpudoctorError, so
`except gpudoctor.GpudoctorError` catches every one of them."""
import builtins


class GpudoctorError(Exception):
    """gpudoctor is missing, timed out, failed or gave no usable report."""


class ProgramNotFoundError(GpudoctorError, FileNotFoundError):
    """No gpudoctor program: none inside this package, none at
    GPUDOCTOR_BIN, none on PATH (or it cannot be executed). A hint for the
    developer, never text for the app's user."""


class GpudoctorTimeoutError(GpudoctorError, builtins.TimeoutError):
    """gpudoctor did not answer in time (it was stopped, probes and all);
    also a builtins.TimeoutError."""


class BadOutputError(GpudoctorError, ValueError):
    """gpudoctor's output is not the JSON document expected (not JSON, too
    deep, too large, or not an object)."""


class ExitStatusError(GpudoctorError):
    """gpudoctor ended with its own error (exit status 3, a signal, ...).

    exit_code: the status (negative: the signal, as in subprocess);
    message: the last line gpudoctor wrote to standard error."""

    def __init__(self, exit_code: int, message: str) -> None:
        super().__init__("gpudoctor exited with status %d: %s"
                         % (exit_code, message))
        self.exit_code = exit_code
        self.message = message
