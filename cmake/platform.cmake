# One implementation per OS of the platform interfaces (src/core/plat.h,
# src/core/fs.h): files named *_win32.c are built only for Windows, *_posix.c
# only elsewhere. The Windows build (make windows, cmake/mingw-w64.cmake)
# also leaves out the Linux-only files below and forces compat_win32.h into
# every file, so shared code needs no #ifdef _WIN32.
#   gd_platform_filter(<list variable>)
set(GD_PLATFORM linux)
if(WIN32)
  set(GD_PLATFORM windows)
endif()

# Linux-only: the fork/exec supervisor (Windows: supervisor_win32.c), the
# group reaper, /dev/kmsg, the LD_PRELOAD tracer's reader.
set(GD_LINUX_ONLY
  probe/supervisor.c probe/kmsg.c probe/reap.c
  probe/trace_hang.c probe/trace_slot.c
  cli/trace_cli.c)

function(gd_platform_filter var)
  set(l ${${var}})
  if(WIN32)
    list(FILTER l EXCLUDE REGEX "_posix\\.c$")
    foreach(f ${GD_LINUX_ONLY})
      list(FILTER l EXCLUDE REGEX "/src/${f}$")
    endforeach()
  else()
    list(FILTER l EXCLUDE REGEX "_win32\\.c$")
  endif()
  set(${var} ${l} PARENT_SCOPE)
endfunction()

if(WIN32)
  add_compile_options(-include ${CMAKE_SOURCE_DIR}/src/core/compat_win32.h
                      # gd_fmt's format(printf) is checked as MSVC printf
                      # here; the Linux build checks the formats.
                      -Wno-format)
  include_directories(${CMAKE_SOURCE_DIR}/src/core/win32)
  add_compile_definitions(_FILE_OFFSET_BITS=64 WIN32_LEAN_AND_MEAN
                          _WIN32_WINNT=0x0A00 __USE_MINGW_ANSI_STDIO=1)
  # No MSVC runtime DLLs beside the exe: libgcc and winpthreads static too.
  add_link_options(-static -static-libgcc)
  # POSIX regex from TRE (tools/win-deps.sh)
  find_library(GD_TRE_LIB tre REQUIRED)
  find_path(GD_TRE_INC regex.h REQUIRED)
  include_directories(${GD_TRE_INC})
  set(GD_PLATFORM_LIBS ${GD_TRE_LIB})
else()
  set(GD_PLATFORM_LIBS "")
endif()
