#!/usr/bin/env bash
# Configures and builds OpenGPA into ${OPENGPA_BUILD_DIR:-build}. The CUDA backend is built whenever the
# CUDA toolkit (with CUPTI) is present, GPU or not: its host-only tests run without a GPU.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${OPENGPA_BUILD_DIR:-$root/build}
export PATH="$PATH:/usr/local/cuda/bin"
# Let ccache reuse objects across checkouts of the tree (CI clones afresh each time): paths relative to the root.
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${OPENGPA_BUILD_TYPE:-RelWithDebInfo}" "$@" >/dev/null
cmake --build "$build" -j "$(nproc)"
