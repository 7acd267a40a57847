# libgpudoctor.so.1: the C API of include/gpudoctor.h for native apps, with
# a pkg-config file. The program links the same code statically (gd_api);
# the library is api/ compiled once more and linked with the layers below
# it, exporting only gpudoctor_* (libgpudoctor.map, version node
# GPUDOCTOR_1): the layers' own symbols stay inside. Linux only: on
# Windows the program builds gd_api, but no DLL is made. Not with
# GD_STATIC_DEPS either: that build is one self-contained program, and the
# distributions' static jansson/zstd/zlib archives are not built for a
# shared object (no -fPIC). Not in the fuzzing build either: its layers are
# compiled with -fsanitize=fuzzer-no-link,address, which only the fuzz
# targets link the runtimes for.
if(WIN32 OR GD_STATIC_DEPS OR GD_FUZZ)
  return()
endif()
file(GLOB GD_API_LIB_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/api/*.c)
gd_platform_filter(GD_API_LIB_SOURCES)
set(GD_API_MAP ${CMAKE_SOURCE_DIR}/src/api/libgpudoctor.map)
add_library(gpudoctor_lib SHARED ${GD_API_LIB_SOURCES})
set_target_properties(gpudoctor_lib PROPERTIES
  OUTPUT_NAME gpudoctor VERSION 1.0.0 SOVERSION 1
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}
  LINK_DEPENDS ${GD_API_MAP})
target_include_directories(gpudoctor_lib PRIVATE ${CMAKE_SOURCE_DIR}/src
                           ${CMAKE_SOURCE_DIR}/include)
target_compile_definitions(gpudoctor_lib PRIVATE ${GD_HELPER_DEF})
target_link_libraries(gpudoctor_lib PRIVATE gd_report)
target_link_options(gpudoctor_lib PRIVATE
  -Wl,--version-script=${GD_API_MAP} -Wl,--no-undefined)
add_dependencies(gpudoctor_lib gd_check_layers)

configure_file(${CMAKE_SOURCE_DIR}/src/api/gpudoctor.pc.in
               ${CMAKE_BINARY_DIR}/gpudoctor.pc @ONLY)
install(TARGETS gpudoctor_lib LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${CMAKE_SOURCE_DIR}/include/gpudoctor.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${CMAKE_BINARY_DIR}/gpudoctor.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
