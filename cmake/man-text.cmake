# Writes OUT, the manual page IN rendered as plain text for the Windows zip (cudnnctl.txt): groff's man macros
# for an ASCII terminal (-Tascii: the page is ASCII, and so is its text, which then reads the same in Notepad and
# in cmd's `type` whatever the code page), with grotty's SGR escapes and overstrikes off (-P-c -P-b -P-u: no ESC
# sequences, no backspaces for bold or underline), as `man` shows it. Lines end in LF (Notepad reads them since
# Windows 10 1809). Fails the build when groff does, writes nothing, or leaves a control character other than a
# tab or a line feed.
execute_process(COMMAND "${GROFF}" -man -Tascii -P-c -P-b -P-u "${IN}"
  OUTPUT_VARIABLE text ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR text STREQUAL "")
  message(FATAL_ERROR "${GROFF} -man -Tascii ${IN} failed (${rc}): ${err}")
endif()
string(ASCII 1 c1)
string(ASCII 8 c8)
string(ASCII 11 c11)
string(ASCII 31 c31)
string(ASCII 127 c127)
string(REGEX MATCH "[${c1}-${c8}${c11}-${c31}${c127}]" bad "${text}")
if(NOT bad STREQUAL "")
  message(FATAL_ERROR "${GROFF} left control characters in the text of ${IN}")
endif()
file(WRITE "${OUT}.tmp" "${text}")
file(RENAME "${OUT}.tmp" "${OUT}")
