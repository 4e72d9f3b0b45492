# Writes OUT with the output of `EXE __gen WHAT` (the manual page or a shell
# completion made from the program's option tables); fails the build if the
# program does.
get_filename_component(dir "${OUT}" DIRECTORY)
file(MAKE_DIRECTORY "${dir}")
execute_process(COMMAND "${EXE}" __gen "${WHAT}" OUTPUT_FILE "${OUT}.tmp" RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  file(REMOVE "${OUT}.tmp")
  message(FATAL_ERROR "${EXE} __gen ${WHAT} failed (${rc}): ${err}")
endif()
file(RENAME "${OUT}.tmp" "${OUT}")
