#!/usr/bin/env bash
# Builds, on the development machine, what python_run.sh executes on the GPU machine, into OUT: bin/opengpa, lib/
# (the libraries `opengpa profile` and Python's opengpa load, debug info stripped), python/ (the package) and the
# scripts.   tests/device/sampled/python_build.sh BUILD_DIR OUT
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
build=$1
out=$2
ninja -C "$build" -j2 opengpa OpenGPAProfile opengpa_inject_cuda GPUPerfAPICUDA GPUPerfAPICounters
mkdir -p "$out/bin" "$out/lib"
cp "$build/bin/opengpa" "$out/bin/"
cp "$build/lib/libOpenGPAProfile.so" "$build/lib/libopengpa_inject_cuda.so" "$build/lib/libGPUPerfAPICUDA.so" \
  "$build/lib/libGPUPerfAPICounters.so" "$out/lib/"
strip --strip-debug "$out/bin/opengpa" "$out/lib/"*.so
"$root/tests/device/soname_copies.sh" "$out/lib"
rm -rf "$out/python" && cp -r "$root/python" "$out/python"
cp "$root/tests/device/sampled/"{python_run.sh,python_sampled.py,compare_python_cli.py,nvtx_include.sh} "$out/"
du -sh "$out"
