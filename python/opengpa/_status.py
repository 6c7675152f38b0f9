"""GPA's status codes (gpu_perf_api_types.h) and the exception a failed call raises."""

from __future__ import annotations

from typing import Iterable

STATUS_NAMES = {
    0: "kGpaStatusOk",
    1: "kGpaStatusResultNotReady",
    -1: "kGpaStatusErrorNullPointer",
    -2: "kGpaStatusErrorContextNotOpen",
    -3: "kGpaStatusErrorContextAlreadyOpen",
    -4: "kGpaStatusErrorIndexOutOfRange",
    -5: "kGpaStatusErrorCounterNotFound",
    -6: "kGpaStatusErrorAlreadyEnabled",
    -7: "kGpaStatusErrorNoCountersEnabled",
    -8: "kGpaStatusErrorNotEnabled",
    -9: "kGpaStatusErrorCommandListAlreadyEnded",
    -10: "kGpaStatusErrorCommandListAlreadyStarted",
    -11: "kGpaStatusErrorCommandListNotEnded",
    -12: "kGpaStatusErrorNotEnoughPasses",
    -13: "kGpaStatusErrorSampleNotStarted",
    -14: "kGpaStatusErrorSampleAlreadyStarted",
    -15: "kGpaStatusErrorSampleNotEnded",
    -16: "kGpaStatusErrorCannotChangeCountersWhenSampling",
    -17: "kGpaStatusErrorSessionNotFound",
    -18: "kGpaStatusErrorSampleNotFound",
    -19: "kGpaStatusErrorContextNotFound",
    -20: "kGpaStatusErrorCommandListNotFound",
    -21: "kGpaStatusErrorReadingSampleResult",
    -22: "kGpaStatusErrorVariableNumberOfSamplesInPasses",
    -23: "kGpaStatusErrorFailed",
    -24: "kGpaStatusErrorHardwareNotSupported",
    -25: "kGpaStatusErrorDriverNotSupported",
    -26: "kGpaStatusErrorApiNotSupported",
    -27: "kGpaStatusErrorInvalidParameter",
    -28: "kGpaStatusErrorLibLoadFailed",
    -29: "kGpaStatusErrorLibLoadMajorVersionMismatch",
    -30: "kGpaStatusErrorLibLoadMinorVersionMismatch",
    -31: "kGpaStatusErrorGpaNotInitialized",
    -32: "kGpaStatusErrorGpaAlreadyInitialized",
    -33: "kGpaStatusErrorSampleInSecondaryCommandList",
    -34: "kGpaStatusErrorIncompatibleSampleTypes",
    -35: "kGpaStatusErrorSessionAlreadyStarted",
    -36: "kGpaStatusErrorSessionNotStarted",
    -37: "kGpaStatusErrorSessionNotEnded",
    -38: "kGpaStatusErrorInvalidDataType",
    -39: "kGpaStatusErrorInvalidCounterEquation",
    -40: "kGpaStatusErrorTimeout",
    -41: "kGpaStatusErrorLibAlreadyLoaded",
    -42: "kGpaStatusErrorOtherSessionActive",
    -43: "kGpaStatusErrorException",
    -44: "kGpaStatusErrorInvalidCounterGroupData",
}


def status_name(status):
    return STATUS_NAMES.get(status, f"GpaStatus({status})")


class OpenGpaError(RuntimeError):
    """A call into an OpenGPA library failed.

    `status` is the GpaStatus the C function returned (an int, 0 for errors found in Python itself),
    `status_name` its name, `function` the C function, and `log` the library's error messages logged
    during the call: the library names the argument and value at fault there, so they are the reason.
    """

    def __init__(self, function: str, status: int, log: Iterable[str] = (), detail: str = "") -> None:
        """`detail`: what Python adds to the message (the reason, what to do), before the library's log."""
        self.function = function
        self.status = status
        self.status_name = status_name(status) if status else ""
        self.log = list(log)
        parts = [f"{function} failed"]
        if status:
            parts[0] += f" with {self.status_name}"
        if detail:
            parts.append(detail)
        parts.extend(self.log)
        super().__init__(": ".join(parts[:1]) + ("" if len(parts) == 1 else ": " + "; ".join(parts[1:])))
