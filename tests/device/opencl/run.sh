#!/usr/bin/env bash
# The OpenCL tests and sample of libGPUPerfAPICL.so against a real GPU driver: the NVIDIA OpenCL platform of
# the device machine. In CI the same tests run on PoCL through ctest.
#
# Build here first (see tests/device/opengl/run.sh; targets GPUPerfAPICL opengpa_opencl_tests
# opengpa_cl_sample), then through the device tool, carrying .gl (it holds the ICD loader,
# ocl-icd-libopencl1) and the build folder:
#   for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; tests/device/opencl/run.sh build-device-glcl
# Without an ICD file naming the NVIDIA library, this script writes /etc/OpenCL/vendors/nvidia.icd.
# Results go to $OUT (the device tool's folder) or out/device-opencl.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-$root/build-device-glcl}
[[ $build = /* ]] || build=$root/$build
out=${OUT:-$root/out/device-opencl}
mkdir -p "$out"

tests=$build/tests/opencl/opengpa_opencl_tests
sample=$build/samples/opencl/opengpa_cl_sample
if [[ ! -x $tests || ! -x $sample || ! -e $build/lib/libGPUPerfAPICL.so ]]; then
  echo "run.sh: no built OpenCL tests under $build (see the header of this script)" >&2
  exit 1
fi
if ! grep -qs nvidia /etc/OpenCL/vendors/*.icd; then
  library=$(ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}')
  [[ -n $library ]] || library=$(find /usr/local/nvidia /usr/lib /usr/lib64 -name 'libnvidia-opencl.so.1' 2>/dev/null | head -n 1)
  if [[ -z $library ]]; then
    echo "run.sh: libnvidia-opencl.so.1 not found; no NVIDIA OpenCL platform" >&2
    exit 1
  fi
  mkdir -p /etc/OpenCL/vendors
  echo "$library" >/etc/OpenCL/vendors/nvidia.icd
  echo "run.sh: wrote /etc/OpenCL/vendors/nvidia.icd -> $library"
fi
export OPENGPA_TEST_CL_PLATFORM=${OPENGPA_TEST_CL_PLATFORM:-NVIDIA}  # fail, not pass, without the NVIDIA platform

status=0
"$tests" --gtest_output="xml:$out/opencl_tests.xml" >"$out/opencl_tests.txt" 2>&1 || status=1
tail -n 40 "$out/opencl_tests.txt"
"$sample" --platform NVIDIA --csv "$out/opencl_counters.csv" >"$out/opencl_sample.txt" 2>&1 || status=1
cat "$out/opencl_sample.txt" "$out/opencl_counters.csv"
echo "run.sh: OpenCL results in $out (status $status)"
exit $status
