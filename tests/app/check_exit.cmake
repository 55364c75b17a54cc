# Runs CMD (a ;-list) and fails unless it exits with EXPECT; optional MATCH must appear in
# its combined output and optional NOMATCH must not. With OUTPUT_FILE, standard output goes
# to that file (/dev/full: a failed write). Used for the tessera command's exit-code tests.
if(DEFINED OUTPUT_FILE)
  execute_process(COMMAND ${CMD} RESULT_VARIABLE rc OUTPUT_FILE ${OUTPUT_FILE} ERROR_VARIABLE err)
  set(out "")
else()
  execute_process(COMMAND ${CMD} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
endif()
if(NOT rc STREQUAL EXPECT)
  message(FATAL_ERROR "exit code ${rc}, expected ${EXPECT}\n${out}${err}")
endif()
if(DEFINED MATCH AND NOT "${out}${err}" MATCHES "${MATCH}")
  message(FATAL_ERROR "output lacks '${MATCH}':\n${out}${err}")
endif()
if(DEFINED NOMATCH AND "${out}${err}" MATCHES "${NOMATCH}")
  message(FATAL_ERROR "output has '${NOMATCH}':\n${out}${err}")
endif()
message(STATUS "exit ${rc} as expected")
