"""`opengpa.report()`: `opengpa report` from Python (docs/cli.md, "opengpa report").

Writes one self-contained HTML page of profiles (summary, per-kernel table, launches, roofline, per-op and
per-module tables, ranks, diff). The CLI reads the files and the page's script draws them; this module runs the CLI
(found as `opengpa.doctor()` finds it). A KernelResults is written to a profile JSON first
(`KernelResults.save_profile`; `OpAttribution.save_profile` adds each launch's operator and module).
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from typing import Any, Optional, Sequence, Union

from .doctor import find_cli

PathLike = Union[str, os.PathLike]


def report(profiles: Sequence[Union[PathLike, Any]], output: PathLike, diff: bool = False,
           peak_flops: Optional[float] = None, peak_bandwidth: Optional[float] = None, title: Optional[str] = None,
           executable: Optional[str] = None, timeout: Optional[float] = None) -> str:
    """Runs `opengpa report PROFILES -o OUTPUT -f` and returns the path written.

    profiles: profile .json or .csv paths, GPA sample CSVs, or objects with save_profile(path) (KernelResults,
    OpAttribution); several files are the ranks of a job, or with diff=True two runs (before, after).
    peak_flops (FLOP/s) and peak_bandwidth (DRAM bytes/s): the roofline's roofs, measured on the device.
    RuntimeError with the CLI's message when it refuses (a file that is no profile, diff with other than two)."""
    with tempfile.TemporaryDirectory(prefix="opengpa-report-") as work:
        paths = []
        for number, profile in enumerate(profiles):
            if hasattr(profile, "save_profile"):
                path = os.path.join(work, f"profile{number}.json")
                profile.save_profile(path)
                paths.append(path)
            else:
                paths.append(os.fspath(profile))
        command = [find_cli(executable), "report", *paths, "-o", os.fspath(output), "-f"]
        if diff:
            command.append("--diff")
        if peak_flops:
            command += ["--peak-flops", repr(float(peak_flops))]
        if peak_bandwidth:
            command += ["--peak-bandwidth", repr(float(peak_bandwidth))]
        if title:
            command += ["--title", title]
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    if result.returncode != 0:
        raise RuntimeError(f"opengpa report exited {result.returncode}: {result.stderr.strip()}")
    return os.fspath(output)
