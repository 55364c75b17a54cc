# Run after each suite is built (POST_BUILD, before doctest's discovery): refuses test-case
# names that ctest cannot register as one test running that one case. doctest's discovery
# splits its listing on ';' (a name "a; b" becomes the tests "a" and " b", whose
# --test-case filters match nothing; unbalanced brackets merge lines the same way), and
# doctest's own filter syntax gives '\' a meaning.
#   cmake -DEXE=<suite> -P check_case_names.cmake
execute_process(COMMAND "${EXE}" --list-test-cases --no-version
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tessera: cannot list the test cases of ${EXE}: ${err}")
endif()
string(ASCII 30 semicolon)  # stands in for ';' while the listing is a CMake list
string(REPLACE ";" "${semicolon}" lines "${out}")
string(REPLACE "\n" ";" lines "${lines}")
set(bad "")
foreach(line IN LISTS lines)
  if(line MATCHES "^\\[doctest\\]" OR line MATCHES "^=+$" OR line STREQUAL "")
    continue()
  endif()
  string(REPLACE "${semicolon}" ";" name "${line}")
  if(name MATCHES "[][;\\\\]")
    string(APPEND bad "\n  \"${name}\"")
  endif()
endforeach()
if(bad)
  message(FATAL_ERROR "tessera: ${EXE} has test cases whose names ctest cannot register "
    "(';' and brackets split doctest's discovery, '\\' is doctest's filter escape); rename them:${bad}")
endif()
