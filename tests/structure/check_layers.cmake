# The layering and comment rules of docs/design.md ("Layers"), checked over the sources:
#   cmake -DSOURCE_DIR=<repository> -P check_layers.cmake
# 1. A header or source includes tessera headers only from its own layer or the layers below:
#      core/             tessera/core, tessera/io (the file formats live in core/: they need nothing above it)
#      backends/host/    tessera/core, tessera/host
#      backends/kokkos/  tessera/core, tessera/kokkos
#      backends/cuda/    tessera/core, tessera/cuda
#      algorithms/       tessera/core, tessera/algorithms, tessera/io
#      distributed/      everything above and tessera/mpi
#      python/src/       everything but tessera/mpi (the Python module's native half)
#    The umbrella header (tessera/tessera.hpp) gathers every layer, so no layer's folder holds
#    it (CMake writes it from cmake/tessera.hpp.in). algorithms/ reaches every backend
#    through customisation points that argument-dependent lookup finds in the backend's
#    umbrella (tessera/host/host.hpp, tessera/cuda/cuda.hpp, via tessera/backends.hpp). The
#    known exceptions below name another layer's type on purpose: validate's reference is
#    kokkos::mdrange, and kokkos::mdrange sweeps CudaSpace views where Kokkos runs on CUDA.
#    A new one fails the test.
#    -DMIN_FILES=n (100) guards against a glob that finds nothing to check.
#    A layer's detail/ folder (tessera/<layer>/detail/) holds its internal headers: only its own
#    layer includes them (core's, the library's toolbox, every layer of the library). The
#    public headers are the others: what programs include, and what a strategy written
#    outside the library builds on. -DUSER_DIRS lists folders of code written against the
#    public headers only (examples/, apps/, python/src/: no detail/ include at all).
# 2. No library comment cites a benchmark run ("run 28", "runs 15 and 17"): measurements and
#    their history live in perf/RESULTS.md and commit messages, comments say why.
if(NOT SOURCE_DIR)
  message(FATAL_ERROR "check_layers.cmake: pass -DSOURCE_DIR=<repository root>")
endif()

# folder | the layers it may include | its own layer (whose detail/ headers it may include
# besides core's; none for the Python module's native half)
set(_layers "core|core,io|core" "backends/host|core,host|host" "backends/kokkos|core,kokkos|kokkos"
            "backends/cuda|core,cuda|cuda" "algorithms|core,algorithms,io|algorithms"
            "distributed|core,host,kokkos,cuda,algorithms,io,mpi|mpi" "python/src|core,host,kokkos,cuda,algorithms,io|-")
if(NOT DEFINED USER_DIRS)
  set(USER_DIRS examples apps python/src)
endif()
# file -> the include it may keep (path relative to SOURCE_DIR, then the included header)
set(_known
    "backends/kokkos/include/tessera/kokkos/mdrange.hpp|tessera/cuda/memory_space.hpp"
    "algorithms/include/tessera/algorithms/validate.hpp|tessera/kokkos/mdrange.hpp")

