#!/usr/bin/env bash
# Configures and builds OpenGPA into ${OPENGPA_BUILD_DIR:-build}. The CUDA backend is built whenever the
# CUDA toolkit (with CUPTI) is present, GPU or not: its host-only tests run without a GPU.
#
# scripts/test.sh and scripts/build_and_profile.sh both build through here, into one folder with one build
# type, so the second of them only builds what is missing. The build type is OPENGPA_BUILD_TYPE when set;
# otherwise a configured folder keeps its own, and a new one gets RelWithDebInfo.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${OPENGPA_BUILD_DIR:-$root/build}
export PATH="$PATH:/usr/local/cuda/bin"
# Let ccache reuse objects across checkouts of the tree (CI clones afresh each time): paths relative to the root.
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
build_type=()
if [[ -n ${OPENGPA_BUILD_TYPE:-} ]]; then
  build_type=(-DCMAKE_BUILD_TYPE="$OPENGPA_BUILD_TYPE")
elif [[ ! -f $build/CMakeCache.txt ]]; then
  build_type=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
fi
cmake -S "$root" -B "$build" -G Ninja "${build_type[@]}" "$@" >/dev/null
# OPENGPA_CONFIGURE_ONLY=1: stop after configuring (tests/install checks that configuring again adds no work).
[[ ${OPENGPA_CONFIGURE_ONLY:-0} == 1 ]] && exit 0
cmake --build "$build" -j "$(nproc)"
