#!/usr/bin/env bash
# Checks what `cmake --install` and CPack make of a build (tests/install/CMakeLists.txt runs it):
#   install_check.sh package BUILD_DIR SOURCE_DIR   install into a prefix, move the prefix, build and run
#                                                   tests/install/downstream with find_package, a C program
#                                                   with pkg-config, and the installed CLI, on lavapipe
# The Debian packages have checks of their own (tests/install/debian_packages_check.py).
set -euo pipefail
mode=$1 build=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/opengpa-install-XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAILED: $*" >&2; exit 1; }

case $mode in
package)
  source_dir=$3
  cmake --install "$build" --prefix "$work/prefix" >"$work/install.log" || { cat "$work/install.log"; fail "cmake --install"; }
  for file in bin/opengpa lib/libGPUPerfAPIVK.so include/gpu_performance_api/gpu_perf_api.h \
              include/gpu_performance_api/gpu_perf_api_vk.h include/gpu_performance_api/opengpa_ext.h \
              include/opengpa/v4/gpu_performance_api/gpu_perf_api.h \
              include/opengpa/v4/gpu_performance_api/gpu_perf_api_counters.h \
              include/opengpa/opengpa.hpp include/opengpa/opengpa_profile.h lib/cmake/OpenGPA/OpenGPAConfig.cmake \
              lib/cmake/OpenGPA/OpenGPAConfigVersion.cmake lib/cmake/OpenGPA/OpenGPATargets.cmake \
              lib/pkgconfig/opengpa.pc lib/pkgconfig/opengpa-vk.pc lib/libVkLayer_opengpa_gpa_interface.so \
              share/vulkan/explicit_layer.d/VkLayer_opengpa_gpa_interface.json \
              include/opengpa/vulkan_layer/vk_amd_gpa_interface.h include/opengpa/nvpmapi/NvPmApi.h \
              share/man/man1/opengpa.1.gz lib/python3/dist-packages/opengpa/_version.py share/opengpa/report.html; do
    [[ -e $work/prefix/$file ]] || fail "$file was not installed"
  done
  # Every shipped library that was built is installed (build/lib also holds the tests' and benchmarks' fakes).
  for shipped in libGPUPerfAPIVK.so libGPUPerfAPIGL.so libGPUPerfAPICL.so libGPUPerfAPICUDA.so libOpenGPAMonitor.so \
                 libopengpa_intercept_cl.so libopengpa_inject_cuda.so libOpenGPAProfile.so libNvPmApi.Core.so; do
    [[ ! -e $build/lib/$shipped || -e $work/prefix/lib/$shipped ]] || fail "$shipped is built but not installed"
  done
  # Nothing installed may point back into the build tree.
  if grep -rlI "$build" "$work/prefix" | grep -q .; then
    fail "installed text files name the build folder: $(grep -rlI "$build" "$work/prefix" | head -3)"
  fi
  for library in "$work"/prefix/lib/*.so; do
    runpath=$(readelf -d "$library" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
    [[ $runpath != *"$build"* ]] || fail "$(basename "$library") keeps the build tree in its RUNPATH: $runpath"
  done
  # Only top-level folders of GPA's and OpenGPA's own names in include/ (no v4/, vulkan_layer/).
  included=$(cd "$work/prefix/include" && echo *)
  [[ $included == "gpu_performance_api opengpa" ]] || fail "include/ holds $included"
  # Installed, the CUDA libraries' RUNPATH is $ORIGIN alone: the toolkit's folders are searched by the CUPTI and
  # PerfWorks loaders themselves (a RUNPATH outside the package is what Debian refuses).
  for library in libGPUPerfAPICUDA.so libOpenGPAProfile.so libopengpa_inject_cuda.so; do
    [[ -e $work/prefix/lib/$library ]] || continue
    runpath=$(readelf -d "$work/prefix/lib/$library" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
    # shellcheck disable=SC2016
    [[ $runpath == '$ORIGIN' ]] || fail "$library's installed RUNPATH is '$runpath', not \$ORIGIN"
  done
  # The GPA libraries have a versioned SONAME and keep the unversioned name GPA's loaders dlopen.
  soname=$(readelf -d "$work/prefix/lib/libGPUPerfAPIVK.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
  [[ $soname == "libGPUPerfAPIVK.so.$(sed -n 's/^project(OpenGPA VERSION \([0-9]*\)\..*/\1/p' "$source_dir/CMakeLists.txt")" ]] ||
    fail "libGPUPerfAPIVK.so's SONAME is $soname"

  # The package is relocatable: move it before anyone uses it.
  mv "$work/prefix" "$work/moved"
  prefix=$work/moved

  # find_package + imported targets + the C++ layer, run on the Vulkan device.
  cmake -S "$source_dir/tests/install/downstream" -B "$work/downstream" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
    >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; fail "the downstream project does not configure"; }
  cmake --build "$work/downstream" >"$work/build.log" 2>&1 || { cat "$work/build.log"; fail "the downstream project does not build"; }
  output=$("$work/downstream/downstream_vk") || fail "downstream_vk failed: $output"
  echo "downstream: $output"
  [[ $output == *"GPUTime="* && $output == *"passes=1"* ]] || fail "unexpected downstream output: $output"
  # The version file refuses a newer major version.
  if cmake -S "$source_dir/tests/install/downstream" -B "$work/too-new" -DCMAKE_PREFIX_PATH="$prefix" \
       -DOPENGPA_VERSION_WANTED=4.0 >"$work/too-new.log" 2>&1; then
    fail "find_package(OpenGPA 4.0) accepted version $(sed -n 's/.*PACKAGE_VERSION "\(.*\)".*/\1/p' "$prefix/lib/cmake/OpenGPA/OpenGPAConfigVersion.cmake" | head -1)"
  fi

  # An unknown component is refused naming it and the components there are (issue 30: it failed without a reason).
  if cmake -S "$source_dir/tests/install/downstream" -B "$work/metal" -DCMAKE_PREFIX_PATH="$prefix" \
       -DOPENGPA_COMPONENTS_WANTED="VK;Metal" >"$work/metal.log" 2>&1; then
    fail "find_package(OpenGPA COMPONENTS Metal) was accepted"
  fi
  metal_message=$(tr -s ' \n' '  ' <"$work/metal.log")  # CMake wraps the message's lines
  [[ $metal_message == *"unknown component 'Metal'"* ]] || { cat "$work/metal.log"; fail "Metal is not named"; }
  [[ $metal_message == *"VK, GL, CL, CUDA, Monitor, Profile and CLI"* ]] || fail "the components are not listed"

  # pkg-config: a C program built only from what opengpa-vk.pc says.
  export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
  [[ $(pkg-config --modversion opengpa-vk) == "$(pkg-config --modversion opengpa)" ]] || fail "pkg-config versions differ"
  # No -rpath in the .pc files: the program finds the library through LD_LIBRARY_PATH (or ldconfig under /usr).
  pkg-config --libs opengpa-vk | grep -q rpath && fail "opengpa-vk.pc sets a RUNPATH: $(pkg-config --libs opengpa-vk)"
  cat >"$work/table.c" <<'C'
