# What `cmake --install` puts under a prefix, and the CMake/pkg-config packages that describe it:
#
#   bin/opengpa                                  the CLI; share/man/man1/opengpa.1.gz, its man page
#   lib/libGPUPerfAPI{VK,GL,CL,CUDA}.so[.3]      the GPA libraries (those that were built; SONAME .so.3 and the
#                                                unversioned name GPA's loaders dlopen, docs/packaging.md)
#   lib/libOpenGPAMonitor.so[.3]                 the real-time monitor's C API
#   lib/libVkLayer_opengpa_gpa_interface.so      the Vulkan layer offering VK_AMD_gpa_interface on any driver,
#   share/vulkan/explicit_layer.d/*.json         and its manifest (VK_LAYER_OPENGPA_gpa_interface)
#   lib/libOpenGPAProfile.so[.3]                 the per-launch profiler's C API (include/opengpa/opengpa_profile.h)
#   lib/libopengpa_{intercept_cl,inject_cuda}.so what `opengpa profile` loads into a program
#   lib/libGPUPerfAPICounters.so, libNvPmApi.Core.so   loaded by name (AMD's counter loader, PerfKit's manager)
#   libexec/opengpa/opengpa-doctor-*             `opengpa doctor`'s probes
#   include/gpu_performance_api/*.h              GPA's v3 headers (GPA's own path) and OpenGPA's extensions
#   include/opengpa/opengpa.hpp                  the C++ layer; opengpa_profile.h, the profiler's C API
#   include/opengpa/{v4,vulkan_layer,nvpmapi}/   GPA 4's headers (-I<prefix>/include/opengpa/v4), the Vulkan
#                                                layer's extension headers, PerfKit's NvPmApi headers
#   lib/cmake/OpenGPA/                           OpenGPAConfig.cmake, version file, imported targets
#   lib/pkgconfig/opengpa*.pc                    pkg-config files
#   lib/python3/dist-packages/opengpa/           the Python package (its libraries are the ones above)
#   share/doc/<package>/{copyright,changelog.gz} for each Debian package
#
# Each file belongs to one install component, which is one Debian package (cmake/OpenGPADebian.cmake):
#   runtime -> libopengpa3, development -> libopengpa-dev, cli -> opengpa, python -> python3-opengpa.
#
# Everything is relative to the prefix (the package can be moved). Imported targets:
#   OpenGPA::Headers        GPA's C headers and OpenGPA's extensions (include directory only)
#   OpenGPA::OpenGPA        the C++ layer (opengpa.hpp) and the interface loader (links libdl)
#   OpenGPA::GPUPerfAPIVK, ::GPUPerfAPIGL, ::GPUPerfAPICL, ::GPUPerfAPICUDA, ::OpenGPAMonitor, ::OpenGPAProfile
#   OpenGPA::opengpa        the CLI (an executable; OpenGPACliTargets.cmake, in the CLI's package)
# CPack makes the Debian packages of the same tree (`cpack -G DEB` in the build folder; docs/packaging.md).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(OPENGPA_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/OpenGPA CACHE STRING
    "Where OpenGPAConfig.cmake is installed, relative to the prefix")

# ---- CUPTI's run-time path ------------------------------------------------------------------------
# libGPUPerfAPICUDA.so and the CUDA injection library load libcupti when a CUDA context first needs it
# (src/nvidia/cupti_loader.h; no NEEDED entry, so they load without CUDA). The dynamic loader does not find it
# by itself: the toolkit keeps it outside the system's library folders, and where depends on the toolkit's
# version and packaging. In the build tree their RUNPATH lists the folder CUPTI was found in when building, then
# the toolkit's usual places (dlopen from a library searches its RUNPATH); folders that do not exist are skipped.
# Installed, the RUNPATH is $ORIGIN alone: the loaders search the same toolkit folders themselves
# (src/nvidia/cupti_loader.cc, perfworks_library.cc), and a RUNPATH outside the package is what Debian refuses
# (lintian's custom-library-search-path). A toolkit elsewhere needs LD_LIBRARY_PATH or OPENGPA_CUPTI_LIBRARY, and
# the CUDA context's open says so.
set(OPENGPA_CUPTI_RUNPATH "")
if(TARGET GPUPerfAPICUDA)
  find_package(CUDAToolkit QUIET)  # its imported targets are local to the directory that found it
endif()
if(TARGET CUDA::cupti)
  get_target_property(cupti_location CUDA::cupti LOCATION)
  if(cupti_location)
    get_filename_component(cupti_dir "${cupti_location}" DIRECTORY)
    list(APPEND OPENGPA_CUPTI_RUNPATH "${cupti_dir}")
  endif()
endif()
if(CMAKE_SYSTEM_PROCESSOR MATCHES "aarch64|arm64")
  set(cuda_target_dir sbsa-linux)
