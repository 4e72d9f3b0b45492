# Cross-compile the Windows x64 build on Linux with mingw-w64; tests run the
# .exe under Wine (CMAKE_CROSSCOMPILING_EMULATOR).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
find_program(CUDNNCTL_WINE NAMES wine64 wine PATHS /usr/lib/wine /usr/bin)
if(CUDNNCTL_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${CUDNNCTL_WINE})
endif()
# libarchive for Windows: built static from Debian's source package by
# scripts/mingw-libarchive.sh into a prefix named here (its libarchive.pc is
# the only one pkg-config sees); without it the build reads no archives (the
# host's libarchive is not for Windows).
set(CUDNNCTL_MINGW_PREFIX "" CACHE PATH "a prefix made by scripts/mingw-libarchive.sh")
if(CUDNNCTL_MINGW_PREFIX AND EXISTS "${CUDNNCTL_MINGW_PREFIX}/lib/pkgconfig/libarchive.pc")
  set(ENV{PKG_CONFIG_LIBDIR} "${CUDNNCTL_MINGW_PREFIX}/lib/pkgconfig")
  set(ENV{PKG_CONFIG_PATH} "")
  list(APPEND CMAKE_FIND_ROOT_PATH "${CUDNNCTL_MINGW_PREFIX}")
  set(CUDNNCTL_WITH_LIBARCHIVE ON CACHE BOOL "libarchive from CUDNNCTL_MINGW_PREFIX" FORCE)
else()
  set(CUDNNCTL_WITH_LIBARCHIVE OFF CACHE BOOL "the Debian host libarchive is not for Windows" FORCE)
endif()
