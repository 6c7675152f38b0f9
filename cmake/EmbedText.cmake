# opengpa_embed_text(<target> <symbol> <file>): compiles <file>'s text into <target> as
#   namespace opengpa::embedded { extern const char <symbol>[]; }
# so catalogs stay data in the tree and need no install path at run time.
function(opengpa_embed_text target symbol file)
  get_filename_component(abs "${file}" ABSOLUTE)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/embedded_${symbol}.cc")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} -DIN=${abs} -DOUT=${out} -DSYMBOL=${symbol} -P ${CMAKE_SOURCE_DIR}/cmake/EmbedTextScript.cmake
    DEPENDS "${abs}" ${CMAKE_SOURCE_DIR}/cmake/EmbedTextScript.cmake ${CMAKE_SOURCE_DIR}/cmake/embedded_text.cc.in
    COMMENT "Embedding ${file}")
  target_sources(${target} PRIVATE "${out}")
endfunction()
