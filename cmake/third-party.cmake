# Writes OUT, THIRD-PARTY.txt of the Windows zip: the notices of the libraries linked statically into
# cudnnctl.exe, each as the package it came from states it, read at build time (nothing of it is kept in the
# repository):
#   libarchive: Debian's source package, built by scripts/mingw-libarchive.sh into LIBARCHIVE_PREFIX (its
#     COPYING, copied there as COPYING.libarchive; the version from the prefix's .source);
#   zlib (libarchive's deflate), the mingw-w64 runtime (the C run-time start-up, libmingwex, and libwinpthread
#     when the compiler's thread model is posix) and libgcc: the Debian packages holding the static libraries
#     the compiler CC links (dpkg-query -S), their /usr/share/doc/PACKAGE/copyright.
# Without LIBARCHIVE_PREFIX (a build without archive support) neither libarchive nor zlib is linked.
# Fails when a notice cannot be found: a zip without one is not made.
function(notice_of_file label file what out)
  get_filename_component(real "${file}" REALPATH)
  set(pkg "")
  foreach(path "${file}" "${real}")
    execute_process(COMMAND dpkg-query -S "${path}" OUTPUT_VARIABLE o ERROR_QUIET RESULT_VARIABLE rc)
    if(rc EQUAL 0 AND o MATCHES "^([^:,]+)")
      set(pkg "${CMAKE_MATCH_1}")
      break()
    endif()
  endforeach()
  if(NOT pkg)
    message(FATAL_ERROR "THIRD-PARTY.txt: no Debian package holds ${real} (${label}): its notice is unknown")
  endif()
  set(copyright "/usr/share/doc/${pkg}/copyright")
  if(NOT EXISTS "${copyright}")
    message(FATAL_ERROR "THIRD-PARTY.txt: ${copyright} (${label}) is missing")
  endif()
  execute_process(COMMAND dpkg-query -W -f=\${Version} "${pkg}" OUTPUT_VARIABLE version ERROR_QUIET)
  file(READ "${copyright}" text)
  set(${out} "${label}, from the Debian package ${pkg} ${version} (${what}).\nIts notice, ${copyright}:\n\n${text}"
    PARENT_SCOPE)
endfunction()

function(compiler_file flag out)
  execute_process(COMMAND "${CC}" ${flag} OUTPUT_VARIABLE f OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT IS_ABSOLUTE "${f}" OR NOT EXISTS "${f}")
    message(FATAL_ERROR "THIRD-PARTY.txt: ${CC} ${flag} names no file ('${f}')")
  endif()
  set(${out} "${f}" PARENT_SCOPE)
endfunction()

set(rule "================================================================================")
set(doc "cudnnctl.exe holds, besides cudnnctl's own code (LICENSE), these libraries, linked into it statically.\n\
Each one's notice follows as the package it came from states it.\n")
# (appended as text, not kept in a list: the notices hold semicolons)
if(LIBARCHIVE_PREFIX)
  set(copying "${LIBARCHIVE_PREFIX}/COPYING.libarchive")
  if(NOT EXISTS "${copying}" OR NOT EXISTS "${LIBARCHIVE_PREFIX}/.source")
    message(FATAL_ERROR "THIRD-PARTY.txt: ${copying} or .source is missing (scripts/mingw-libarchive.sh writes them)")
  endif()
  file(STRINGS "${LIBARCHIVE_PREFIX}/.source" source LIMIT_COUNT 1)
  file(READ "${copying}" text)
  string(APPEND doc "\n${rule}\nlibarchive, built from Debian's source package ${source} (archives: zip, tar, \
gzip).\nIts notice, the source's COPYING:\n\n${text}")
  compiler_file(-print-file-name=libz.a zlib)
  notice_of_file(zlib "${zlib}" "deflate for libarchive" text)
  string(APPEND doc "\n${rule}\n${text}")
endif()
compiler_file(-print-file-name=libmingwex.a mingwex)
notice_of_file("the mingw-w64 runtime" "${mingwex}" "the C run-time start-up and support code" text)
string(APPEND doc "\n${rule}\n${text}")
compiler_file(-print-libgcc-file-name libgcc)
notice_of_file(libgcc "${libgcc}" "GCC's support routines, under the GCC Runtime Library Exception" text)
string(APPEND doc "\n${rule}\n${text}")
file(WRITE "${OUT}.tmp" "${doc}")
file(RENAME "${OUT}.tmp" "${OUT}")
