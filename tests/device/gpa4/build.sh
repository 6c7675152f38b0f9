#!/usr/bin/env bash
# Builds, on the development machine (no GPU needed), what the GPA 4 device check runs on the GPU machine, into
# <build-dir>/out: libGPUPerfAPICUDA.so (Release) and gpa4_device_check (sm_90, against include/v4 only).
# Usage: tests/device/gpa4/build.sh [build-dir]   (default build-device-gpa4). Run there: <out>/gpa4_device_check <out>/libGPUPerfAPICUDA.so
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-$root/build-device-gpa4}
out=$build/out
export PATH="$PATH:/usr/local/cuda/bin"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DOPENGPA_BUILD_TESTS=OFF \
  -DOPENGPA_BUILD_BENCHMARKS=OFF -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
ninja -C "$build" -j2 GPUPerfAPICUDA
mkdir -p "$out"
cp "$build/lib/libGPUPerfAPICUDA.so" "$out/"
"$root/tests/device/soname_copies.sh" "$out"  # the libraries' SONAMEs (.so.3), which programs ask for
nvcc -O3 -std=c++17 -arch=sm_90 -I"$root/include/v4" -I"$root/tests/device/cuda" \
  "$root/tests/device/gpa4/gpa4_device_check.cu" -o "$out/gpa4_device_check" -ldl \
  -L/usr/local/cuda/lib64/stubs -lcuda
ls -la "$out"
