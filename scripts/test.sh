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
# clang-format and flake8 over the tree (docs/style.md). clang-tidy is not in CI's default yet: the tree still has
# findings (docs/style.md, "Not yet clean"); OPENGPA_STYLE=format,tidy,flake8 runs it too, OPENGPA_STYLE=0 none.
OPENGPA_STYLE=${OPENGPA_STYLE:-format,flake8} "$root/scripts/check_style.sh" "$build"
# Then ASan+UBSan, TSan and short fuzzing runs in builds of their own (docs/sanitizers.md).
# OPENGPA_SANITIZERS=0 leaves them out of a quick local run; CI always runs them.
if [[ ${OPENGPA_SANITIZERS:-1} != 0 ]]; then
  "$root/scripts/sanitize.sh"
fi
