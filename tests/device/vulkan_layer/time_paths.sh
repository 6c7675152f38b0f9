#!/usr/bin/env bash
# GPUTime of opengpa_vk_sample's samples through core queries and through the layer, ROUNDS times alternated (one
# process each: a single run's times move with the GPU's clocks), beside the same samples with timestamps only
# (OPENGPA_GRAPHICS_HARDWARE_COUNTERS=0, no sampler triggers in the command buffers): time_paths.py compares the
# medians. Needs the Vulkan loader (see run.sh) and the layer built in BUILD.
#   tests/device/vulkan_layer/time_paths.sh BUILD [ROUNDS]      results in $OUT or out/device-vulkan-layer
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: time_paths.sh BUILD [ROUNDS]}" && pwd)
rounds=${2:-5}
out=${OUT:-$here/../../../out/device-vulkan-layer}
mkdir -p "$out/times"
nvidia_icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[[ -z ${VK_DRIVER_FILES:-} && -e $nvidia_icd ]] && export VK_DRIVER_FILES=$nvidia_icd
sample=$build/samples/vulkan/opengpa_vk_sample
layer=(env VK_ADD_LAYER_PATH="$build/src/vulkan_layer" VK_INSTANCE_LAYERS=VK_LAYER_OPENGPA_gpa_interface)
for round in $(seq "$rounds"); do
  "$sample" --csv "$out/times/core_$round.csv" >/dev/null 2>&1 || echo "core run $round failed"
  "${layer[@]}" "$sample" --csv "$out/times/layer_$round.csv" >/dev/null 2>&1 || echo "layer run $round failed"
  OPENGPA_GRAPHICS_HARDWARE_COUNTERS=0 "$sample" --csv "$out/times/plain_$round.csv" >/dev/null 2>&1 ||
    echo "timestamps-only run $round failed"
done
python3 "$here/time_paths.py" "$out/times"
