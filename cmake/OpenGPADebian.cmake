# The Debian packages CPack makes of the install (`cpack -G DEB` in the build folder; docs/packaging.md says why each
# choice, scripts/build_packages.sh builds them and runs lintian). One package per install component:
#
#   runtime      libopengpa<major>   the libraries (versioned SONAMEs, plus the unversioned names GPA's loaders
#                                    dlopen), the Vulkan layer and its manifest
#   development  libopengpa-dev      headers, CMake package, pkg-config files
#   cli          opengpa             bin/opengpa, its man page, the doctor's probes, the injection libraries
#   python       python3-opengpa     the Python package (Architecture: all; it loads libopengpa<major>'s libraries)
#
# and one -dbgsym package (.ddeb) per package with ELF files, holding the debug information that stripping takes out.
# Each package carries /usr/share/doc/<package>/copyright (DEP-5) and changelog.gz (the package is native: its
# version is OpenGPA's, PROJECT_VERSION, with no Debian revision), and lintian overrides where a finding is justified.

set(OPENGPA_PACKAGE_MAINTAINER "OpenGPA maintainers <opengpa@example.org>" CACHE STRING
    "The Maintainer field of the Debian packages (a distribution sets its own)")
set(opengpa_debian_dir ${PROJECT_SOURCE_DIR}/packaging/debian)
set(OPENGPA_RUNTIME_PACKAGE libopengpa${PROJECT_VERSION_MAJOR})

set(opengpa_components runtime development python)
if(TARGET opengpa)
  list(APPEND opengpa_components cli)
endif()
set(opengpa_runtime_package ${OPENGPA_RUNTIME_PACKAGE})
set(opengpa_development_package libopengpa-dev)
set(opengpa_cli_package opengpa)
set(opengpa_python_package python3-opengpa)

# changelog.gz, compressed as Debian does (gzip -9n: no name or time stamp, so the same text gives the same bytes).
find_program(OPENGPA_GZIP gzip REQUIRED)
set(opengpa_changelog_gz ${PROJECT_BINARY_DIR}/package/changelog.gz)
execute_process(COMMAND ${OPENGPA_GZIP} -9nc ${opengpa_debian_dir}/changelog OUTPUT_FILE ${opengpa_changelog_gz}
                RESULT_VARIABLE gzip_result)
if(NOT gzip_result EQUAL 0)
  message(FATAL_ERROR "gzip -9nc ${opengpa_debian_dir}/changelog failed: ${gzip_result}")
endif()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${opengpa_debian_dir}/changelog)

foreach(component IN LISTS opengpa_components)
  set(package ${opengpa_${component}_package})
  install(FILES ${opengpa_debian_dir}/copyright ${opengpa_changelog_gz}
          DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/${package} COMPONENT ${component})
  if(EXISTS ${opengpa_debian_dir}/${component}.lintian-overrides)
    install(FILES ${opengpa_debian_dir}/${component}.lintian-overrides DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/lintian/overrides
            RENAME ${package} COMPONENT ${component})
  endif()
endforeach()

set(CPACK_PACKAGE_NAME opengpa)
set(CPACK_PACKAGE_VENDOR "OpenGPA")
set(CPACK_PACKAGE_CONTACT "${OPENGPA_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_COMPONENTS_ALL ${opengpa_components})
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SOURCE opengpa)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${OPENGPA_PACKAGE_MAINTAINER}")
# Stripped files, their debug information in <package>-dbgsym_<version>_<arch>.ddeb under /usr/lib/debug/.build-id.
# The DEB generator strips each ELF file itself (objcopy --strip-unneeded) after copying its debug information
# out, so CPACK_STRIP_FILES stays off (stripped files would leave nothing for the -dbgsym packages).
set(CPACK_DEBIAN_DEBUGINFO_PACKAGE ON)
# libopengpa<major>'s shlibs file (what dpkg-shlibdeps of a program linking it finds; the unversioned plugins have
# no entry), and ldconfig run by a trigger in the packages that put libraries in /usr/lib.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONTROL_EXTRA ${opengpa_debian_dir}/triggers)
set(CPACK_DEBIAN_CLI_PACKAGE_CONTROL_EXTRA ${opengpa_debian_dir}/triggers)
# Then what CPack leaves for Debian's rules is fixed in the packages it wrote (the script says what).
set(CPACK_POST_BUILD_SCRIPTS ${CMAKE_CURRENT_LIST_DIR}/OpenGPADebianFinish.cmake)

set(exact "(= ${PROJECT_VERSION})")
foreach(component IN LISTS opengpa_components)
  string(TOUPPER ${component} upper)
  set(CPACK_DEBIAN_${upper}_PACKAGE_NAME ${opengpa_${component}_package})
