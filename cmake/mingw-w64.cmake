# Cross-compiling gpudoctor.exe with Debian's MinGW-w64 (gcc-mingw-w64-x86-64-win32).
# Used by `make windows`; the static jansson/zstd/zlib come from
# tools/win-deps.sh under GD_WIN_DEPS (build-win/deps/prefix).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(GD_MINGW x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${GD_MINGW}-gcc)
set(CMAKE_RC_COMPILER ${GD_MINGW}-windres)
set(CMAKE_AR ${GD_MINGW}-ar CACHE FILEPATH "")
set(CMAKE_RANLIB ${GD_MINGW}-ranlib CACHE FILEPATH "")
set(CMAKE_FIND_ROOT_PATH /usr/${GD_MINGW})
if(DEFINED GD_WIN_DEPS)
  list(APPEND CMAKE_FIND_ROOT_PATH ${GD_WIN_DEPS})
endif()
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
