"""A Python parent for run.sh: N kernel launches (spawn_kernels.cu through ctypes), then the CUDA child started
with subprocess.run (Python's vfork/posix_spawn path), then N launches more.

Usage: parent.py LIBRARY CHILD_PROGRAM N M
"""
import ctypes
import subprocess
import sys

library, child, n, m = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
kernels = ctypes.CDLL(library)
kernels.launch_kernels.argtypes = [ctypes.c_char_p, ctypes.c_int]
if kernels.launch_kernels(b"parent", n) != 0:
    sys.exit("the parent's first launches failed")
completed = subprocess.run([child, "child", m])
if kernels.launch_kernels(b"parent", n) != 0:
    sys.exit("the parent's second launches failed")
print(f"python parent: 2 x {n} launches; child exit {completed.returncode}")
sys.exit(completed.returncode)