else()
  set(cuda_target_dir ${CMAKE_SYSTEM_PROCESSOR}-linux)
endif()
foreach(toolkit /usr/local/cuda /opt/cuda /usr/lib/cuda)
  list(APPEND OPENGPA_CUPTI_RUNPATH ${toolkit}/extras/CUPTI/lib64 ${toolkit}/targets/${cuda_target_dir}/lib
       ${toolkit}/lib64 ${toolkit}/lib)
endforeach()
list(REMOVE_DUPLICATES OPENGPA_CUPTI_RUNPATH)
foreach(cuda_target GPUPerfAPICUDA OpenGPAProfile opengpa_inject_cuda)
  if(TARGET ${cuda_target})
    # The build tree gets the same list, so a build copied to another machine (the GPU host) finds CUPTI too, and
    # the injection entry finds libOpenGPAProfile.so beside it.
    set_target_properties(${cuda_target} PROPERTIES BUILD_RPATH "$ORIGIN;${OPENGPA_CUPTI_RUNPATH}"
                                                    INSTALL_RPATH "$ORIGIN")
  endif()
endforeach()
if(TARGET opengpa)
  # The CLI finds the libraries it loads at <executable>/<this>, in the build tree and in an install.
  file(RELATIVE_PATH bin_to_lib /${CMAKE_INSTALL_BINDIR} /${CMAKE_INSTALL_LIBDIR})
  target_compile_definitions(opengpa PRIVATE "OPENGPA_BIN_TO_LIB=\"${bin_to_lib}\"")
endif()

# ---- headers ---------------------------------------------------------------------------------------
add_library(opengpa_public_headers INTERFACE)
target_include_directories(opengpa_public_headers INTERFACE $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
                                                            $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
set_target_properties(opengpa_public_headers PROPERTIES EXPORT_NAME Headers)
add_library(opengpa_cxx INTERFACE)
target_link_libraries(opengpa_cxx INTERFACE opengpa_public_headers ${CMAKE_DL_LIBS})
target_compile_features(opengpa_cxx INTERFACE cxx_std_17)
set_target_properties(opengpa_cxx PROPERTIES EXPORT_NAME OpenGPA)
# GPA's v3 headers keep GPA's own path (gpu_performance_api/, what GPA clients include); everything else is under
# opengpa/, so that no generic top-level name (v4/, vulkan_layer/) is taken in /usr/include. The source tree keeps
# its layout; tests/install/package_layout_check.py checks that every folder of include/ is installed.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/gpu_performance_api ${PROJECT_SOURCE_DIR}/include/opengpa
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT development FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/v4 ${PROJECT_SOURCE_DIR}/include/vulkan_layer
                  ${PROJECT_SOURCE_DIR}/include/nvpmapi
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/opengpa COMPONENT development FILES_MATCHING PATTERN "*.h")

