#!/usr/bin/env bash
# Builds, on the development machine (no GPU), what run.sh executes on the GPU machine, into <out-dir>
# (default build-device-gpa2): libGPUPerfAPICUDA.so of the current build (debug info stripped) and
# gpa2_cuda_device_check (sm_90). Needs scripts/configure.sh to have built ./build first.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${1:-$root/build-device-gpa2}
export PATH="$PATH:/usr/local/cuda/bin"
mkdir -p "$out"
objcopy --strip-debug "$root/build/lib/libGPUPerfAPICUDA.so" "$out/libGPUPerfAPICUDA.so"
"$root/tests/device/soname_copies.sh" "$out"  # the libraries' SONAMEs (.so.3), which programs ask for
nvcc -O3 -std=c++17 -arch=sm_90 -I"$root/include" -I"$root/tests/device/cuda" \
  "$root/tests/device/gpa2/gpa2_cuda_device_check.cu" -o "$out/gpa2_cuda_device_check" \
  -L"$out" -lGPUPerfAPICUDA -L/usr/local/cuda/lib64/stubs -lcuda -Xlinker -rpath -Xlinker '$ORIGIN'
ls -la "$out"
