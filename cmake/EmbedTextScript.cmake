# cmake -DIN=<text file> -DOUT=<.cc> -DSYMBOL=<name> -P EmbedTextScript.cmake: the file's bytes as a
# NUL-terminated char array (the C++ is the template embedded_text.cc.in beside this script).
file(READ "${IN}" content HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${content}")
configure_file("${CMAKE_CURRENT_LIST_DIR}/embedded_text.cc.in" "${OUT}" @ONLY)
