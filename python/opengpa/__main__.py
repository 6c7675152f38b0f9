"""`python -m opengpa ...` and the `opengpa-python` console script: the `opengpa` command line, whole.

Every command of the C++ CLI (`list`, `passes`, `profile`, `doctor`, ...; docs/cli.md) with the same arguments,
output and exit code, because the CLI itself runs: this module finds it as `opengpa.doctor()` does
(`opengpa.doctor.find_cli`: $OPENGPA_CLI, bin/opengpa beside $OPENGPA_LIBRARY_DIR, then PATH) and replaces the
Python process with it (exec), so that signals, the terminal and the exit status are the CLI's own.

The console script is called `opengpa-python`, not `opengpa`: the C++ CLI installs itself as `opengpa`, and a
Python script of the same name in a venv's bin/ would shadow it on PATH; worse, the script would then find itself
as "the CLI" and start itself again. Such a loop (a script named `opengpa` that runs `opengpa.__main__` or
`python -m opengpa`) is refused before anything runs.

Exit codes are the CLI's (docs/cli.md); when no CLI is found, 127 (the shell's "command not found") with a message
naming every place looked.
"""

from __future__ import annotations

import os
import sys
from typing import Optional, Sequence

from . import _library
from .doctor import find_cli

NOT_FOUND_EXIT_CODE = 127
# What a script that leads back here holds: pip's console-script wrapper, or a shell script running the module.
_ENTRY_MARKERS = (b"opengpa.__main__", b"-m opengpa")


def _leads_back_here(executable: str) -> bool:
    """True when `executable` is a script (not the C++ CLI) that would run this module again."""
    try:
        with open(executable, "rb") as head:
            start = head.read(4096)
    except OSError:
        return False
    return start.startswith(b"#!") and any(marker in start for marker in _ENTRY_MARKERS)


def _package_library_dir() -> Optional[str]:
    """The package's own _libs/ folder when it holds OpenGPA's libraries (an installed wheel), else None."""
    folder = _library.library_search_path()[-1]
    if os.path.isdir(folder) and any(name.startswith("libGPUPerfAPI") for name in os.listdir(folder)):
        return folder
    return None


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the `opengpa` CLI with `argv` (default: this process's arguments) in place of this process.

    Returns only when the CLI cannot be run: 127 when it is not found, 1 when it cannot be executed or when the
    CLI found leads back to this entry point (a wrapper named `opengpa`); the message goes to stderr.
    """
    arguments = list(sys.argv[1:] if argv is None else argv)
    try:
        executable = find_cli()
    except FileNotFoundError as error:
        print(f"opengpa-python: {error}", file=sys.stderr)
        return NOT_FOUND_EXIT_CODE
    if _leads_back_here(executable):
        print(f"opengpa-python: {executable} is a script that runs this Python entry point again, not the C++ CLI; "
              "set OPENGPA_CLI to the CLI's path", file=sys.stderr)
        return 1
    environment = dict(os.environ)
    # Point the CLI at the libraries this package loads, as opengpa.doctor() does (the CLI reads the variable).
    if not environment.get("OPENGPA_LIBRARY_DIR") and _package_library_dir():
        environment["OPENGPA_LIBRARY_DIR"] = _package_library_dir()
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execve(executable, ["opengpa", *arguments], environment)
    except OSError as error:
        print(f"opengpa-python: cannot run {executable}: {error.strerror}", file=sys.stderr)
        return 1
    return 1  # not reached: execve returns only by raising


if __name__ == "__main__":
    sys.exit(main())
