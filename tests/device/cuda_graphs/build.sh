#!/usr/bin/env bash
# Builds, on the development machine, what run.sh and run_nodes.sh need on the GPU machine (issue 12's graph,
# stream, context and NVTX checks): nvcc builds of graph_workload, streams_contexts, graph_changes,
# graph_children, nvtx_other_thread and graph_probe (sm_90), the CLI and the libraries of <build-dir>
# stripped, the Python package and its graph test. Usage:
#   tests/device/cuda_graphs/build.sh <build-dir> <out-dir>      (e.g. build /work/main/build-device-graphs)
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
build=$(cd "$1" && pwd)
out=$2
here=$root/tests/device/cuda_graphs
export PATH="$PATH:/usr/local/cuda/bin"
ninja -C "$build" opengpa opengpa_inject_cuda OpenGPAProfile GPUPerfAPICUDA GPUPerfAPICounters
mkdir -p "$out/bin" "$out/lib" "$out/workload" "$out/tests/device/python"
for program in graph_workload streams_contexts graph_changes graph_children nvtx_other_thread; do
  nvcc -O2 -std=c++17 -arch=sm_90 -I"$here" "$here/$program.cu" -o "$out/workload/$program" -lcuda
done
nvcc -O2 -std=c++17 -arch=sm_90 -I"$build/rooms/nvidia" -I"$build/rooms/platform" -I"$root/include" -I"$here" \
  "$here/graph_probe.cu" \
  -o "$out/workload/graph_probe" "$build/src/nvidia/libopengpa_nvidia_cupti.a" \
  "$build/src/platform/libopengpa_platform.a" "$build/src/nvidia/libopengpa_nvidia_cuda_driver.a" -lcupti -lcuda -ldl
strip -o "$out/bin/opengpa" "$build/bin/opengpa"
for library in libopengpa_inject_cuda.so libOpenGPAProfile.so libGPUPerfAPICUDA.so libGPUPerfAPICounters.so; do
  strip --strip-debug -o "$out/lib/$library" "$build/lib/$library"
done
"$root/tests/device/soname_copies.sh" "$out/lib"  # libopengpa_inject_cuda.so needs libOpenGPAProfile.so.3
rm -rf "$out/python" && cp -r "$root/python" "$out/python"
cp "$root"/tests/device/python/test_graph_kernels_device.py "$out/tests/device/python/"
cp "$here/check_profiles.py" "$here/check_torch_graph.py" "$here/torch_graph.py" "$here/run.sh" "$here/run_nodes.sh" "$out/"
