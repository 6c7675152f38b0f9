#!/usr/bin/env bash
# Runs on the GPU machine from the repository root, after build.sh: tests/device/gpa2/run.sh [bin-dir]
# (default build-device-gpa2). Output goes to $OUT/gpa2.txt when the device tool sets $OUT.
set -uo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
bin=$(cd "${1:-$root/build-device-gpa2}" && pwd)
# libcupti loads libnvperf_host.so from the loader's path: put CUPTI's folder on it.
cupti=$(ldconfig -p | awk '/libcupti.so.13 /{print $NF; exit}')
[[ -z $cupti ]] && cupti=$(find / -name 'libcupti.so.13*' -not -path '/proc/*' 2>/dev/null | head -n 1)
[[ -n $cupti ]] && export LD_LIBRARY_PATH="$(dirname "$cupti")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version --format=csv
"$bin/gpa2_cuda_device_check" 2>&1 | tee "${OUT:-/tmp}/gpa2.txt"
exit "${PIPESTATUS[0]}"
