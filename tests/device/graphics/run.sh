#!/usr/bin/env bash
# The graphics hardware counters (PerfWorks' GPU periodic sampler) of libGPUPerfAPIVK.so and libGPUPerfAPIGL.so on
# an NVIDIA GPU: the probe that chose how samples are delimited, then the device tests (truth beside every value).
#
# Build here first (the device machine has no gtest/fmt development files), in Release:
#   cmake -G Ninja -B build-device-gfx -S . -DCMAKE_BUILD_TYPE=Release -DOPENGPA_WITH_CUDA=OFF
#   ninja -C build-device-gfx GPUPerfAPIVK GPUPerfAPIGL NvPmApiCore opengpa_graphics_vk_device_tests \
#         opengpa_graphics_gl_device_tests opengpa_graphics_nvpm_device_tests opengpa_sampler_probe \
#         opengpa_vk_streaming_check opengpa_gl_streaming_check
# then through the device tool, carrying .gl, build-device-gfx/lib and build-device-gfx/tests/device/graphics:
#   for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; tests/device/graphics/run.sh build-device-gfx
# Results go to $OUT (the device tool's folder) or out/device-graphics.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-$root/build-device-gfx}
[[ $build = /* ]] || build=$root/$build
out=${OUT:-$root/out/device-graphics}
mkdir -p "$out"
bin=$build/tests/device/graphics
nvidia_icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
nvidia_egl=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
[[ -z ${VK_DRIVER_FILES:-} && -e $nvidia_icd ]] && export VK_DRIVER_FILES=$nvidia_icd
[[ -z ${__EGL_VENDOR_LIBRARY_FILENAMES:-} && -e $nvidia_egl ]] && export __EGL_VENDOR_LIBRARY_FILENAMES=$nvidia_egl
export OPENGPA_EGL_PLATFORM=device OPENGPA_TEST_GL_RENDERER=${OPENGPA_TEST_GL_RENDERER:-NVIDIA}
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
status=0
# OPENGPA_GRAPHICS_PROBE: all (default), vk, gl or none.
if [[ ${OPENGPA_GRAPHICS_PROBE:-all} != none ]]; then
  "$bin/opengpa_sampler_probe" "${OPENGPA_GRAPHICS_PROBE:-all}" >"$out/sampler_probe.txt" 2>&1 || status=1
  cat "$out/sampler_probe.txt"
fi
# GPA 4's streaming counters on Vulkan (GpaSpm*, the sampler sampling by time).
"$bin/opengpa_vk_streaming_check" >"$out/vk_streaming_check.txt" 2>&1 || status=1
cat "$out/vk_streaming_check.txt"
"$bin/opengpa_gl_streaming_check" >"$out/gl_streaming_check.txt" 2>&1 || status=1
cat "$out/gl_streaming_check.txt"
for api in vk gl nvpm; do
  "$bin/opengpa_graphics_${api}_device_tests" --gtest_output="xml:$out/graphics_${api}_device_tests.xml" "${@:2}" \
    >"$out/graphics_${api}_device_tests.txt" 2>&1 || status=1
  cat "$out/graphics_${api}_device_tests.txt"
done
# OPENGPA_GRAPHICS_BENCH=1: the frame-cost benchmark (bench/graphics/vk_frame_cost.cc) too.
if [[ ${OPENGPA_GRAPHICS_BENCH:-0} == 1 ]]; then
  for frame in many few; do
    "$build/bench/opengpa_bench_vk_frame_cost" $frame 2>&1 | tee -a "$out/vk_frame_cost.txt" || status=1
  done
fi
echo "run.sh: results in $out (status $status)"
exit $status
