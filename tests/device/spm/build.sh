#!/usr/bin/env bash
# Builds, on the development machine (no GPU needed), what the streaming-counter device check runs on the GPU
# machine, into <build-dir>/out: libGPUPerfAPICUDA.so (Release) and spm_device_check (sm_90, include/v4 only).
# Usage: tests/device/spm/build.sh [build-dir]   (default build-device-spm). Run there: tests/device/spm/run.sh <out>
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-$root/build-device-spm}
out=$build/out
export PATH="$PATH:/usr/local/cuda/bin"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DOPENGPA_BUILD_TESTS=OFF \
  -DOPENGPA_BUILD_BENCHMARKS=OFF -DOPENGPA_BUILD_SAMPLES=OFF -DOPENGPA_WITH_VULKAN=OFF -DOPENGPA_WITH_OPENGL=OFF \
  -DOPENGPA_WITH_OPENCL=OFF -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
ninja -C "$build" -j2 GPUPerfAPICUDA
mkdir -p "$out"
cp "$build/lib/libGPUPerfAPICUDA.so" "$out/"
nvcc -O3 -std=c++17 -arch=sm_90 -I"$root/include/v4" -I"$root/tests/device/cuda" \
  "$root/tests/device/spm/spm_device_check.cu" -o "$out/spm_device_check" -ldl \
  -L/usr/local/cuda/lib64/stubs -lcuda
ls -la "$out"
