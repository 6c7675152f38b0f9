#!/usr/bin/env bash
# Builds pm_rate (pm_rate.cu) against the NVIDIA layer of a configured build tree, on the development machine:
#   bench/pm_sampling/build.sh BUILD_DIR OUT_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$1
out=$2
ninja -C "$build" -j2 opengpa_nvidia_pm_sampling
mkdir -p "$out"
cupti_include=$(dirname "$(find /usr/local/cuda/ -name cupti_pmsampling.h | head -n 1)")
/usr/local/cuda/bin/nvcc -O2 -std=c++17 -arch=sm_90 -DFMT_HEADER_ONLY -I"$root/include" -I"$root/src" \
  -I"$cupti_include" "$root/bench/pm_sampling/pm_rate.cu" -o "$out/pm_rate" \
  "$build/src/nvidia/libopengpa_nvidia_pm_sampling.a" "$build/src/nvidia/libopengpa_nvidia_cuda_driver.a" \
  "$build/src/platform/libopengpa_platform.a" -L/usr/local/cuda/lib64/stubs -lcuda -ldl -lpthread
strip "$out/pm_rate"
