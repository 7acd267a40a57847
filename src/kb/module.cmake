# kb/: embed the knowledge-base JSON into the binary, so gpudoctor works
# alone (DESIGN.md: "a data file shipped with the program ... embedded").
#
# tools/kbgen.c, a host program built here, validates the JSON with the
# runtime's own checks (src/kb/kb_parse.c + kb_validate*.c) and writes
# generated/kb_embedded.c: the document compact, plus an index so that a
# lookup parses only its entry (src/kb/kb_internal.h). A file that does not
# validate stops the build with "FILE:LINE: why". Editing the JSON or the
# generator regenerates the C file.
set(GD_KB_JSON ${CMAKE_SOURCE_DIR}/src/kb/gpudoctor-kb.json)
set(GD_KB_C ${CMAKE_BINARY_DIR}/generated/kb_embedded.c)
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/generated)

if(CMAKE_CROSSCOMPILING)
  # The generator runs on this machine: the native build's (make windows
  # builds it first and passes it in).
  if(NOT GD_HOST_KBGEN)
    message(FATAL_ERROR "cross build: pass -DGD_HOST_KBGEN=build/gd_kbgen")
  endif()
  set(GD_KBGEN_CMD ${GD_HOST_KBGEN})
else()
  add_executable(gd_kbgen ${CMAKE_SOURCE_DIR}/tools/kbgen.c
                 ${CMAKE_SOURCE_DIR}/src/kb/kb_parse.c
                 ${CMAKE_SOURCE_DIR}/src/kb/kb_validate.c
                 ${CMAKE_SOURCE_DIR}/src/kb/kb_validate_ctx.c
                 ${CMAKE_SOURCE_DIR}/src/kb/kb_validate_hw.c
                 ${CMAKE_SOURCE_DIR}/src/kb/kb_validate_libs.c
                 ${CMAKE_SOURCE_DIR}/src/kb/kb_validate_causes.c
                 ${CMAKE_SOURCE_DIR}/src/kb/kb_kernel_check.c
                 ${CMAKE_SOURCE_DIR}/src/kb/kb_windows_check.c
                 ${CMAKE_SOURCE_DIR}/src/kb/kb_intel_check.c
                 ${CMAKE_SOURCE_DIR}/src/kb/kb_checks.c
                 ${CMAKE_SOURCE_DIR}/src/core/re_cost.c
                 ${CMAKE_SOURCE_DIR}/src/core/util.c)
  target_include_directories(gd_kbgen PRIVATE ${CMAKE_SOURCE_DIR}/src)
  target_link_libraries(gd_kbgen PRIVATE PkgConfig::JANSSON)
  set(GD_KBGEN_CMD gd_kbgen)
endif()

add_custom_command(
  OUTPUT ${GD_KB_C}
  COMMAND ${GD_KBGEN_CMD} ${GD_KB_JSON} ${GD_KB_C}
  DEPENDS ${GD_KB_JSON} ${GD_KBGEN_CMD}
  COMMENT "Validating and embedding the knowledge base (gpudoctor-kb.json)"
  VERBATIM)
list(APPEND GD_EXTRA_SOURCES ${GD_KB_C})