set(_violations "")
set(_files_checked 0)
set(_includes_checked 0)
foreach(_entry IN LISTS _layers)
  string(REPLACE "|" ";" _pair "${_entry}")
  list(GET _pair 0 _dir)
  list(GET _pair 1 _allowed)
  list(GET _pair 2 _own)
  string(REPLACE "," ";" _allowed "${_allowed}")
  file(GLOB_RECURSE _files RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/${_dir}/*.hpp" "${SOURCE_DIR}/${_dir}/*.cuh"
       "${SOURCE_DIR}/${_dir}/*.h" "${SOURCE_DIR}/${_dir}/*.cpp" "${SOURCE_DIR}/${_dir}/*.cu")
  if(NOT _files AND NOT DEFINED MIN_FILES)
    list(APPEND _violations "${_dir}: no sources found (has the layer moved? update this test)")
  endif()
  foreach(_f IN LISTS _files)
    math(EXPR _files_checked "${_files_checked} + 1")
    file(STRINGS "${SOURCE_DIR}/${_f}" _lines REGEX "#include +\"tessera/[a-z_]+/")
    foreach(_line IN LISTS _lines)
      math(EXPR _includes_checked "${_includes_checked} + 1")
      string(REGEX REPLACE ".*#include +\"(tessera/([a-z_]+)/[^\"]+)\".*" "\\1" _header "${_line}")
      string(REGEX REPLACE ".*#include +\"tessera/([a-z_]+)/.*" "\\1" _layer "${_line}")
      list(FIND _allowed "${_layer}" _ok)
      list(FIND _known "${_f}|${_header}" _exception)
      if(_ok EQUAL -1 AND _exception EQUAL -1)
        list(APPEND _violations "${_f} includes ${_header}: ${_dir}/ may include only ${_allowed}")
      endif()
      if(_header MATCHES "^tessera/[a-z_]+/detail/" AND NOT _layer STREQUAL "core" AND NOT _layer STREQUAL _own)
        list(APPEND _violations
             "${_f} includes ${_header}: another layer's internal header (detail/), include its public header instead")
      endif()
    endforeach()
    # comments citing benchmark runs
    file(STRINGS "${SOURCE_DIR}/${_f}" _cites REGEX "//.*[Rr]uns? [0-9]+")
    foreach(_line IN LISTS _cites)
      string(STRIP "${_line}" _line)
      string(REPLACE ";" "," _line "${_line}")
      list(APPEND _violations "${_f}: a comment cites a run (move the measurement to perf/RESULTS.md): ${_line}")
    endforeach()
  endforeach()
endforeach()

# code written against the public headers: no detail/ header at all
foreach(_dir IN LISTS USER_DIRS)
  file(GLOB_RECURSE _files RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/${_dir}/*.hpp" "${SOURCE_DIR}/${_dir}/*.h"
       "${SOURCE_DIR}/${_dir}/*.cpp" "${SOURCE_DIR}/${_dir}/*.cu")
  foreach(_f IN LISTS _files)
    math(EXPR _files_checked "${_files_checked} + 1")
    file(STRINGS "${SOURCE_DIR}/${_f}" _lines REGEX "#include +\"tessera/[a-z_]+/detail/")
    foreach(_line IN LISTS _lines)
      string(REGEX REPLACE ".*#include +\"([^\"]+)\".*" "\\1" _header "${_line}")
      list(APPEND _violations "${_f} includes ${_header}: ${_dir}/ is written against the public headers only")
    endforeach()
  endforeach()
endforeach()

# every known exception must still exist (a stale entry would hide nothing, but says the
# list is out of date)
foreach(_entry IN LISTS _known)
  string(REPLACE "|" ";" _pair "${_entry}")
  list(GET _pair 0 _f)
  list(GET _pair 1 _header)
  set(_found FALSE)
  if(EXISTS "${SOURCE_DIR}/${_f}")
    file(STRINGS "${SOURCE_DIR}/${_f}" _hits REGEX "#include +\"${_header}\"")
    if(_hits)
      set(_found TRUE)
    endif()
  endif()
  if(NOT _found)
    list(APPEND _violations "known exception '${_f} -> ${_header}' no longer exists: remove it from check_layers.cmake")
  endif()
endforeach()

if(NOT DEFINED MIN_FILES)
  set(MIN_FILES 100)
endif()
if(_files_checked LESS MIN_FILES)
  list(APPEND _violations "only ${_files_checked} files / ${_includes_checked} includes found under ${SOURCE_DIR}")
endif()
if(_violations)
  list(JOIN _violations "\n  " _text)
  message(FATAL_ERROR "layering and comment rules broken:\n  ${_text}")
endif()
message(STATUS "layers: ${_files_checked} files, ${_includes_checked} tessera includes, all within their layers; no run citations")
