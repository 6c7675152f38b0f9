# opengpa_add_gpa_library(<Suffix> <backend target>): builds libGPUPerfAPI<Suffix>.so from the
# exported entry layer, the core, and one backend (a static library defining opengpa::ActiveBackend()).
function(opengpa_add_gpa_library suffix backend_target)
  set(lib GPUPerfAPI${suffix})
  add_library(${lib} SHARED $<TARGET_OBJECTS:opengpa_entry> $<TARGET_OBJECTS:opengpa_entry_gpa2>
              $<TARGET_OBJECTS:opengpa_entry_gpa4>)
  target_link_libraries(${lib} PRIVATE opengpa_entry_deps ${backend_target} opengpa_core opengpa_counters)
  # Export only the C entry points (src/entry/exports.map), never C++ template instantiations.
  target_link_options(${lib} PRIVATE ${OPENGPA_LIBRARY_NO_UNDEFINED}
                      -Wl,--version-script=${PROJECT_SOURCE_DIR}/src/entry/exports.map)
  set_property(TARGET ${lib} APPEND PROPERTY LINK_DEPENDS ${PROJECT_SOURCE_DIR}/src/entry/exports.map)
  set_target_properties(${lib} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib)
  opengpa_set_library_version(${lib})
endfunction()

# opengpa_set_library_version(<target>): a versioned SONAME for a library that programs link at build time
# (lib<name>.so.<major>, the file lib<name>.so.<version>). The unversioned lib<name>.so link stays beside it in
# the build tree and in the runtime package, because GPA's interface loader, the CLI and Python dlopen that name
# (docs/packaging.md). Plugins loaded only by name (the counter library, the Vulkan layer, the injection
# libraries, libNvPmApi.Core.so) keep the unversioned name their loaders ask for and get no version.
function(opengpa_set_library_version target)
  set_target_properties(${target} PROPERTIES VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR})
endfunction()
