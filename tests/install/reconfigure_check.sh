#!/usr/bin/env bash
# The README's two commands share one build: configuring a built folder again the way scripts/test.sh and
# scripts/build_and_profile.sh do (scripts/configure.sh, no build type given) keeps its build type and
# adds no work to it. Usage: reconfigure_check.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
source_dir=$1 build=$2
fail() { echo "FAILED: $*" >&2; exit 1; }
type_of() { sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$build/CMakeCache.txt"; }
for script in test.sh build_and_profile.sh; do
  grep -q '"$root/scripts/configure.sh"$' "$source_dir/scripts/$script" ||
    fail "scripts/$script does not build through scripts/configure.sh with its defaults"
done
before_type=$(type_of)
before_work=$(ninja -C "$build" -n | grep -c '^\[' || true)
env -u OPENGPA_BUILD_TYPE OPENGPA_BUILD_DIR="$build" OPENGPA_CONFIGURE_ONLY=1 "$source_dir/scripts/configure.sh"
after_type=$(type_of)
after_work=$(ninja -C "$build" -n | grep -c '^\[' || true)
[[ $after_type == "$before_type" ]] || fail "configuring again switched the build type from $before_type to $after_type"
[[ $after_work == "$before_work" ]] || fail "configuring again added work: $before_work steps before, $after_work after"
echo "ok: build type $after_type kept, $after_work build steps pending before and after"
