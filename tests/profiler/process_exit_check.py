"""CallAtProcessExit in CPython: the profiler's last batch is written however the interpreter ends.

Usage: process_exit_check.py PROBE_LIBRARY WORK_DIR. Runs python3 children that load the probe (a library that
registers a marker writer through CallAtProcessExit) and end (1) normally, (2) by an uncaught KeyboardInterrupt,
after which CPython kills itself with SIGINT and exit() handlers never run, and (3) by sys.exit(5). Each must leave
the marker and end as it would have without the probe. Exit 0 when all pass.
"""
import os
import signal
import subprocess
import sys

probe, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
CHILD = """
import ctypes, sys
ctypes.CDLL(sys.argv[1]).OpenGpaProbeCallAtProcessExit(sys.argv[2].encode())
{ending}
"""
CASES = [
    ("normal exit", "pass", 0),
    ("uncaught KeyboardInterrupt", "raise KeyboardInterrupt", -signal.SIGINT),
    ("sys.exit(5)", "sys.exit(5)", 5),
]
failures = 0
for name, ending, expected in CASES:
    marker = os.path.join(work, name.replace(" ", "_") + ".marker")
    if os.path.exists(marker):
        os.remove(marker)
    result = subprocess.run([sys.executable, "-c", CHILD.format(ending=ending), probe, marker],
                            capture_output=True, text=True)
    problems = []
    if result.returncode != expected:
        problems.append(f"ended with {result.returncode}, expected {expected}")
    if not os.path.exists(marker):
        problems.append("the exit hook did not run (no marker)")
    print(f"{name}: {'FAIL: ' + '; '.join(problems) if problems else 'PASS'}")
    failures += bool(problems)
sys.exit(1 if failures else 0)
