#!/usr/bin/env bash
# Runs on the GPU machine from the repository root, after build.sh ran on the development machine:
#   tests/device/python/run.sh [lib-dir]      (default build-device-python/lib)
# pytest over test_python_device.py with the machine's PyTorch, test_cupy_device.py, test_jax_device.py,
# test_kernels_device.py, test_jax_kernels_device.py, test_cupy_kernels_device.py, test_torch_ops_device.py and
# test_graph_kernels_device.py,
# then docs/python.md's example (samples/python/profile_mlp.py); tables, plots and logs go to $OUT when it is set (else /tmp/opengpa-python).
set -uo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
export OPENGPA_LIBRARY_DIR=$(cd "${1:-$root/build-device-python/lib}" && pwd)
export OPENGPA_DEVICE_OUT=${OUT:-/tmp/opengpa-python}
mkdir -p "$OPENGPA_DEVICE_OUT"
export PYTHONPATH=$root/python PYTHONUNBUFFERED=1 MPLBACKEND=Agg
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
python3 -m pytest -p no:cacheprovider -q -s -rA "$root/tests/device/python/test_python_device.py" 2>&1 \
  | tee "$OPENGPA_DEVICE_OUT/python_device.log"
status=${PIPESTATUS[0]}
# Per-kernel rows (and JAX's) in processes of their own: the per-kernel profiler subscribes to CUPTI.
for framework in cupy jax kernels jax_kernels cupy_kernels torch_ops graph_kernels; do  # each alone in its process, as a CuPy or JAX program is
  python3 -m pytest -p no:cacheprovider -q -s -rA "$root/tests/device/python/test_${framework}_device.py" 2>&1 \
    | tee -a "$OPENGPA_DEVICE_OUT/python_frameworks.log"
  status=$((status | PIPESTATUS[0]))
done
python3 "$root/samples/python/profile_mlp.py" "$OPENGPA_DEVICE_OUT" 2>&1 | tee "$OPENGPA_DEVICE_OUT/profile_mlp.log"
exit $((status | PIPESTATUS[0]))
