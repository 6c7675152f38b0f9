"""`opengpa.doctor()`: the CLI's self-check (`opengpa doctor --format json`, docs/doctor.md) from Python.

The doctor runs each API's workload of known size through the same GPA libraries Python loads and compares every
counter with its truth. This module only finds the `opengpa` executable, runs it and returns its JSON as a dict
(docs/schema/doctor.schema.json); nothing is measured here. The executable is looked for, in order:

1. the `executable` argument, then $OPENGPA_CLI;
2. bin/opengpa beside the library folder Python loads from ($OPENGPA_LIBRARY_DIR/../bin: a build tree or an install);
3. `opengpa` on PATH.

The doctor is pointed at the libraries this package would load: $OPENGPA_LIBRARY_DIR when set (the CLI reads it
too), else the package's own _libs/ folder when it holds them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from typing import Any, Dict, List, Optional, Sequence

from . import _library


def find_cli(executable: Optional[str] = None) -> str:
    """The path of the `opengpa` executable the doctor runs; FileNotFoundError naming every place looked."""
    candidates = [executable, os.environ.get("OPENGPA_CLI")]
    if os.environ.get("OPENGPA_LIBRARY_DIR"):
        candidates.append(os.path.join(os.environ["OPENGPA_LIBRARY_DIR"], os.pardir, "bin", "opengpa"))
    looked = []
    for candidate in candidates:
        if not candidate:
            continue
        looked.append(candidate)
        if os.access(candidate, os.X_OK) and not os.path.isdir(candidate):
            return os.path.abspath(candidate)
    on_path = shutil.which("opengpa")
    if on_path:
        return on_path
    looked.append("PATH")
    raise FileNotFoundError("the opengpa executable was not found (looked at " + ", ".join(looked) +
                            "); set OPENGPA_CLI to its path or put its bin/ folder on PATH")


def _library_dir_argument() -> List[str]:
    if os.environ.get("OPENGPA_LIBRARY_DIR"):
        return []  # the CLI reads it itself
    package_libs = _library.library_search_path()[-1]
    if os.path.isdir(package_libs) and any(name.startswith("libGPUPerfAPI") for name in os.listdir(package_libs)):
        return ["--library-dir", package_libs]
    return []


def doctor(apis: Optional[Sequence[str]] = None, quick: bool = False, executable: Optional[str] = None,
           timeout: Optional[float] = None) -> Dict[str, Any]:
    """Runs `opengpa doctor --format json` and returns its report as a dict.

    apis: None for every API and the monitor, or names among "cuda", "vk", "gl", "cl", "monitor". quick: only the
    fastest check of each kind.
    The report's "exit_code" is the CLI's: 0 every API present passed, 3 a check failed, 4 an API present is
    unusable, 5 no API present; each backend's "causes" say what failed and how to fix it. RuntimeError when the
    CLI produced no report (a usage error, a crash), with what it printed.
    """
    command = [find_cli(executable), "doctor", "--format", "json", *_library_dir_argument()]
    if quick:
        command.append("--quick")
    for api in apis or []:
        command += ["--api", api]
    result = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    try:
        report = json.loads(result.stdout)
    except json.JSONDecodeError:
        raise RuntimeError(f"{' '.join(command)} exited {result.returncode} without a report: "
                           f"{result.stderr.strip() or result.stdout.strip()}") from None
    return report
