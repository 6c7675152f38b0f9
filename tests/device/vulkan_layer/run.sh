#!/usr/bin/env bash
# VK_LAYER_OPENGPA_gpa_interface on a real GPU driver (the NVIDIA H100 of the device machine): the layer's own
# tests (its GPU periodic sampler block among them: known work counted exactly), then libGPUPerfAPIVK's tests with
# the layer in between (the device created with AMD's required extension list), then opengpa_vk_sample through core
# queries and through the layer, whose hardware counts must be equal (compare_paths.py). In CI the same tests run on
# lavapipe through ctest.
#
# Build here first (Release), e.g.:
#   cmake -G Ninja -B build-device-layer/build -S . -DCMAKE_BUILD_TYPE=Release -DOPENGPA_WITH_CUDA=OFF
#   ninja -C build-device-layer/build VkLayer_opengpa_gpa_interface GPUPerfAPIVK opengpa_vulkan_tests \
#         opengpa_vulkan_layer_tests opengpa_vk_sample
# then through the device tool, carrying that build folder and a Vulkan loader package (libvulkan1 .deb):
#   for f in <debs>/*.deb; do dpkg -x $f /; done; ldconfig; tests/device/vulkan_layer/run.sh build-device-layer/build
# Results (gtest XML and text) go to $OUT (the device tool's folder) or out/device-vulkan-layer.
set -uo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:?usage: run.sh BUILD_FOLDER}
[[ $build = /* ]] || build=$PWD/$build
out=${OUT:-$root/out/device-vulkan-layer}
mkdir -p "$out"

nvidia_icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [[ -z ${VK_DRIVER_FILES:-} && -e $nvidia_icd ]]; then export VK_DRIVER_FILES=$nvidia_icd; fi
if ! ldconfig -p | grep -q 'libvulkan.so.1'; then
  echo "run.sh: no Vulkan loader (libvulkan.so.1); unpack a libvulkan1 package first" >&2
  exit 1
fi
# What the driver says of VK_KHR_performance_query (features, properties), without the layer.
if command -v vulkaninfo >/dev/null; then
  vulkaninfo 2>/dev/null >"$out/vulkaninfo.txt"
  grep -n -i -A4 'performance_query\|PerformanceQuery' "$out/vulkaninfo.txt" | head -40
fi
# The tests write what they measured (performance_counters.tsv, driver_performance_counters.tsv) under $OUT.
export OUT=$out
export VK_ADD_LAYER_PATH=$build/src/vulkan_layer VK_INSTANCE_LAYERS=VK_LAYER_OPENGPA_gpa_interface
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,clocks.gr,clocks.max.gr,clocks.mem,clocks.max.mem --format=csv,noheader || true
status=0
"$build/tests/vulkan_layer/opengpa_vulkan_layer_tests" --gtest_output="xml:$out/layer_tests.xml" 2>&1 |
  tee "$out/layer_tests.txt" || status=1
# libGPUPerfAPIVK's suite pins the timestamp and pipeline-statistics path (one pass), as tests/device/vulkan/run.sh
# runs it: without the sampler's counters (they have their own suite, tests/device/graphics/run.sh).
OPENGPA_GRAPHICS_HARDWARE_COUNTERS=0 "$build/tests/vulkan/opengpa_vulkan_tests" \
  --gtest_output="xml:$out/vulkan_tests_through_layer.xml" 2>&1 |
  tee "$out/vulkan_tests_through_layer.txt" || status=1
# The sample twice, on the same GPU: core queries, then the layer's VK_AMD_gpa_interface (libGPUPerfAPIVK records
# through the extension where the layer provides it).
sample=$build/samples/vulkan/opengpa_vk_sample
if [[ -x $sample ]]; then
  env -u VK_INSTANCE_LAYERS "$sample" --csv "$out/sample_core.csv" >"$out/sample_core.txt" 2>&1 || status=1
  "$sample" --csv "$out/sample_layer.csv" >"$out/sample_layer.txt" 2>&1 || status=1
  python3 "$root/tests/device/vulkan_layer/compare_paths.py" "$out/sample_core.csv" "$out/sample_layer.csv" \
    >"$out/sample_paths.txt" 2>&1 || status=1
  tail -n 1 "$out/sample_paths.txt"
fi
echo "run.sh: results in $out (status $status)"
exit $status
