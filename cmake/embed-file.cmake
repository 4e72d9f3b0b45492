# Writes OUT, a C file holding the bytes of IN as `const char SYMBOL[]` (NUL
# added) and `const size_t SYMBOL_len`, so the program carries the file (the
# framework probe script) and needs no data files. Run by the build.
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" hexlen)
math(EXPR size "${hexlen} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "((0x..,){32})" "\\1\n" bytes "${bytes}")
get_filename_component(name "${IN}" NAME)
set(body "/* Generated from ${name} by cmake/embed-file.cmake: do not edit. */\n#include <stddef.h>\n\n")
string(APPEND body "extern const char ${SYMBOL}[];\nextern const size_t ${SYMBOL}_len;\n")
string(APPEND body "const char ${SYMBOL}[] = {\n${bytes}0x00};\nconst size_t ${SYMBOL}_len = ${size};\n")
file(WRITE "${OUT}.tmp" "${body}")
execute_process(COMMAND "${CMAKE_COMMAND}" -E copy_if_different "${OUT}.tmp" "${OUT}")
