#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root, after build.sh ran on the development machine:
#   tests/device/spm/run.sh [bin-dir]      (default build-device-spm/out)
# Prints the GPU, then spm_device_check's PASS/FAIL lines and figures; exits with its status.
set -uo pipefail
bin=$(cd "${1:-build-device-spm/out}" && pwd)
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
cupti=""
for candidate in /usr/local/cuda/lib64/libcupti.so.13 /usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13; do
  [[ -e $candidate ]] && { cupti=$candidate; break; }
done
[[ -z $cupti ]] && cupti=$(find / -name 'libcupti.so.13*' -not -path '/proc/*' 2>/dev/null | head -n 1)
echo "libcupti: ${cupti:-not found}"
# libGPUPerfAPICUDA.so needs libcupti (and CUPTI's libnvperf_host beside it).
[[ -n $cupti ]] && export LD_LIBRARY_PATH="$(dirname "$cupti")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
"$bin/spm_device_check" "$bin/libGPUPerfAPICUDA.so"
