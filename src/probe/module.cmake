# probe/: the Vulkan compute shader is compiled to SPIR-V at build time by
# Debian's glslang (glslangValidator) and embedded as a C array; volk (Debian
# libvulkan-volk-dev ships volk.c + volk.h in /usr/include) is compiled in,
# and loads libvulkan at run time in the probe child (vulkan-1.dll in the
# Windows build, where volk.c is compiled from the same Debian file and the
# Vulkan and OpenCL headers (Debian: libvulkan-dev, opencl-c-headers) are
# seen through a directory of links: the MinGW compiler must not see the
# rest of the host's /usr/include).
find_program(GD_GLSLANG glslangValidator REQUIRED)
set(_gd_gen ${CMAKE_BINARY_DIR}/generated)
set(_gd_spv ${_gd_gen}/vector_add.spv)
set(_gd_spv_c ${_gd_gen}/vector_add_spv.c)
add_custom_command(OUTPUT ${_gd_spv_c}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${_gd_gen}
  COMMAND ${GD_GLSLANG} -V --target-env vulkan1.0 -o ${_gd_spv}
          ${CMAKE_SOURCE_DIR}/src/probe/shaders/vector_add.comp
  COMMAND ${CMAKE_COMMAND} -DIN=${_gd_spv} -DOUT=${_gd_spv_c}
          -DNAME=gd_spv_vector_add -P ${CMAKE_SOURCE_DIR}/src/probe/embed.cmake
  DEPENDS ${CMAKE_SOURCE_DIR}/src/probe/shaders/vector_add.comp
          ${CMAKE_SOURCE_DIR}/src/probe/embed.cmake
  COMMENT "SPIR-V: vector_add.comp" VERBATIM)
list(APPEND GD_EXTRA_SOURCES ${_gd_spv_c})

# volk's own CMake package first (upstream installs, other distributions);
# else Debian's libvulkan-volk-dev, which ships only the sources.
find_package(volk CONFIG QUIET)
if(volk_FOUND AND TARGET volk::volk)
  list(APPEND GD_EXTRA_LIBS volk::volk)
else()
  find_file(GD_VOLK_C volk.c PATHS /usr/include NO_DEFAULT_PATH
            NO_CMAKE_FIND_ROOT_PATH)
  if(NOT GD_VOLK_C)
    message(FATAL_ERROR "volk not found: install libvulkan-volk-dev (Debian) "
                        "or volk with its CMake package")
  endif()
  # third-party source: built as is, without our warning flags
  set_source_files_properties(${GD_VOLK_C} PROPERTIES COMPILE_OPTIONS "-w")
  list(APPEND GD_EXTRA_SOURCES ${GD_VOLK_C})
endif()
if(WIN32)
  set(_gd_hostinc ${CMAKE_BINARY_DIR}/host-headers)
  file(MAKE_DIRECTORY ${_gd_hostinc})
  foreach(_p vulkan vk_video volk.h CL)
    if(EXISTS /usr/include/${_p} AND NOT EXISTS ${_gd_hostinc}/${_p})
      file(CREATE_LINK /usr/include/${_p} ${_gd_hostinc}/${_p} SYMBOLIC)
    endif()
  endforeach()
  list(APPEND GD_EXTRA_INCLUDES ${_gd_hostinc})
endif()
