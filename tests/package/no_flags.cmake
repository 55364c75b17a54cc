# Fails when any CMake file of the installed package under DIR names a flag matching the
# regular expression NOMATCH (an exported compile option reaches every consumer's code).
#   cmake -DDIR=<install prefix> -DNOMATCH=<regex> -P no_flags.cmake
file(GLOB_RECURSE files "${DIR}/*.cmake")
list(LENGTH files count)
if(count LESS 2)
  message(FATAL_ERROR "only ${count} CMake files under ${DIR}: is the package installed?")
endif()
foreach(f IN LISTS files)
  file(READ "${f}" text)
  if(text MATCHES "${NOMATCH}")
    message(FATAL_ERROR "${f} names '${CMAKE_MATCH_0}': the installed package must not impose build-machine flags")
  endif()
endforeach()
message(STATUS "${count} installed CMake files, none names ${NOMATCH}")
