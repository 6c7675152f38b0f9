#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root, after build.sh ran on the development machine:
#   tests/device/spm/run.sh [bin-dir]      (default build-device-spm/out)
# Prints the GPU, then spm_device_check's PASS/FAIL lines and figures; exits with its status.
set -uo pipefail
bin=$(cd "${1:-build-device-spm/out}" && pwd)
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
for candidate in /usr/local/cuda/lib64 /usr/local/cuda/extras/CUPTI/lib64; do
  [[ -e $candidate/libcupti.so.13 ]] && export LD_LIBRARY_PATH="$candidate${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
done
"$bin/spm_device_check" "$bin/libGPUPerfAPICUDA.so"
