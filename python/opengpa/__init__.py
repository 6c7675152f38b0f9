"""OpenGPA from Python: GPU performance counters per region, listed, planned and plotted.

A thin face over OpenGPA's C libraries (GPA v3's ABI), loaded with ctypes: the counters, pass counts and
values are theirs. Importing needs no GPU; listing a chip's counters offline needs no GPU either.

    import opengpa
    opengpa.list_counters(chip="GH100")              # offline, through CUPTI's host API
    opengpa.plan_passes(["GPUTime", "L2CacheHit"], chip="GH100").pass_count

    with opengpa.profile(counters=["GPUTime", "FetchSize"]) as p:   # the current CUDA context
        with opengpa.region("matmul"):
            c = a @ b
    p.results.to_dataframe()

    with opengpa.profile(counters=["GPUTime", "FetchSize"], per_kernel=True) as p:   # one row per kernel launch
        c = a @ b
    p.results.kernels
    print(p.results.table())                         # per-kernel totals sorted by time, fitted to the terminal
    p.export_chrome_trace("trace.json")              # one event per launch for ui.perfetto.dev

    opengpa.doctor()["exit_code"]                    # 0: every API present measured its truths (docs/doctor.md)
    opengpa.compare(["rank0.json", "rank1.json"])["groups"][0]["outlier"]  # the slowest rank of the top kernel
    opengpa.report([p.results], "report.html")       # one self-contained HTML page: tables, roofline, ...

From a shell, `python -m opengpa ...` (or the `opengpa-python` script) runs the `opengpa` CLI itself.
"""

from ._status import OpenGpaError
from .counters import (Counter, CounterLibraryContext, GpaContext, PassPlan, describe, list_counters,
                       open_context, plan_passes)
from .compare import compare
from .doctor import doctor
from .monitor import Monitor, MonitorCounter, Record, records_to_dataframe
from .profiling import Profile, profile, region
from .report import report
from .kernels import KernelProfile, KernelResults
from .results import Results
from ._version import __version__  # noqa: F401 (re-exported: opengpa.__version__)

__all__ = [
    "Counter", "CounterLibraryContext", "GpaContext", "KernelProfile", "KernelResults", "Monitor", "MonitorCounter",
    "OpenGpaError", "PassPlan",
    "Profile", "Record", "Results", "compare", "describe", "doctor", "list_counters", "open_context", "plan_passes",
    "profile", "records_to_dataframe", "region", "report",
]