#include <stdio.h>
#include "gpu_performance_api/gpu_perf_api.h"
int main(void) {
  GpaFunctionTable table = {0};
  table.major_version = GPA_FUNCTION_TABLE_MAJOR_VERSION_NUMBER;
  table.minor_version = GPA_FUNCTION_TABLE_MINOR_VERSION_NUMBER;
  GpaStatus status = GpaGetFuncTable(&table);
  printf("GpaGetFuncTable %d\n", (int)status);
  return status == kGpaStatusOk && table.GpaOpenContext != NULL ? 0 : 1;
}
C
  # shellcheck disable=SC2046
  cc -o "$work/table" "$work/table.c" $(pkg-config --cflags --libs opengpa-vk) || fail "the pkg-config program does not build"
  LD_LIBRARY_PATH=$prefix/lib "$work/table" || fail "the pkg-config program could not take the function table"

  # The installed CLI finds its libraries and its report template in the moved prefix.
  "$prefix/bin/opengpa" --version | grep -q "$(pkg-config --modversion opengpa)" || fail "opengpa --version"
  "$prefix/bin/opengpa" list --api vk --names | grep -qx GPUTime || fail "the installed opengpa lists no GPUTime"
  "$prefix/bin/opengpa" report "$source_dir/tests/report/data/h100_torch_ops.profile.json" -o "$work/report.html" 2>/dev/null &&
    grep -q "aten::addmm" "$work/report.html" || fail "the installed opengpa writes no report with its installed template"
  echo "ok: installed, moved, used through find_package, pkg-config and the CLI"
  ;;
*)
  fail "unknown mode '$mode' (package)"
  ;;
esac