# ---- libraries and the CLI -------------------------------------------------------------------------
set(exported_targets opengpa_public_headers opengpa_cxx)
set(pkgconfig_libraries "")
foreach(suffix VK GL CL CUDA)
  if(TARGET GPUPerfAPI${suffix})
    target_include_directories(GPUPerfAPI${suffix} INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
    list(APPEND exported_targets GPUPerfAPI${suffix})
    list(APPEND pkgconfig_libraries ${suffix})
  endif()
endforeach()
foreach(c_api OpenGPAMonitor OpenGPAProfile)
  if(TARGET ${c_api})
    target_include_directories(${c_api} INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
    list(APPEND exported_targets ${c_api})
  endif()
endforeach()
# The libraries' unversioned names (namelinks) go with the libraries into the runtime package, not -dev: GPA's
# interface loader, the CLI and Python dlopen them by that name (docs/packaging.md).
install(TARGETS ${exported_targets} EXPORT OpenGPATargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT runtime
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The CLI is its own package, so its imported target is in a file of its own that the CLI's package carries
# (OpenGPAConfig.cmake includes it when it is there).
if(TARGET opengpa)
  install(TARGETS opengpa EXPORT OpenGPACliTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT cli)
  install(EXPORT OpenGPACliTargets NAMESPACE OpenGPA:: DESTINATION ${OPENGPA_INSTALL_CMAKEDIR} COMPONENT cli)
  install(FILES ${OPENGPA_MAN_PAGE} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT cli)
endif()
# The Vulkan layer VK_LAYER_OPENGPA_gpa_interface (docs/vulkan-layer.md): the library, and its manifest where the
# loader looks for explicit layers under the prefix (share/vulkan/explicit_layer.d), naming the library relative
# to itself.
if(TARGET VkLayer_opengpa_gpa_interface)
  install(TARGETS VkLayer_opengpa_gpa_interface LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime)
  install(FILES ${OPENGPA_VULKAN_LAYER_DIR}/install/VkLayer_opengpa_gpa_interface.json
          DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/vulkan/explicit_layer.d COMPONENT runtime)
endif()
# Loaded at run time by name (the counter library, as GPA's clients load it; libNvPmApi.Core.so, as PerfKit's
# clients load it): the runtime package. The CLI's injection libraries, which only `opengpa profile` loads: the
# CLI's package.
foreach(loaded GPUPerfAPICounters NvPmApiCore)
  if(TARGET ${loaded})
    install(TARGETS ${loaded} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime)
  endif()
endforeach()
foreach(loaded opengpa_intercept_cl opengpa_inject_cuda)
  if(TARGET ${loaded})
    install(TARGETS ${loaded} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT cli)
  endif()
endforeach()

# ---- CMake package -------------------------------------------------------------------------------
install(EXPORT OpenGPATargets NAMESPACE OpenGPA:: DESTINATION ${OPENGPA_INSTALL_CMAKEDIR} COMPONENT development)
set(OPENGPA_INSTALLED_LIBRARIES ${pkgconfig_libraries})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/OpenGPAConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/package/OpenGPAConfig.cmake
                              INSTALL_DESTINATION ${OPENGPA_INSTALL_CMAKEDIR}
                              PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/OpenGPAConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/package/OpenGPAConfig.cmake ${PROJECT_BINARY_DIR}/package/OpenGPAConfigVersion.cmake
        DESTINATION ${OPENGPA_INSTALL_CMAKEDIR} COMPONENT development)

# ---- pkg-config: opengpa.pc (headers, C++ layer, loader) and opengpa-<api>.pc per library ------------
# prefix is computed from the .pc file's own place, so a moved prefix keeps working. No -rpath: where the
# libraries are is the dynamic loader's business (ldconfig for /usr; LD_LIBRARY_PATH or the program's own RUNPATH
# for another prefix), as Debian asks of .pc files.
file(RELATIVE_PATH pc_to_prefix /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" pc_to_prefix "${pc_to_prefix}")
set(pc_header "prefix=\${pcfiledir}/${pc_to_prefix}\nincludedir=\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}\nlibdir=\${prefix}/${CMAKE_INSTALL_LIBDIR}\n")
# GPA 4's headers: -I$(pkg-config --variable=v4includedir opengpa) instead of the v3 ones (docs/gpa4.md).
string(APPEND pc_header "v4includedir=\${includedir}/opengpa/v4\n\n")
file(WRITE ${PROJECT_BINARY_DIR}/package/opengpa.pc
     "${pc_header}Name: opengpa\nDescription: OpenGPA: GPA v3 headers, interface loader and C++ layer\n"
     "Version: ${PROJECT_VERSION}\nCflags: -I\${includedir}\nLibs: -ldl\n")
set(pc_files ${PROJECT_BINARY_DIR}/package/opengpa.pc)
foreach(suffix ${pkgconfig_libraries})
  string(TOLOWER ${suffix} api)
  file(WRITE ${PROJECT_BINARY_DIR}/package/opengpa-${api}.pc
       "${pc_header}Name: opengpa-${api}\nDescription: OpenGPA: libGPUPerfAPI${suffix}.so, GPA v3 for ${suffix}\n"
       "Version: ${PROJECT_VERSION}\nRequires: opengpa\nLibs: -L\${libdir} -lGPUPerfAPI${suffix}\n")
  list(APPEND pc_files ${PROJECT_BINARY_DIR}/package/opengpa-${api}.pc)
endforeach()
install(FILES ${pc_files} DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT development)

# ---- the Python package -----------------------------------------------------------------------------------
# python/opengpa as Debian's python3 finds it, with its _version.py written out (the checkout's reads CMakeLists.txt,
# which an install does not carry). The package loads the runtime libraries by name (python/opengpa/_library.py).
set(OPENGPA_INSTALL_PYTHONDIR ${CMAKE_INSTALL_LIBDIR}/python3/dist-packages CACHE STRING
    "Where the Python package opengpa is installed, relative to the prefix")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/python/opengpa DESTINATION ${OPENGPA_INSTALL_PYTHONDIR} COMPONENT python
        FILES_MATCHING PATTERN "*.py" PATTERN "py.typed" PATTERN "_version.py" EXCLUDE PATTERN "__pycache__" EXCLUDE)
file(WRITE ${PROJECT_BINARY_DIR}/package/_version.py
     "\"\"\"OpenGPA's version, written by CMake from CMakeLists.txt's project(VERSION).\"\"\"\n\n"
     "__version__ = \"${PROJECT_VERSION}\"\n")
install(FILES ${PROJECT_BINARY_DIR}/package/_version.py DESTINATION ${OPENGPA_INSTALL_PYTHONDIR}/opengpa
        COMPONENT python)

include(${CMAKE_CURRENT_LIST_DIR}/OpenGPADebian.cmake)
