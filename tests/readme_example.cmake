# The README's example must be examples/quickstart.cpp (which the tests build and run),
# so the code a new user copies is code that compiles and passes:
#   cmake -DREADME=README.md -DEXAMPLE=examples/quickstart.cpp -P readme_example.cmake
file(READ "${README}" readme)
file(READ "${EXAMPLE}" example)
string(FIND "${readme}" "```cpp\n" open)
if(open EQUAL -1)
  message(FATAL_ERROR "${README} has no ```cpp block")
endif()
math(EXPR open "${open} + 7")
string(SUBSTRING "${readme}" ${open} -1 readme)
string(FIND "${readme}" "```" close)
string(SUBSTRING "${readme}" 0 ${close} block)
string(FIND "${example}" "#include" first)
string(SUBSTRING "${example}" ${first} -1 code)
string(STRIP "${block}" block)
string(STRIP "${code}" code)
if(NOT block STREQUAL code)
  file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/readme_block.cpp" "${block}\n")
  message(FATAL_ERROR "the README's example differs from ${EXAMPLE} (from its first #include on); "
    "the README's block is in readme_block.cpp: make them the same")
endif()
message(STATUS "the README's example is ${EXAMPLE}")
