# CPack's post-build step for the Debian packages (CPACK_POST_BUILD_SCRIPTS, set by cmake/OpenGPADebian.cmake):
# what CMake 3.25's DEB generator leaves for Debian's rules, fixed in each .deb and .ddeb it wrote.
#
#   - postinst/postrm that only run ldconfig: Debian runs ldconfig through the `triggers` file instead (lintian's
#     maintscript-calls-ldconfig); the packages with libraries carry that file (CPACK_DEBIAN_*_PACKAGE_CONTROL_EXTRA).
#   - a -dbgsym package's md5sums names its files by the absolute paths of CPack's staging folder, not by their
#     place in the package (lintian: md5sums-lists-nonexistent-file); it is written again.
#   - a -dbgsym package has no /usr/share/doc: as debhelper's do, it gets usr/share/doc/<package>-dbgsym, a link to
#     the documentation (copyright, changelog) of the package it serves.
#   - a -dbgsym package's .debug files get their debug sections compressed (objcopy --compress-debug-sections, as
#     debhelper's dh_strip does): gdb reads them as they are, and they take about 2.5 times less room; its
#     Installed-Size is counted again.
#
# A package is unpacked with dpkg-deb -R and built again with dpkg-deb (gzip -6: dpkg-deb's default -9 takes several
# times longer on the -dbgsym packages for 1% less); nothing else changes.
find_program(opengpa_dpkg_deb dpkg-deb REQUIRED)
find_program(opengpa_objcopy objcopy REQUIRED)
set(opengpa_ldconfig_only "#!/bin/sh\n\nset -e\n\nif \\[ \"\\$1\" = \"(configure|remove)\" \\]; then\n\tldconfig\nfi\n?$")

# CPACK_PACKAGE_FILES: the packages in CPack's staging folder, before it copies them to the output folder.
foreach(package_file IN LISTS CPACK_PACKAGE_FILES)
  get_filename_component(file_name "${package_file}" NAME)
  set(root "${CPACK_TOPLEVEL_DIRECTORY}/opengpa-finish/${file_name}")
  file(REMOVE_RECURSE "${root}")
  file(MAKE_DIRECTORY "${CPACK_TOPLEVEL_DIRECTORY}/opengpa-finish")
  execute_process(COMMAND ${opengpa_dpkg_deb} -R "${package_file}" "${root}" RESULT_VARIABLE failed)
  if(failed)
    message(FATAL_ERROR "dpkg-deb -R ${package_file} failed")
  endif()
  set(changed FALSE)
  foreach(script postinst postrm)
    if(EXISTS "${root}/DEBIAN/${script}")
      file(READ "${root}/DEBIAN/${script}" content)
      if(content MATCHES "^${opengpa_ldconfig_only}")
        file(REMOVE "${root}/DEBIAN/${script}")
        set(changed TRUE)
      endif()
    endif()
  endforeach()
  file(STRINGS "${root}/DEBIAN/control" package_line REGEX "^Package: ")
  string(REGEX REPLACE "^Package: " "" package "${package_line}")
  if(package MATCHES "^(.+)-dbgsym$")
    set(served "${CMAKE_MATCH_1}")
    file(MAKE_DIRECTORY "${root}/usr/share/doc")
    file(CREATE_LINK "${served}" "${root}/usr/share/doc/${package}" SYMBOLIC)
    file(GLOB_RECURSE payload LIST_DIRECTORIES FALSE RELATIVE "${root}" "${root}/usr/*")
    list(SORT payload)
    set(md5sums "")
    foreach(relative IN LISTS payload)
      if(relative MATCHES "\\.debug$")
        execute_process(COMMAND ${opengpa_objcopy} --compress-debug-sections=zlib "${root}/${relative}"
                        RESULT_VARIABLE failed)
        if(failed)
          message(FATAL_ERROR "objcopy --compress-debug-sections ${relative} of ${file_name} failed")
        endif()
      endif()
      if(NOT IS_SYMLINK "${root}/${relative}")
        file(MD5 "${root}/${relative}" digest)
        string(APPEND md5sums "${digest}  ${relative}\n")
      endif()
    endforeach()
    file(WRITE "${root}/DEBIAN/md5sums" "${md5sums}")
    # Installed-Size as dpkg-gencontrol counts it (KiB per file, rounded up; 1 per folder or link), since the
    # compressed .debug files are smaller than CPack's figure.
    file(GLOB_RECURSE entries LIST_DIRECTORIES TRUE "${root}/usr/*")
    set(kib 0)
    foreach(entry IN LISTS entries)
      if(IS_DIRECTORY "${entry}" OR IS_SYMLINK "${entry}")
        math(EXPR kib "${kib} + 1")
      else()
        file(SIZE "${entry}" bytes)
        math(EXPR kib "${kib} + (${bytes} + 1023) / 1024")
      endif()
    endforeach()
    file(READ "${root}/DEBIAN/control" control)
    string(REGEX REPLACE "Installed-Size: [0-9]+" "Installed-Size: ${kib}" control "${control}")
    file(WRITE "${root}/DEBIAN/control" "${control}")
    set(changed TRUE)
  endif()
  if(changed)
    execute_process(COMMAND ${opengpa_dpkg_deb} --root-owner-group -Zgzip -z6 -b "${root}" "${package_file}"
                    OUTPUT_QUIET RESULT_VARIABLE failed)
    if(failed)
      message(FATAL_ERROR "dpkg-deb -b ${root} ${package_file} failed")
    endif()
    message(STATUS "OpenGPA: finished ${file_name} for Debian")
  endif()
  file(REMOVE_RECURSE "${root}")
endforeach()
