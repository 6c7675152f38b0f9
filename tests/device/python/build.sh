#!/usr/bin/env bash
# Builds, on the development machine, the libraries run.sh loads on the GPU machine: Release, into
# <build-dir>/lib (default build-device-python). The package itself is pure Python (python/opengpa) and
# travels with the working tree. Usage: tests/device/python/build.sh [build-dir]
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-$root/build-device-python}
export PATH="$PATH:/usr/local/cuda/bin" CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DOPENGPA_BUILD_TESTS=OFF \
  -DOPENGPA_BUILD_SAMPLES=OFF -DOPENGPA_BUILD_BENCHMARKS=OFF >/dev/null
ninja -C "$build" -j2 GPUPerfAPICUDA GPUPerfAPICounters OpenGPAMonitor opengpa_inject_cuda
ls -la "$build/lib"
