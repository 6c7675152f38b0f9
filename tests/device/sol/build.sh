#!/usr/bin/env bash
# Builds, on the development machine (no GPU needed), what run.sh executes on the GPU machine, into
# <build-dir>/out: libGPUPerfAPICUDA.so (Release, no debug info, with catalogs/cuda_sol.json embedded) and
# sol_device_check (sm_90). Usage: tests/device/sol/build.sh [build-dir]   (default build-device-sol)
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-$root/build-device-sol}
out=$build/out
export PATH="$PATH:/usr/local/cuda/bin"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DOPENGPA_BUILD_TESTS=OFF \
  -DOPENGPA_BUILD_BENCHMARKS=OFF >/dev/null
ninja -C "$build" -j2 GPUPerfAPICUDA
mkdir -p "$out"
cp "$build/lib/libGPUPerfAPICUDA.so" "$out/"
"$root/tests/device/soname_copies.sh" "$out"  # the libraries' SONAMEs (.so.3), which programs ask for
nvcc -O3 -std=c++17 -arch=sm_90 -I"$root/include" -I"$root/tests/device/sol" \
  "$root/tests/device/sol/sol_device_check.cu" -o "$out/sol_device_check" \
  -L"$out" -lGPUPerfAPICUDA -L/usr/local/cuda/lib64/stubs -lcuda -Xlinker -rpath -Xlinker '$ORIGIN'
ls -la "$out"