endforeach()

# Depends are written out rather than computed by dpkg-shlibdeps: CUDA is not a Debian package, and the packages
# depend on each other. scripts/check_package_depends.py checks that they cover every NEEDED entry of every ELF file.
#   libopengpa<major>: the C and C++ runtimes, the OpenCL ICD loader (libGPUPerfAPICL.so's NEEDED libOpenCL.so.1).
#     Recommends: the loaders the libraries dlopen for their API (Vulkan; EGL and OpenGL for GL): without them that
#     API says so and the rest works. Suggests: drivers to try OpenGPA without a GPU (lavapipe, PoCL) and CUDA's
#     CUPTI, from NVIDIA's repository (the CUDA parts load it at run time and say when it is missing).
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS "libc6, libstdc++6, libgcc-s1, ocl-icd-libopencl1 | libopencl1")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_RECOMMENDS "libvulkan1, libegl1, libopengl0")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SUGGESTS "mesa-vulkan-drivers, pocl-opencl-icd, cuda-cupti-13-0")
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION "GPU performance counters through AMD's GPA API (libraries)
OpenGPA implements AMD's GPU Performance API (GPA v3, and GPA 4's table) over
Vulkan, OpenGL, OpenCL and CUDA: counters per region, pass planning, and the
offline counter library that describes counters without a GPU.

This package holds the libraries GPA tools load (libGPUPerfAPIVK.so,
libGPUPerfAPIGL.so, libGPUPerfAPICL.so, libGPUPerfAPICUDA.so,
libGPUPerfAPICounters.so), the real-time monitor's and the per-launch
profiler's C libraries, PerfKit's libNvPmApi.Core.so and the Vulkan layer
VK_LAYER_OPENGPA_gpa_interface.")

#   libopengpa-dev: the libraries it describes, exactly this version. The Vulkan header gpu_perf_api_vk.h includes
#   <vulkan/vulkan.h> (only that header), and pkg-config reads the .pc files: recommended.
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_DEPENDS "${OPENGPA_RUNTIME_PACKAGE} ${exact}")
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_RECOMMENDS "libvulkan-dev, pkgconf | pkg-config")
set(CPACK_DEBIAN_DEVELOPMENT_DESCRIPTION "GPU performance counters through AMD's GPA API (development files)
OpenGPA implements AMD's GPU Performance API (GPA v3, and GPA 4's table) over
Vulkan, OpenGL, OpenCL and CUDA.

This package holds GPA's headers (gpu_performance_api/, and GPA 4's under
opengpa/v4/), OpenGPA's C++ layer and extensions, the CMake package
(find_package(OpenGPA)) and the pkg-config files.")

#   opengpa: the libraries it loads, and what its doctor's probes link (Vulkan, EGL, OpenGL, OpenCL).
set(CPACK_DEBIAN_CLI_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_CLI_PACKAGE_DEPENDS
    "${OPENGPA_RUNTIME_PACKAGE} ${exact}, libc6, libstdc++6, libgcc-s1, libvulkan1, libegl1, libopengl0, ocl-icd-libopencl1 | libopencl1")
set(CPACK_DEBIAN_CLI_PACKAGE_SUGGESTS "mesa-vulkan-drivers, pocl-opencl-icd, cuda-cupti-13-0")
set(CPACK_DEBIAN_CLI_DESCRIPTION "GPU performance counters through AMD's GPA API (command-line tool)
opengpa lists the counters of a device or chip, plans how many passes a set
needs, profiles unmodified CUDA and OpenCL programs one sample per kernel
launch, monitors devices in real time and checks each API's counters
against work of known size (opengpa doctor).")

#   python3-opengpa: Python 3.9 or later with numpy, and the libraries it loads with ctypes; the CLI, which
#   `python3 -m opengpa` runs, is recommended.
set(CPACK_DEBIAN_PYTHON_PACKAGE_SECTION python)
set(CPACK_DEBIAN_PYTHON_PACKAGE_ARCHITECTURE all)
set(CPACK_DEBIAN_PYTHON_PACKAGE_DEPENDS "python3 (>= 3.9), python3-numpy, ${OPENGPA_RUNTIME_PACKAGE} ${exact}")
set(CPACK_DEBIAN_PYTHON_PACKAGE_RECOMMENDS "opengpa ${exact}")
set(CPACK_DEBIAN_PYTHON_PACKAGE_SUGGESTS "python3-pandas, python3-matplotlib")
set(CPACK_DEBIAN_PYTHON_DESCRIPTION "GPU performance counters through AMD's GPA API (Python 3)
The Python package opengpa: counters per region of a Python program, pass
planning, offline counter listings, the real-time monitor and per-kernel
profiles, through the same C libraries that C programs load.")
include(CPack)
