#!/usr/bin/env bash
# The Vulkan tests and sample of libGPUPerfAPIVK.so against a real GPU driver (the NVIDIA H100 of the
# device machine); in CI the same tests run on lavapipe through ctest.
#
# Build here first (the device machine has no gtest/fmt development files), in Release without debug info:
#   cmake -G Ninja -B build-device-vk -S . -DCMAKE_BUILD_TYPE=Release
#   ninja -C build-device-vk GPUPerfAPIVK opengpa_vulkan_tests opengpa_vk_sample
# then through the device tool, carrying .gl and build-device-vk/{lib,tests/vulkan,samples/vulkan}:
#   for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; tests/device/vulkan/run.sh build-device-vk
# Results (gtest XML, the sample's table and CSV) go to $OUT (the device tool's folder) or out/device-vulkan.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-$root/build-device-vk}
[[ $build = /* ]] || build=$root/$build
out=${OUT:-$root/out/device-vulkan}
mkdir -p "$out"

tests=$build/tests/vulkan/opengpa_vulkan_tests
sample=$build/samples/vulkan/opengpa_vk_sample
if [[ ! -x $tests || ! -x $sample || ! -e $build/lib/libGPUPerfAPIVK.so ]]; then
  echo "run.sh: no built Vulkan tests under $build; configuring and building them" >&2
  cmake -G Ninja -B "$build" -S "$root" -DCMAKE_BUILD_TYPE=Release >/dev/null
  ninja -C "$build" GPUPerfAPIVK opengpa_vulkan_tests opengpa_vk_sample
fi

# The NVIDIA ICD when it is where the device machine mounts it; otherwise whatever the loader finds.
nvidia_icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [[ -z ${VK_DRIVER_FILES:-} && -e $nvidia_icd ]]; then export VK_DRIVER_FILES=$nvidia_icd; fi
if ! ldconfig -p | grep -q 'libvulkan.so.1'; then
  echo "run.sh: no Vulkan loader (libvulkan.so.1); unpack .gl/*.deb first (see the header of this script)" >&2
  exit 1
fi

command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
# These suites pin the timestamp and pipeline-statistics path on a real driver (and its one pass); the GPU
# periodic sampler's hardware counters have their own suite, tests/device/graphics/run.sh.
export OPENGPA_GRAPHICS_HARDWARE_COUNTERS=0
status=0
"$tests" --gtest_output="xml:$out/vulkan_tests.xml" 2>&1 | tee "$out/vulkan_tests.txt" || status=1
"$sample" --csv "$out/vulkan_counters.csv" 2>&1 | tee "$out/vulkan_sample.txt" || status=1
echo "run.sh: results in $out (status $status)"
exit $status
