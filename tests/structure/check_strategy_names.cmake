# "Adding a strategy touches its own unit and the one list" (docs/design.md), checked:
#   cmake -DSOURCE_DIR=<repository> -P check_strategy_names.cmake
# For each strategy of backends/cuda/include/tessera/cuda/strategies.def, the library files
# (core/, backends/, algorithms/, distributed/, apps/) outside its unit (strategies/<name>.hpp
# and the folder strategies/<name>/) that name it as an identifier, comments and string
# literals aside (a refusal may suggest another strategy by name), must be at most 3: what
# dispatch, automatic, point functions and the fused passes need of a strategy they take
# from the list and the traits its unit declares (candidates.hpp), not from its name.
# -DMAX_FILES=n (3) sets the bound (the test of the test runs it with 0, which must fail).
if(NOT SOURCE_DIR)
  message(FATAL_ERROR "check_strategy_names.cmake: pass -DSOURCE_DIR=<repository root>")
endif()
if(NOT DEFINED MAX_FILES)
  set(MAX_FILES 3)
endif()
set(_def "${SOURCE_DIR}/backends/cuda/include/tessera/cuda/strategies.def")
file(STRINGS "${_def}" _lines REGEX "^TESSERA_CUDA_STRATEGY\\([a-z_0-9]+\\)$")
set(_strategies "")
foreach(_l IN LISTS _lines)
  string(REGEX REPLACE "^TESSERA_CUDA_STRATEGY\\(([a-z_0-9]+)\\)$" "\\1" _s "${_l}")
  list(APPEND _strategies ${_s})
endforeach()
list(LENGTH _strategies _count)
if(_count LESS 3)
  message(FATAL_ERROR "check_strategy_names: found ${_count} strategies in ${_def}; expected the list")
endif()

set(_files "")
foreach(_dir core backends algorithms distributed apps)
  file(GLOB_RECURSE _found RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/${_dir}/*.hpp" "${SOURCE_DIR}/${_dir}/*.cpp"
       "${SOURCE_DIR}/${_dir}/*.cu" "${SOURCE_DIR}/${_dir}/*.cuh")
  list(APPEND _files ${_found})
endforeach()

# each file's code: comments and string literals removed
foreach(_f IN LISTS _files)
  file(READ "${SOURCE_DIR}/${_f}" _text)
  string(REGEX REPLACE "//[^\n]*" "" _text "${_text}")
  string(REGEX REPLACE "\"([^\"\\\\\n]|\\\\.)*\"" "\"\"" _text "${_text}")
  string(MAKE_C_IDENTIFIER "${_f}" _key)
  set(_code_${_key} "${_text}")
endforeach()

set(_failed "")
foreach(_s IN LISTS _strategies)
  set(_naming "")
  foreach(_f IN LISTS _files)
    if(_f MATCHES "/strategies/${_s}\\.hpp$" OR _f MATCHES "/strategies/${_s}/")
      continue()
    endif()
    string(MAKE_C_IDENTIFIER "${_f}" _key)
    if(_code_${_key} MATCHES "(^|[^A-Za-z0-9_])${_s}([^A-Za-z0-9_]|$)")
      list(APPEND _naming ${_f})
    endif()
  endforeach()
  list(LENGTH _naming _n)
  message(STATUS "${_s}: named in ${_n} file(s) outside its unit ${_naming}")
  if(_n GREATER MAX_FILES)
    list(APPEND _failed "${_s} (${_n}: ${_naming})")
  endif()
endforeach()
if(_failed)
  string(REPLACE ";" "\n  " _msg "${_failed}")
  message(FATAL_ERROR "strategies named outside their units in more than ${MAX_FILES} files:\n  ${_msg}\n"
                      "take what the code needs from the list (strategies.hpp) or a trait the unit declares "
                      "(candidates.hpp) instead of the name")
endif()
