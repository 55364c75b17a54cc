# Fails unless FILE exists and its text matches the regular expression MATCH.
#   cmake -DFILE=<path> -DMATCH=<regex> -P file_contains.cmake
if(NOT EXISTS "${FILE}")
  message(FATAL_ERROR "${FILE} does not exist")
endif()
file(READ "${FILE}" text LIMIT 4096)
if(NOT text MATCHES "${MATCH}")
  message(FATAL_ERROR "${FILE} lacks '${MATCH}':\n${text}")
endif()
message(STATUS "${FILE} matches")
