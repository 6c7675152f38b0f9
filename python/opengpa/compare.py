"""`opengpa.compare()`: `opengpa compare` from Python (docs/cli.md, "opengpa compare").

Compares `opengpa profile` JSON files: the ranks (or processes) of one job side by side, each kernel's (or NVTX
range's) counters as min / median / max over the ranks with the outlier rank, or, with diff=True, two runs of a
program and the counters that moved. The CLI computes; this module runs it (found as `opengpa.doctor()` finds it)
and returns its JSON as a dict.
"""

from __future__ import annotations

import json
import os
import subprocess
from typing import Any, Dict, Optional, Sequence, Union

from .doctor import find_cli


def compare(profiles: Sequence[Union[str, os.PathLike]], diff: bool = False, by: str = "kernel",
            counters: Optional[Sequence[str]] = None, threshold: float = 5.0, executable: Optional[str] = None,
            timeout: Optional[float] = None) -> Dict[str, Any]:
    """Runs `opengpa compare ... --json -` and returns its document as a dict.

    profiles: paths of profile .json files (two, before and after, with diff=True). by: "kernel" or "nvtx".
    counters: names to compare (None: the time counter across ranks, every shared counter with diff).
    threshold: with diff, the change in percent from which a counter has moved.
    Across ranks the dict has "groups" (each with "members", "outlier", "outlier_ratio" and per counter "min",
    "median", "max" and who held them); with diff, "changes" (moved first, largest first), "only_before" and
    "only_after". RuntimeError with the CLI's message when it refuses (a file that is no profile, a counter a
    profile lacks, diff with other than two files).
    """
    command = [find_cli(executable), "compare", *[os.fspath(path) for path in profiles], "--by", by, "--top", "0",
               "--json", "-"]
    if diff:
        command += ["--diff", "--threshold", str(threshold)]
    if counters:
        command += ["--counters", ",".join(counters)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    if result.returncode != 0:
        raise RuntimeError(f"opengpa compare exited {result.returncode}: {result.stderr.strip()}")
    return json.loads(result.stdout)
