#!/usr/bin/env bash
# Runs on the GPU machine, after build.sh: the NvPmApi CUDA sample (experiment mode against our GPA library,
# real-time mode against known work per frame).   bash <out>/run.sh   (from anywhere)
set -uo pipefail
bin=$(cd "$(dirname "$0")" && pwd)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
# libcupti loads libnvperf_host.so from the loader's path: put CUPTI's folder on it.
cupti=$(ldconfig -p | awk '/libcupti.so.13 /{print $NF; exit}')
[[ -z $cupti ]] && cupti=$(find / -name 'libcupti.so.13*' -not -path '/proc/*' 2>/dev/null | head -n 1)
echo "libcupti: ${cupti:-not found}"
[[ -n $cupti ]] && export LD_LIBRARY_PATH="$(dirname "$cupti")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OPENGPA_NVPMAPI_LOG=1
time "$bin/opengpa_nvpmapi_cuda_sample" --library "$bin/libNvPmApi.Core.so" 2>&1 | tee "${OUT:-/tmp}/nvpmapi_cuda_sample.txt"
