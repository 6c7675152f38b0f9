#!/usr/bin/env bash
# Builds, on the development machine (no GPU needed), what run.sh executes on the GPU machine, into <out-dir>:
# bin/opengpa, lib/libGPUPerfAPICUDA.so, lib/libopengpa_inject_cuda.so and lib/libOpenGPAProfile.so (debug info
# stripped), and the device programs gputime_device_check and timebase_probe (nvcc -arch=sm_90).
#   tests/device/gputime/build.sh [build-dir] [out-dir]   (defaults build-device-gputime, <build-dir>/out)
# A build dir that is already configured is reused as it is (any build type); a new one is configured Release.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-$root/build-device-gputime}
out=${2:-$build/out}
export PATH="$PATH:/usr/local/cuda/bin" CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
if [[ ! -f $build/CMakeCache.txt ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DOPENGPA_BUILD_TESTS=OFF \
    -DOPENGPA_BUILD_BENCHMARKS=OFF >/dev/null
fi
ninja -C "$build" -j2 GPUPerfAPICUDA OpenGPAProfile opengpa opengpa_inject_cuda
mkdir -p "$out/bin" "$out/lib"
cp "$build/tools/opengpa/opengpa" "$out/bin/" 2>/dev/null || cp "$build/bin/opengpa" "$out/bin/"
# The injection library needs libOpenGPAProfile.so beside it (its RUNPATH has $ORIGIN).
cp "$build/lib/libGPUPerfAPICUDA.so" "$build/lib/libOpenGPAProfile.so" \
  "$(find "$build" -name libopengpa_inject_cuda.so | head -n 1)" "$out/lib/"
strip --strip-debug "$out/bin/opengpa" "$out/lib/"*.so
"$root/tests/device/soname_copies.sh" "$out/lib"  # the libraries' SONAMEs (.so.3), which programs ask for
for program in gputime_device_check timebase_probe; do
  nvcc -O3 -std=c++17 -arch=sm_90 -I"$root/include" "$root/tests/device/gputime/$program.cu" -o "$out/$program" \
    -L"$out/lib" -lGPUPerfAPICUDA -L/usr/local/cuda/lib64/stubs -lcuda -ldl \
    -Xlinker -rpath -Xlinker '$ORIGIN/lib'
done
ls -la "$out" "$out/bin" "$out/lib"
