#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds everything, checks the software GPUs that the
# tests need are really there (so a missing driver fails loudly instead of skipping), runs ctest, the style
# checks (scripts/check_style.sh), then the sanitizer builds and fuzzers (scripts/sanitize.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install_deps.sh"
"$root/scripts/configure.sh"
"$root/scripts/check_software_gpus.sh"
build=${OPENGPA_BUILD_DIR:-$root/build}
cd "$build"
ctest --output-on-failure -j "$(nproc)" --timeout 600
# clang-format, clang-tidy (cached: only what changed is checked again) and flake8 over the tree (docs/style.md).
# OPENGPA_STYLE=format,flake8 runs only those, OPENGPA_STYLE=0 none (a quick local run).
OPENGPA_STYLE=${OPENGPA_STYLE:-format,tidy,flake8} "$root/scripts/check_style.sh" "$build"
# Then ASan+UBSan, TSan and short fuzzing runs in builds of their own (docs/sanitizers.md).
# OPENGPA_SANITIZERS=0 leaves them out of a quick local run; CI always runs them.
if [[ ${OPENGPA_SANITIZERS:-1} != 0 ]]; then
  "$root/scripts/sanitize.sh"
fi
