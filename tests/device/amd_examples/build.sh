#!/usr/bin/env bash
# Builds AMD's own GPA v3.17 example programs gl_triangle and vk_color_cube (Linux, X11/XCB), unchanged, against
# AMD's v3.17 headers, into a folder that tests/device/amd_examples/run.sh runs on an NVIDIA GPU with OpenGPA's
# libraries beside them (AMD's interface loader opens libGPUPerfAPI*.so from the executable's folder).
#
#   tests/device/amd_examples/build.sh AMD_GPA_V3_17 OPENGPA_BUILD STAGE
#
# AMD_GPA_V3_17: a checkout (or `git archive v3.17-tag source/examples include`) of
#   github.com/GPUOpen-Tools/gpu_performance_api at tag v3.17-tag; nothing of it enters this repository.
# OPENGPA_BUILD: a build folder of this repository (its lib/, src/vulkan_layer/ and the test-only
#   tests/device/amd_examples/headless_present/ layer are staged, stripped).
# STAGE: the folder to fill (inside the checkout, a gitignored build-* name, to carry it to the device).
# AMD's CMake needs its whole tree and fetched dependencies, so the two programs are compiled directly with the
# definitions AMD's build gives them on Linux (_LINUX, the window system, the project name its logger prints).
set -euo pipefail
amd=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
stage=$3
mkdir -p "$stage/bin"
stage=$(cd "$stage" && pwd)
src=$amd/source
common=("$src"/examples/common/*.cc)
g++ -O2 -std=c++17 -D_LINUX -DAMDT_PROJECT_NAME='"GLTriangle"' -I"$src" -I"$amd/include" \
  "$src"/examples/opengl/gl_triangle/*.cc "${common[@]}" -o "$stage/bin/gl_triangle" -lX11 -ldl -lpthread
vk_sources=()
for f in "$src"/examples/vulkan/vk_color_cube/*.cc; do [[ $f == *android* ]] || vk_sources+=("$f"); done
g++ -O2 -std=c++17 -D_LINUX -DVK_USE_PLATFORM_XCB_KHR -DAMDT_PROJECT_NAME='"VkColorCube"' -I"$src" \
  -I"$amd/include" "${vk_sources[@]}" "${common[@]}" -o "$stage/bin/vk_color_cube" -lxcb -lX11 -ldl -lpthread -lvulkan
for shader in vk_color_cube_shader.vert vk_color_cube_shader.frag vk_color_cube_wireframe_shader.frag; do
  glslangValidator -V "$src/examples/vulkan/vk_color_cube/$shader" -o "$stage/bin/$shader.spv" >/dev/null
done
# OpenGPA's GL and Vulkan libraries (and the Vulkan layer with its manifest) beside the programs, stripped.
for lib in libGPUPerfAPIGL libGPUPerfAPIVK; do
  real=$(readlink -f "$build/lib/$lib.so")
  strip --strip-unneeded -o "$stage/bin/$lib.so" "$real"
done
strip --strip-unneeded -o "$stage/bin/libVkLayer_opengpa_gpa_interface.so" \
  "$build/src/vulkan_layer/libVkLayer_opengpa_gpa_interface.so"
cp "$build/src/vulkan_layer/VkLayer_opengpa_gpa_interface.json" "$stage/bin/"
# The test-only layer that gives vk_color_cube an off-screen swapchain where the driver cannot present (run.sh).
headless=$build/tests/device/amd_examples/headless_present
strip --strip-unneeded -o "$stage/bin/libVkLayer_opengpa_headless_present.so" \
  "$headless/libVkLayer_opengpa_headless_present.so"
cp "$headless/VkLayer_opengpa_headless_present.json" "$stage/bin/"
cp "$(dirname "$0")"/run.sh "$(dirname "$0")"/check_amd_examples.py "$stage/"
echo "staged in $stage"
