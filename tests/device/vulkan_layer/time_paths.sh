#!/usr/bin/env bash
# GPUTime of opengpa_vk_sample's samples through core queries and through the layer, ROUNDS times alternated (one
# process each: a single run's times move with the GPU's clocks), beside the same samples with timestamps only
# (OPENGPA_GRAPHICS_HARDWARE_COUNTERS=0, no sampler triggers in the command buffers), through each path:
# time_paths.py compares the medians. Needs the Vulkan loader (see run.sh) and the layer built in BUILD.
#   tests/device/vulkan_layer/time_paths.sh BUILD [ROUNDS]      results in $OUT or out/device-vulkan-layer
# COUNTERS=NAME,... enables only those counters (opengpa_vk_sample --counters; default every counter). Each run's
# output (its pass count; with OPENGPA_SAMPLER_TRACE=1 the sampler's intervals and each sample's timestamps) is kept
# beside its CSV as KIND_ROUND.log.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: time_paths.sh BUILD [ROUNDS]}" && pwd)
rounds=${2:-5}
out=${OUT:-$here/../../../out/device-vulkan-layer}
mkdir -p "$out/times"
nvidia_icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[[ -z ${VK_DRIVER_FILES:-} && -e $nvidia_icd ]] && export VK_DRIVER_FILES=$nvidia_icd
sample=("$build/samples/vulkan/opengpa_vk_sample")
[[ -n ${COUNTERS:-} ]] && sample+=(--counters "$COUNTERS")
layer=(env VK_ADD_LAYER_PATH="$build/src/vulkan_layer" VK_INSTANCE_LAYERS=VK_LAYER_OPENGPA_gpa_interface)
times=$out/times
for round in $(seq "$rounds"); do
  "${sample[@]}" --csv "$times/core_$round.csv" >"$times/core_$round.log" 2>&1 || echo "core run $round failed"
  "${layer[@]}" "${sample[@]}" --csv "$times/layer_$round.csv" >"$times/layer_$round.log" 2>&1 ||
    echo "layer run $round failed"
  OPENGPA_GRAPHICS_HARDWARE_COUNTERS=0 "${sample[@]}" --csv "$times/plain_$round.csv" >"$times/plain_$round.log" 2>&1 ||
    echo "timestamps-only run $round failed"
  OPENGPA_GRAPHICS_HARDWARE_COUNTERS=0 "${layer[@]}" "${sample[@]}" --csv "$times/layerplain_$round.csv" \
    >"$times/layerplain_$round.log" 2>&1 || echo "timestamps-only layer run $round failed"
done
python3 "$here/time_paths.py" "$times"
