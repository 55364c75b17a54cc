# The README's examples must be code the tests build and run, so the code a new user
# copies is code that compiles and passes:
#   cmake -DREADME=README.md -DEXAMPLE=examples/quickstart.cpp -P readme_example.cmake
# checks that the README's first ```cpp block is EXAMPLE from its first #include on;
#   cmake ... -DAFTER="## Point functions" -DEXCERPT=ON -P readme_example.cmake
# checks that the first ```cpp block after the line AFTER appears verbatim in EXAMPLE.
file(READ "${README}" readme)
file(READ "${EXAMPLE}" example)
if(DEFINED AFTER)
  string(FIND "${readme}" "${AFTER}" from)
  if(from EQUAL -1)
    message(FATAL_ERROR "${README} has no '${AFTER}'")
  endif()
  string(SUBSTRING "${readme}" ${from} -1 readme)
endif()
string(FIND "${readme}" "```cpp\n" open)
if(open EQUAL -1)
  message(FATAL_ERROR "${README} has no ```cpp block")
endif()
math(EXPR open "${open} + 7")
string(SUBSTRING "${readme}" ${open} -1 readme)
string(FIND "${readme}" "```" close)
string(SUBSTRING "${readme}" 0 ${close} block)
string(STRIP "${block}" block)
if(EXCERPT)
  string(FIND "${example}" "${block}" at)
  if(at EQUAL -1)
    file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/readme_block.cpp" "${block}\n")
    message(FATAL_ERROR "the README's block after '${AFTER}' is not in ${EXAMPLE} verbatim; "
      "the README's block is in readme_block.cpp: make it an excerpt of the example")
  endif()
  message(STATUS "the README's block after '${AFTER}' is an excerpt of ${EXAMPLE}")
  return()
endif()
string(FIND "${example}" "#include" first)
string(SUBSTRING "${example}" ${first} -1 code)
string(STRIP "${code}" code)
if(NOT block STREQUAL code)
  file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/readme_block.cpp" "${block}\n")
  message(FATAL_ERROR "the README's example differs from ${EXAMPLE} (from its first #include on); "
    "the README's block is in readme_block.cpp: make them the same")
endif()
message(STATUS "the README's example is ${EXAMPLE}")
