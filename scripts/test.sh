#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds everything, checks the software GPUs that the
# tests need are really there (so a missing driver fails loudly instead of skipping), runs ctest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install_deps.sh"
"$root/scripts/configure.sh"
"$root/scripts/check_software_gpus.sh"
build=${OPENGPA_BUILD_DIR:-$root/build}
cd "$build"
ctest --output-on-failure -j "$(nproc)" --timeout 600
