# kb/: embed the knowledge-base JSON into the binary, so gpudoctor works
# alone (DESIGN.md: "a data file shipped with the program ... embedded").
#
# Included twice over: by the top CMakeLists (configure time, defines the
# custom command) and by itself in script mode (cmake -P, build time,
# writes the C file). The C file is regenerated whenever the JSON changes.
if(CMAKE_SCRIPT_MODE_FILE)
  # Script mode: GD_KB_IN (the JSON) -> GD_KB_OUT (a C array).
  file(READ "${GD_KB_IN}" hex HEX)
  file(SIZE "${GD_KB_IN}" size)
  # 24 bytes (48 hex digits) a line keeps the file readable.
  string(REGEX REPLACE "(................................................)"
         "\\1\n" hex "${hex}")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
  file(WRITE "${GD_KB_OUT}.tmp"
"/* Generated from src/kb/gpudoctor-kb.json by src/kb/module.cmake. Do not edit. */
#include \"kb/kb_internal.h\"

const unsigned char gd_kb_embedded_data[] = {
${body}0x00
};
const size_t gd_kb_embedded_size = ${size};
")
  file(RENAME "${GD_KB_OUT}.tmp" "${GD_KB_OUT}")
  return()
endif()

set(GD_KB_JSON ${CMAKE_SOURCE_DIR}/src/kb/gpudoctor-kb.json)
set(GD_KB_C ${CMAKE_BINARY_DIR}/generated/kb_embedded.c)
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/generated)
add_custom_command(
  OUTPUT ${GD_KB_C}
  COMMAND ${CMAKE_COMMAND} -DGD_KB_IN=${GD_KB_JSON} -DGD_KB_OUT=${GD_KB_C}
          -P ${CMAKE_SOURCE_DIR}/src/kb/module.cmake
  DEPENDS ${GD_KB_JSON} ${CMAKE_SOURCE_DIR}/src/kb/module.cmake
  COMMENT "Embedding the knowledge base (gpudoctor-kb.json)"
  VERBATIM)
list(APPEND GD_EXTRA_SOURCES ${GD_KB_C})
