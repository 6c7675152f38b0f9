#!/usr/bin/env bash
# The CI tests run real draws, dispatches and kernels on Mesa's lavapipe (Vulkan), llvmpipe (OpenGL via EGL)
# and PoCL (OpenCL). If one of them is missing the tests would have nothing to measure: fail here instead.
set -euo pipefail
fail=0
if ! ls /usr/share/vulkan/icd.d/lvp_icd*.json >/dev/null 2>&1; then
  echo "check_software_gpus: lavapipe ICD (mesa-vulkan-drivers) not found" >&2; fail=1
fi
if ! ls /usr/lib/*/libEGL_mesa.so.0 >/dev/null 2>&1; then
  echo "check_software_gpus: Mesa EGL (libegl-mesa0) not found" >&2; fail=1
fi
if ! ls /etc/OpenCL/vendors/pocl.icd >/dev/null 2>&1; then
  echo "check_software_gpus: PoCL ICD (pocl-opencl-icd) not found" >&2; fail=1
fi
exit $fail
