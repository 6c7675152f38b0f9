#!/usr/bin/env bash
# The main job (scripts/build_and_profile.sh) on this machine, into this build: it must say what it skipped
# and why, and on a software Vulkan driver mark the timing values that cannot mean per-draw GPU time.
# Usage: main_job_check.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
source_dir=$1 build=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/opengpa-main-job-XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAILED: $*" >&2; echo "--- output:" >&2; cat "$work/log" >&2; exit 1; }
env -u OPENGPA_BUILD_TYPE OPENGPA_BUILD_DIR="$build" OPENGPA_OUT_DIR="$work/out" \
  "$source_dir/scripts/build_and_profile.sh" >"$work/log" 2>&1 || fail "build_and_profile.sh failed"
if grep -q '^== CUDA workload on ' "$work/log"; then
  echo "a CUDA GPU answered: the CUDA workload ran"
else
  grep -q '^== CUDA workload skipped: ..*' "$work/log" || fail "the CUDA workload was neither run nor reported skipped"
  grep '^== CUDA workload skipped' "$work/log"
fi
[[ -s $work/out/vulkan_counters.csv ]] || fail "no Vulkan CSV"
# Whole numbers print as integers (issue 30: counts printed as "123.000").
grep -qE '(^| )[0-9]+\.000( |$)' "$work/log" && fail "a whole number printed with decimals: $(grep -m1 -E '[0-9]+\.000' "$work/log")"
device=$(sed -n 's/^Profiling on: //p' "$work/log")
if [[ $device == *llvmpipe* || $device == *lavapipe* ]]; then
  grep -q '^GPUTime \*' "$work/log" || fail "lavapipe's GPUTime is not marked"
  grep -q 'software rasterizer' "$work/log" || fail "the mark is not explained"
  grep -q '^CSThreads \*' "$work/log" && fail "a count (CSThreads) is marked although it is exact"
  # The generation by name, not kGpaHwGenerationSoftware's number (issue 30: "hardware generation 256").
  grep -q 'hardware generation software' "$work/log" || fail "the hardware generation is not named"
  echo "software device '$device': timing values marked and explained"
else
  grep -q 'software rasterizer' "$work/log" && fail "a hardware device '$device' is called a software rasterizer"
  echo "hardware device '$device': nothing marked"
fi
