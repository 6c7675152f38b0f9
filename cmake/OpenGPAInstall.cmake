# What `cmake --install` puts under a prefix, and the CMake/pkg-config packages that describe it:
#
#   bin/opengpa                                  the CLI
#   lib/libGPUPerfAPI{VK,GL,CL,CUDA}.so          the GPA libraries (those that were built)
#   lib/libOpenGPAMonitor.so                     the real-time monitor's C API
#   lib/libVkLayer_opengpa_gpa_interface.so      the Vulkan layer offering VK_AMD_gpa_interface on any driver,
#   share/vulkan/explicit_layer.d/*.json         and its manifest (VK_LAYER_OPENGPA_gpa_interface)
#   lib/libOpenGPAProfile.so                     the per-launch profiler's C API (include/opengpa/opengpa_profile.h)
#   lib/libopengpa_{intercept_cl,inject_cuda}.so what `opengpa profile` loads into a program
#   include/gpu_performance_api/*.h              GPA's headers and OpenGPA's extensions
#   include/opengpa/opengpa.hpp                  the C++ layer; opengpa_profile.h, the profiler's C API
#   lib/cmake/OpenGPA/                           OpenGPAConfig.cmake, version file, imported targets
#   lib/pkgconfig/opengpa*.pc                    pkg-config files
#
# Everything is relative to the prefix (the package can be moved). Imported targets:
#   OpenGPA::Headers        GPA's C headers and OpenGPA's extensions (include directory only)
#   OpenGPA::OpenGPA        the C++ layer (opengpa.hpp) and the interface loader (links libdl)
#   OpenGPA::GPUPerfAPIVK, ::GPUPerfAPIGL, ::GPUPerfAPICL, ::GPUPerfAPICUDA, ::OpenGPAMonitor, ::OpenGPAProfile
#   OpenGPA::opengpa        the CLI (an executable)
# CPack makes a Debian package of the same tree (`cpack -G DEB` in the build folder).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(OPENGPA_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/OpenGPA CACHE STRING
    "Where OpenGPAConfig.cmake is installed, relative to the prefix")

# ---- CUPTI's run-time path ------------------------------------------------------------------------
# libGPUPerfAPICUDA.so and the CUDA injection library load libcupti when a CUDA context first needs it
# (src/nvidia/cupti_loader.h; no NEEDED entry, so they load without CUDA). The dynamic loader does not find it
# by itself: the toolkit keeps it outside the system's library folders, and where depends on the toolkit's
# version and packaging. Their RUNPATH lists the folder CUPTI was found in when building, then the toolkit's
# usual places (dlopen from a library searches its RUNPATH); folders that do not exist are skipped. A toolkit
# elsewhere needs LD_LIBRARY_PATH or OPENGPA_CUPTI_LIBRARY, and the CUDA context's open says so.
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
                                                    INSTALL_RPATH "$ORIGIN;${OPENGPA_CUPTI_RUNPATH}")
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
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT development
        FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp")

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
if(TARGET opengpa)
  list(APPEND exported_targets opengpa)
endif()
install(TARGETS ${exported_targets} EXPORT OpenGPATargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The Vulkan layer VK_LAYER_OPENGPA_gpa_interface (docs/vulkan-layer.md): the library, and its manifest where the
# loader looks for explicit layers under the prefix (share/vulkan/explicit_layer.d), naming the library relative
# to itself.
if(TARGET VkLayer_opengpa_gpa_interface)
  install(TARGETS VkLayer_opengpa_gpa_interface LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime)
  install(FILES ${OPENGPA_VULKAN_LAYER_DIR}/install/VkLayer_opengpa_gpa_interface.json
          DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/vulkan/explicit_layer.d COMPONENT runtime)
endif()
# Loaded at run time by path (the CLI's injection libraries; the counter library, as GPA's clients load it;
# libNvPmApi.Core.so, as PerfKit's clients load it).
foreach(loaded opengpa_intercept_cl opengpa_inject_cuda GPUPerfAPICounters NvPmApiCore)
  if(TARGET ${loaded})
    install(TARGETS ${loaded} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime)
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
# prefix is computed from the .pc file's own place, so a moved prefix keeps working.
file(RELATIVE_PATH pc_to_prefix /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" pc_to_prefix "${pc_to_prefix}")
set(pc_header "prefix=\${pcfiledir}/${pc_to_prefix}\nincludedir=\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}\nlibdir=\${prefix}/${CMAKE_INSTALL_LIBDIR}\n\n")
file(WRITE ${PROJECT_BINARY_DIR}/package/opengpa.pc
     "${pc_header}Name: opengpa\nDescription: OpenGPA: GPA v3 headers, interface loader and C++ layer\n"
     "Version: ${PROJECT_VERSION}\nCflags: -I\${includedir}\nLibs: -ldl\n")
set(pc_files ${PROJECT_BINARY_DIR}/package/opengpa.pc)
foreach(suffix ${pkgconfig_libraries})
  string(TOLOWER ${suffix} api)
  file(WRITE ${PROJECT_BINARY_DIR}/package/opengpa-${api}.pc
       "${pc_header}Name: opengpa-${api}\nDescription: OpenGPA: libGPUPerfAPI${suffix}.so, GPA v3 for ${suffix}\n"
       "Version: ${PROJECT_VERSION}\nRequires: opengpa\nLibs: -L\${libdir} -Wl,-rpath,\${libdir} -lGPUPerfAPI${suffix}\n")
  list(APPEND pc_files ${PROJECT_BINARY_DIR}/package/opengpa-${api}.pc)
endforeach()
install(FILES ${pc_files} DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT development)

# ---- Debian package ----------------------------------------------------------------------------------
set(CPACK_PACKAGE_NAME opengpa)
set(CPACK_PACKAGE_VENDOR "OpenGPA")
set(CPACK_PACKAGE_CONTACT "OpenGPA maintainers <opengpa@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "GPU performance counters through AMD's GPA v3 API (Vulkan, OpenGL, OpenCL, CUDA)")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# Written out rather than dpkg-shlibdeps: what each file needs is known, and CUDA is not a Debian package.
#   Depends     what a shipped file has as NEEDED: the C++ runtime, and the OpenCL ICD loader for
#               libGPUPerfAPICL.so (tests/cli/without_cuda_check.py asserts that no file needs a CUDA library).
#   Recommends  loaders that libraries dlopen for their API (Vulkan, EGL and OpenGL for GL) and the doctor's probes
#               link: without them that API's parts say so, the rest works.
#   Suggests    drivers to try OpenGPA without a GPU (lavapipe, PoCL) and CUDA's CUPTI, from NVIDIA's repository
#               (the CUDA parts load it at run time, src/nvidia/cupti_loader.h, and say when it is missing).
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6, libstdc++6, libgcc-s1, ocl-icd-libopencl1 | libopencl1")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libvulkan1, libegl1, libopengl0")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "mesa-vulkan-drivers, pocl-opencl-icd, cuda-cupti-13-0")
include(CPack)
