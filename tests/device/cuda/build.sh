#!/usr/bin/env bash
# Builds, on the development machine (no GPU needed), what run.sh executes on the GPU machine, into
# <build-dir>/out: libGPUPerfAPICUDA.so (Release, no debug info), cuda_device_check (sm_90) and the
# CUDA sample. Usage: tests/device/cuda/build.sh [build-dir]   (default build-device-cuda)
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-$root/build-device-cuda}
out=$build/out
export PATH="$PATH:/usr/local/cuda/bin"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DOPENGPA_BUILD_TESTS=OFF \
  -DOPENGPA_BUILD_BENCHMARKS=OFF -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
ninja -C "$build" -j2 GPUPerfAPICUDA opengpa_cuda_sample
mkdir -p "$out"
cp "$build/lib/libGPUPerfAPICUDA.so" "$build/samples/cuda/opengpa_cuda_sample" "$out/"
"$root/tests/device/soname_copies.sh" "$out"  # the libraries' SONAMEs (.so.3), which programs ask for
nvcc -O3 -std=c++17 -arch=sm_90 -I"$root/include" -I"$root/tests/device/cuda" \
  "$root/tests/device/cuda/cuda_device_check.cu" -o "$out/cuda_device_check" \
  -L"$out" -lGPUPerfAPICUDA -L/usr/local/cuda/lib64/stubs -lcuda -Xlinker -rpath -Xlinker '$ORIGIN'
ls -la "$out"
