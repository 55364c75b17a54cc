# Every header of the library compiles on its own: for each one, a translation unit that
# includes only it goes through the compiler's front end (host headers: the C++ compiler
# with -fsyntax-only; CUDA headers: nvcc -cuda, which parses host and device code and
# generates nothing). A header that leans on something its includer happened to include
# first fails here, naming the header and the first error.
#   cmake -DCONFIG=<header_check_config.cmake> -DPASS=host|cuda -P check_headers.cmake
# The two passes are two ctest tests, so that ctest -j runs them side by side (the CUDA pass,
# about 3.5 s a header through nvcc, is the longer). CONFIG (written by tests/CMakeLists.txt at generate time) sets SOURCE_DIR, WORK_DIR,
# CXX, CXX_FLAGS, HOST_INCLUDES, HOST_DIRS, HOST_CHECK_COMPILES (the C++ compiler is
# Kokkos' nvcc_wrapper: compile an object, -fsyntax-only would not stop it linking) and, where CUDA is built, NVCC, CUDA_FLAGS,
# CUDA_INCLUDES, CUDA_DIRS (the folders whose *.hpp are checked with each compiler; an
# entry "folder|regex" checks only the headers matching regex). Headers matching
# DEVICE_ONLY (the distributed layer's device views) need the CUDA backend: the host
# pass leaves them to the CUDA pass.
if(NOT CONFIG)
  message(FATAL_ERROR "check_headers.cmake: pass -DCONFIG=<header_check_config.cmake>")
endif()
include("${CONFIG}")
file(MAKE_DIRECTORY "${WORK_DIR}")

set(_failures "")
set(_checked 0)
function(_check_dirs dirs compiler flags includes suffix)
  set(_inc "")
  foreach(_d IN LISTS includes)
    list(APPEND _inc "-I${_d}")
  endforeach()
  foreach(_entry IN LISTS dirs)
    string(REPLACE "|" ";" _pair "${_entry}")
    list(GET _pair 0 _dir)
    list(LENGTH _pair _len)
    file(GLOB_RECURSE _headers RELATIVE "${SOURCE_DIR}/${_dir}" "${SOURCE_DIR}/${_dir}/*.hpp")
    list(SORT _headers)
    if(_len GREATER 1)
      list(GET _pair 1 _only)
      list(FILTER _headers INCLUDE REGEX "${_only}")
    elseif(suffix STREQUAL ".cpp" AND DEVICE_ONLY)
      list(FILTER _headers EXCLUDE REGEX "${DEVICE_ONLY}")
    endif()
    foreach(_h IN LISTS _headers)
      string(MAKE_C_IDENTIFIER "${_h}" _id)
      set(_tu "${WORK_DIR}/${_id}${suffix}")
      file(WRITE "${_tu}" "#include \"${_h}\"\n")
      if(suffix STREQUAL ".cu")
        set(_out_args -cuda -o "${WORK_DIR}/${_id}.ii")
      elseif(HOST_CHECK_COMPILES)
        # Kokkos' nvcc_wrapper as the C++ compiler hands -fsyntax-only to the host compiler
        # and then links: it checks a header by compiling an object instead.
        set(_out_args -c -o "${WORK_DIR}/${_id}.o")
      else()
        set(_out_args -fsyntax-only)
      endif()
      execute_process(COMMAND "${compiler}" ${flags} ${_inc} ${_out_args} "${_tu}"
                      RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
      math(EXPR _n "${_checked} + 1")
      set(_checked ${_n} PARENT_SCOPE)
      set(_checked ${_n})
      if(NOT _rc EQUAL 0)
        string(REGEX MATCH "[^\n]*error[^\n]*" _first "${_err}")
        if(NOT _first)  # no line says "error" (a linker's "fatal", a crash): its last words
          string(STRIP "${_err}${_out}" _first)
          string(REGEX REPLACE ".*\n" "" _first "${_first}")
          if(NOT _first)
            set(_first "exit status ${_rc}, no output")
          endif()
        endif()
        list(APPEND _failures "${_dir}: ${_h}: ${_first}")
        set(_failures "${_failures}" PARENT_SCOPE)
      endif()
    endforeach()
  endforeach()
endfunction()

if(PASS STREQUAL "host")
  _check_dirs("${HOST_DIRS}" "${CXX}" "${CXX_FLAGS}" "${HOST_INCLUDES}" ".cpp")
  set(_expected 50)
  set(_where "HOST_DIRS: ${HOST_DIRS}")
elseif(PASS STREQUAL "cuda")
  if(NOT NVCC)
    message(FATAL_ERROR "check_headers.cmake: PASS=cuda but CONFIG names no NVCC (CUDA is off in this build)")
  endif()
  _check_dirs("${CUDA_DIRS}" "${NVCC}" "${CUDA_FLAGS}" "${CUDA_INCLUDES}" ".cu")
  set(_expected 20)
  set(_where "CUDA_DIRS: ${CUDA_DIRS}")
else()
  message(FATAL_ERROR "check_headers.cmake: pass -DPASS=host or -DPASS=cuda, not '${PASS}'")
endif()
if(_checked LESS _expected)
  list(APPEND _failures "only ${_checked} headers found: has a layer moved? (${_where})")
endif()
if(_failures)
  list(JOIN _failures "\n  " _text)
  message(FATAL_ERROR "headers that do not compile on their own:\n  ${_text}")
endif()
message(STATUS "${PASS} headers: ${_checked} compile on their own")
