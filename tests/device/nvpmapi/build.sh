#!/usr/bin/env bash
# Builds, on the development machine (no GPU needed), what run.sh executes on the GPU machine, into <out>:
# libNvPmApi.Core.so and libGPUPerfAPICUDA.so (stripped, from the build folder) and
# opengpa_nvpmapi_cuda_sample (nvcc, sm_90), with run.sh itself.
#   tests/device/nvpmapi/build.sh [build-dir] [out]   (defaults: build, build-device-nvpmapi/out)
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-$root/build}
out=${2:-$root/build-device-nvpmapi/out}
export PATH="$PATH:/usr/local/cuda/bin"
ninja -C "$build" NvPmApiCore GPUPerfAPICUDA
mkdir -p "$out"
strip -o "$out/libNvPmApi.Core.so" "$build/lib/libNvPmApi.Core.so"
strip -o "$out/libGPUPerfAPICUDA.so" "$build/lib/libGPUPerfAPICUDA.so"
nvcc -O3 -std=c++17 -arch=sm_90 -I"$root/include" -I"$root/samples/nvpmapi" \
  -DOPENGPA_NVPMAPI_LIBRARY='"libNvPmApi.Core.so"' "$root/samples/nvpmapi/cuda/cuda_main.cu" \
  "$root/samples/nvpmapi/nvpm_sample.cc" -o "$out/opengpa_nvpmapi_cuda_sample" \
  -L/usr/local/cuda/lib64/stubs -lcuda -ldl
cp "$root/tests/device/nvpmapi/run.sh" "$out/"
ls -la "$out"
