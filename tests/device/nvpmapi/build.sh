#!/usr/bin/env bash
# Builds, on the development machine (no GPU needed), what run.sh executes on the GPU machine, into <out>:
# libNvPmApi.Core.so and libGPUPerfAPICUDA.so (stripped, from the build folder) and
# opengpa_nvpmapi_cuda_sample (the build's, sm_90, which links the GPA client loader), with run.sh itself.
#   tests/device/nvpmapi/build.sh [build-dir] [out]   (defaults: build, build-device-nvpmapi/out)
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-$root/build}
out=${2:-$root/build-device-nvpmapi/out}
export PATH="$PATH:/usr/local/cuda/bin"
ninja -C "$build" NvPmApiCore GPUPerfAPICUDA opengpa_nvpmapi_cuda_sample
mkdir -p "$out"
strip -o "$out/libNvPmApi.Core.so" "$build/lib/libNvPmApi.Core.so"
strip -o "$out/libGPUPerfAPICUDA.so" "$build/lib/libGPUPerfAPICUDA.so"
"$root/tests/device/soname_copies.sh" "$out"  # the libraries' SONAMEs (.so.3), which programs ask for
cp "$build/samples/nvpmapi/cuda/opengpa_nvpmapi_cuda_sample" "$out/"
cp "$root/tests/device/nvpmapi/run.sh" "$out/"
ls -la "$out"
