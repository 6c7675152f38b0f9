#!/usr/bin/env bash
# Builds, on the development machine (no GPU needed), what run.sh executes on the GPU machine:
#   <out>/libOpenGPAMonitor.so, <out>/monitor_device_check (CUDA, sm_90), <out>/opengpa (the CLI).
# Usage: tests/device/monitor/build.sh [build-dir]   (default build-device-monitor; outputs in <build-dir>/out)
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-$root/build-device-monitor}
out=$build/out
export PATH="$PATH:/usr/local/cuda/bin"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DOPENGPA_BUILD_TESTS=OFF \
  -DOPENGPA_BUILD_BENCHMARKS=OFF >/dev/null
ninja -C "$build" -j2 OpenGPAMonitor opengpa_monitor
mkdir -p "$out"
cp "$build/lib/libOpenGPAMonitor.so" "$out/"
"$root/tests/device/soname_copies.sh" "$out"  # libOpenGPAMonitor.so.3, which the program asks for
nvcc -O3 -std=c++17 -arch=sm_90 -I"$root/include" -I"$root/tests/device/monitor" \
  "$root/tests/device/monitor/monitor_device_check.cu" -o "$out/monitor_device_check" \
  -L"$out" -lOpenGPAMonitor -Xlinker -rpath -Xlinker '$ORIGIN'
# The monitor and the CUDA library in one process (one_process_check.cu), when this build has the CUDA library.
if ninja -C "$build" -j2 GPUPerfAPICUDA >/dev/null 2>&1; then
  cp "$build/lib/libGPUPerfAPICUDA.so" "$out/"
  "$root/tests/device/soname_copies.sh" "$out"  # the libraries' SONAMEs (.so.3), which programs ask for
  nvcc -O3 -std=c++17 -arch=sm_90 -I"$root/include" "$root/tests/device/monitor/one_process_check.cu" \
    -o "$out/one_process_check" -L"$out" -lOpenGPAMonitor -lGPUPerfAPICUDA -L/usr/local/cuda/lib64/stubs -lcuda \
    -Xlinker -rpath -Xlinker '$ORIGIN'
fi
# The CLI: the whole tool when it builds; otherwise its entry point with the monitor command alone (the
# same main.cc and monitor_command.cc), so the device run never depends on the other subcommands.
if ninja -C "$build" -j2 opengpa >/dev/null 2>&1; then
  cp "$build/bin/opengpa" "$out/opengpa"
  echo "CLI: full opengpa"
else
  # The monitor's own link line (src/monitor/CMakeLists.txt): the NVIDIA layer and the platform below it.
  g++ -std=c++17 -O2 -DFMT_HEADER_ONLY -I"$root/include" -I"$root/src" -I"$root/tools/opengpa" \
    "$root/tools/opengpa/main.cc" "$root/tools/opengpa/monitor_command.cc" "$root/tools/opengpa/output_file.cc" \
    "$root/tools/opengpa/name_matching.cc" \
    -o "$out/opengpa" "$build/src/monitor/libopengpa_monitor.a" \
    $(ls "$build"/src/nvidia/libopengpa_nvidia_{pm_sampling,cuda_driver,nvml}.a 2>/dev/null) \
    "$build/src/platform/libopengpa_platform.a" -ldl -lpthread
  echo "CLI: opengpa with the monitor command only (the full tool did not build)"
fi
ls -la "$out"
