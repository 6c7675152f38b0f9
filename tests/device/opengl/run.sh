#!/usr/bin/env bash
# The OpenGL tests and sample of libGPUPerfAPIGL.so against a real GPU driver: the NVIDIA driver of the
# device machine through the EGL device platform. In CI the same tests run on llvmpipe through ctest.
#
# Build here first (the device machine has no gtest/fmt development files), in Release without debug info:
#   cmake -G Ninja -B build-device-glcl -S . -DCMAKE_BUILD_TYPE=Release
#   ninja -C build-device-glcl GPUPerfAPIGL opengpa_opengl_tests opengpa_gl_sample
# then through the device tool, carrying .gl and build-device-glcl:
#   for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; tests/device/opengl/run.sh build-device-glcl
# Results (gtest XML and output, the sample's CSV) go to $OUT (the device tool's folder) or out/device-opengl.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-$root/build-device-glcl}
[[ $build = /* ]] || build=$root/$build
out=${OUT:-$root/out/device-opengl}
mkdir -p "$out"

tests=$build/tests/opengl/opengpa_opengl_tests
sample=$build/samples/opengl/opengpa_gl_sample
if [[ ! -x $tests || ! -x $sample || ! -e $build/lib/libGPUPerfAPIGL.so ]]; then
  echo "run.sh: no built OpenGL tests under $build (see the header of this script)" >&2
  exit 1
fi
if ! ldconfig -p | grep -q 'libEGL.so.1'; then
  echo "run.sh: no EGL loader (libEGL.so.1); unpack .gl/*.deb first (see the header of this script)" >&2
  exit 1
fi
# The NVIDIA EGL vendor library where the device machine mounts it.
nvidia_egl=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
if [[ -z ${__EGL_VENDOR_LIBRARY_FILENAMES:-} && -e $nvidia_egl ]]; then
  export __EGL_VENDOR_LIBRARY_FILENAMES=$nvidia_egl
fi
export OPENGPA_EGL_PLATFORM=device            # no display: the EGL device platform
export OPENGPA_TEST_GL_RENDERER=${OPENGPA_TEST_GL_RENDERER:-NVIDIA}  # fail, not pass, on a software renderer

# These suites pin the timestamp and pipeline-statistics path on a real driver (and its one pass); the GPU
# periodic sampler's hardware counters have their own suite, tests/device/graphics/run.sh.
export OPENGPA_GRAPHICS_HARDWARE_COUNTERS=0
status=0
"$tests" --gtest_output="xml:$out/opengl_tests.xml" >"$out/opengl_tests.txt" 2>&1 || status=1
tail -n 40 "$out/opengl_tests.txt"
"$sample" --csv "$out/opengl_counters.csv" >"$out/opengl_sample.txt" 2>&1 || status=1
cat "$out/opengl_sample.txt" "$out/opengl_counters.csv"
echo "run.sh: OpenGL results in $out (status $status)"
exit $status
