#!/usr/bin/env bash
# The main job: install what is missing, build everything, then profile a real workload on the best
# device present: an NVIDIA GPU through CUDA/CUPTI when one answers, and always a Vulkan workload on the
# best Vulkan device (a discrete GPU if present, else Mesa's software lavapipe).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${OPENGPA_BUILD_DIR:-$root/build}
"$root/scripts/install_deps.sh"
OPENGPA_BUILD_TYPE=${OPENGPA_BUILD_TYPE:-Release} "$root/scripts/configure.sh"
export LD_LIBRARY_PATH="$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
out=${OPENGPA_OUT_DIR:-$root/out}
mkdir -p "$out"

if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 && [[ -x "$build/samples/cuda/opengpa_cuda_sample" ]]; then
  echo "== CUDA workload on $(nvidia-smi -L | head -n 1)"
  # libcupti loads libnvperf_host.so from the loader's path.
  for cupti_dir in /usr/local/cuda/extras/CUPTI/lib64 /usr/local/cuda/lib64; do
    [[ -d $cupti_dir ]] && export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$cupti_dir"
  done
  "$build/samples/cuda/opengpa_cuda_sample" | tee "$out/cuda_counters.txt"
fi

echo "== Vulkan workload"
"$build/samples/vulkan/opengpa_vk_sample" --csv "$out/vulkan_counters.csv"
echo "CSV written under $out"
