# Runs CMD (a ;-list) and fails unless it exits with EXPECT; optional MATCH must appear
# in its combined output. Used for the tessera command's exit-code tests.
execute_process(COMMAND ${CMD} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL EXPECT)
  message(FATAL_ERROR "exit code ${rc}, expected ${EXPECT}\n${out}${err}")
endif()
if(DEFINED MATCH AND NOT "${out}${err}" MATCHES "${MATCH}")
  message(FATAL_ERROR "output lacks '${MATCH}':\n${out}${err}")
endif()
message(STATUS "exit ${rc} as expected")
