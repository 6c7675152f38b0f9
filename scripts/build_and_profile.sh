#!/usr/bin/env bash
# The main job: install what is missing, build what the job needs (the two samples and the GPA libraries they
# load; the test suite builds the rest), then profile a real workload on the best device present: an NVIDIA GPU
# through CUDA/CUPTI when one answers, and always a Vulkan workload on the best Vulkan device (a discrete GPU if
# present, else Mesa's software lavapipe). The build shows its progress (ninja's [done/total] lines).
#
# It shares one build folder and build type with scripts/test.sh (both run scripts/configure.sh with the
# same settings), so whichever runs second only builds what is missing. What it skips, it says, with why.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${OPENGPA_BUILD_DIR:-$root/build}
"$root/scripts/install_deps.sh"
OPENGPA_CONFIGURE_ONLY=1 "$root/scripts/configure.sh"
# The samples depend on the libraries they load at run time (samples/*/CMakeLists.txt), so these two targets are
# the whole job; the CUDA sample exists only where the CUDA toolkit was found.
targets=(opengpa_vk_sample)
available=$(cmake --build "$build" --target help)
if grep -q '^opengpa_cuda_sample:' <<<"$available"; then targets+=(opengpa_cuda_sample); fi
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}"
export LD_LIBRARY_PATH="$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
out=${OPENGPA_OUT_DIR:-$root/out}
mkdir -p "$out"

# Why the CUDA workload cannot run here; empty when it can.
cuda_skip_reason() {
  if [[ ! -x $build/samples/cuda/opengpa_cuda_sample ]]; then
    echo "the CUDA sample was not built (no CUDA toolkit with CUPTI found at configure time; see the cmake output)"
  elif ! command -v nvidia-smi >/dev/null 2>&1; then
    echo "no NVIDIA driver (nvidia-smi is not installed)"
  elif ! nvidia-smi -L >/dev/null 2>&1; then
    echo "nvidia-smi finds no usable NVIDIA GPU ($(nvidia-smi -L 2>&1 | head -n 1))"
  fi
}

reason=$(cuda_skip_reason)
if [[ -z $reason ]]; then
  echo "== CUDA workload on $(nvidia-smi -L | head -n 1)"
  "$build/samples/cuda/opengpa_cuda_sample" | tee "$out/cuda_counters.txt"
else
  echo "== CUDA workload skipped: $reason"
fi

echo "== Vulkan workload"
"$build/samples/vulkan/opengpa_vk_sample" --csv "$out/vulkan_counters.csv"
echo "CSV written under $out"
