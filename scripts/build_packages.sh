#!/usr/bin/env bash
# Builds OpenGPA's Debian packages from a build folder and checks them (docs/packaging.md):
#
#   scripts/build_packages.sh [--light] [--build-only] [BUILD_DIR] [OUT_DIR]
#
# BUILD_DIR (default build/) must be built (the installed targets and opengpa_man_page); OUT_DIR (default
# BUILD_DIR/packages) is emptied and gets the .deb files and, unless --light, the -dbgsym .ddeb files.
#   --light       no -dbgsym packages (CPack strips the files itself): seconds instead of a minute or two; what
#                 the ctest tests/install uses. The full build is what a release ships.
#   --build-only  only cpack; otherwise the packages are then checked: their layout and versions
#                 (tests/install/debian_packages_check.py layout), Depends against every NEEDED entry
#                 (scripts/check_package_depends.py), a downstream project built against the extracted -dev and
#                 runtime packages (debian_packages_check.py downstream), and lintian with errors and warnings
#                 both failing (justified findings are overridden in packaging/debian/*.lintian-overrides).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
light=0 checks=1
while [[ ${1:-} == --* ]]; do
  case $1 in
    --light) light=1 ;;
    --build-only) checks=0 ;;
    *) echo "build_packages.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
build=$(cd "${1:-$root/build}" && pwd)
out=${2:-$build/packages}
[[ -f $build/CPackConfig.cmake ]] || { echo "build_packages.sh: $build has no CPackConfig.cmake (configure it first)" >&2; exit 2; }
command -v dpkg-deb >/dev/null || { echo "build_packages.sh: dpkg-deb is not installed" >&2; exit 77; }

rm -rf "$out"
mkdir -p "$out"
options=()
((light)) && options=(-D CPACK_DEBIAN_DEBUGINFO_PACKAGE=OFF -D CPACK_STRIP_FILES=ON)
start=$SECONDS
# CPack's own developer warnings (the plugins' unversioned SONAMEs have no shlibs line, on purpose) are left out.
if ! (cd "$out" && cpack -G DEB -B "$out" "${options[@]}" --config "$build/CPackConfig.cmake" >"$out/cpack.log" 2>&1); then
  cat "$out/cpack.log" >&2
  echo "build_packages.sh: cpack failed" >&2
  exit 1
fi
rm -rf "$out/_CPack_Packages"
echo "built in $((SECONDS - start)) s:"
find "$out" -maxdepth 1 -name "*.deb" -o -maxdepth 1 -name "*.ddeb" | sort | while read -r package; do
  printf '  %-45s %10d bytes\n' "$(basename "$package")" "$(stat -c %s "$package")"
done
((checks)) || exit 0

python3 "$root/tests/install/debian_packages_check.py" layout "$out" "$root"
python3 "$root/scripts/check_package_depends.py" "$out"/*.deb
python3 "$root/tests/install/debian_packages_check.py" downstream "$out" "$root"
"$root/tests/install/lintian_check.sh" "$out"
