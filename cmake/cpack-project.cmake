# Read by cpack for each generator (CPACK_PROJECT_CONFIG_FILE, CMakeLists.txt): a build that cannot make a
# whole package (the Windows zip without its manual page and notices) says why and makes none.
if(CPACK_CUDNNCTL_NOT_READY)
  message(FATAL_ERROR "cudnnctl: ${CPACK_CUDNNCTL_NOT_READY}")
endif()
