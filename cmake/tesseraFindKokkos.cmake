# Finds Kokkos and provides the imported target tessera::kokkos_core (Kokkos' core library
# and headers; tessera::kokkos is tessera's reference backend built on it).
#
# 1. -DKokkos_ROOT=<prefix> (or the environment variable): that install and no other, any
#    version from 4.0; a path without a Kokkos CMake config fails here, naming the path.
# 2. Otherwise an upstream 4.x/5.x config found on the default paths (CMAKE_PREFIX_PATH).
# 3. Otherwise Debian/Ubuntu's libtrilinos-kokkos-dev (Kokkos 3.4, Serial only), whose
#    KokkosConfig.cmake points at a non-existent /usr/lib/include: the header
#    Kokkos_Core.hpp (in include/trilinos) and libtrilinos_kokkoscore are found directly,
#    below CMAKE_PREFIX_PATH or TESSERA_KOKKOS_PREFIX (e.g. a folder of unpacked .deb files).
#
# Used both by tessera's own build and by tesseraConfig.cmake on the consumer's side. An
# installed tessera records the Kokkos it was built with (TESSERA_KOKKOS_BUILT_WITH_*) and
# finds that one again: a consumer never silently gets another Kokkos.
#
# With TESSERA_KOKKOS_OPTIONAL (the package config's default), a recorded Kokkos that is
# gone leaves tessera::kokkos_core undefined instead of failing.
#
# Sets TESSERA_KOKKOS_KIND (upstream | trilinos), TESSERA_KOKKOS_DESCRIPTION and, for the
# package config, TESSERA_KOKKOS_RECORD_DIR / _VERSION / _INCLUDE_DIR / _LIBRARY.
include_guard(GLOBAL)

if(TARGET tessera::kokkos_core)
  return()
endif()

set(TESSERA_KOKKOS_PREFIX "" CACHE PATH "Extra prefix searched for a Trilinos-packaged Kokkos (headers in include/trilinos)")

# On the consumer's side the Kokkos reference may be optional (find_package(tessera)
# without COMPONENTS kokkos): then a missing Kokkos leaves tessera::kokkos out instead of
# failing. A macro, so that return() leaves this file.
macro(_tessera_kokkos_missing)
  if(TESSERA_KOKKOS_OPTIONAL)
    string(CONCAT _tessera_kokkos_why ${ARGN})
    message(STATUS "tessera: the Kokkos reference (tessera::kokkos) is not available: ${_tessera_kokkos_why}")
    return()
  endif()
  message(FATAL_ERROR ${ARGN})
endmacro()

function(_tessera_use_upstream_kokkos)
  add_library(tessera::kokkos_core INTERFACE IMPORTED GLOBAL)
  target_link_libraries(tessera::kokkos_core INTERFACE Kokkos::kokkos)
endfunction()

set(_tessera_kokkos_root "")
if(Kokkos_ROOT)
  set(_tessera_kokkos_root "${Kokkos_ROOT}")
elseif(DEFINED ENV{Kokkos_ROOT})
  set(_tessera_kokkos_root "$ENV{Kokkos_ROOT}")
endif()

if(TESSERA_KOKKOS_BUILT_WITH STREQUAL "upstream" AND NOT _tessera_kokkos_root)
  # An installed tessera: the Kokkos it was built with, found where it was (or below
  # CMAKE_PREFIX_PATH if the install moved), at exactly that version.
  find_package(Kokkos ${TESSERA_KOKKOS_BUILT_WITH_VERSION} EXACT CONFIG QUIET
    PATHS "${TESSERA_KOKKOS_BUILT_WITH_DIR}")
  if(NOT Kokkos_FOUND)
    _tessera_kokkos_missing(
      "tessera was built with Kokkos ${TESSERA_KOKKOS_BUILT_WITH_VERSION} from "
      "'${TESSERA_KOKKOS_BUILT_WITH_DIR}', which is not found there any more (nor that version "
      "below CMAKE_PREFIX_PATH). Reinstall that Kokkos, pass -DKokkos_ROOT=<its prefix>, or "
      "rebuild tessera against the Kokkos you have.")
  endif()
  _tessera_use_upstream_kokkos()
  set(TESSERA_KOKKOS_KIND upstream)
elseif(TESSERA_KOKKOS_BUILT_WITH STREQUAL "trilinos" AND NOT _tessera_kokkos_root)
  if(NOT EXISTS "${TESSERA_KOKKOS_BUILT_WITH_INCLUDE_DIR}/Kokkos_Core.hpp" OR
     NOT EXISTS "${TESSERA_KOKKOS_BUILT_WITH_LIBRARY}")
    _tessera_kokkos_missing(
      "tessera was built with the Trilinos-packaged Kokkos ('${TESSERA_KOKKOS_BUILT_WITH_INCLUDE_DIR}', "
      "'${TESSERA_KOKKOS_BUILT_WITH_LIBRARY}'), which is not found there any more. Install "
      "libtrilinos-kokkos-dev again, or rebuild tessera against the Kokkos you have.")
  endif()
  set(TESSERA_KOKKOS_INCLUDE_DIR "${TESSERA_KOKKOS_BUILT_WITH_INCLUDE_DIR}")
  set(TESSERA_KOKKOS_CORE_LIBRARY "${TESSERA_KOKKOS_BUILT_WITH_LIBRARY}")
  set(TESSERA_KOKKOS_KIND trilinos)
elseif(_tessera_kokkos_root)
  # The user pointed at an install: that one, and fail loudly if it is not there.
  if(NOT IS_DIRECTORY "${_tessera_kokkos_root}")
    message(FATAL_ERROR "tessera: Kokkos_ROOT='${_tessera_kokkos_root}' is not a directory. "
      "Point it at the prefix a Kokkos 4.x/5.x was installed to (the folder holding "
      "lib/cmake/Kokkos), or leave it out to use Debian's libtrilinos-kokkos-dev.")
  endif()
  find_package(Kokkos CONFIG QUIET NO_DEFAULT_PATH PATHS "${_tessera_kokkos_root}")
  if(NOT Kokkos_FOUND)
    message(FATAL_ERROR "tessera: Kokkos_ROOT='${_tessera_kokkos_root}' holds no Kokkos CMake config "
      "(searched for KokkosConfig.cmake below it, e.g. lib/cmake/Kokkos). Point it at the prefix "
      "a Kokkos 4.x/5.x was installed to.")
  endif()
  if(Kokkos_VERSION VERSION_LESS 4)
    message(FATAL_ERROR "tessera: Kokkos_ROOT='${_tessera_kokkos_root}' holds Kokkos ${Kokkos_VERSION} "
      "(${Kokkos_DIR}); its CMake config is Debian's broken Trilinos packaging. Leave Kokkos_ROOT "
      "out to use that Kokkos through tessera's fallback, or point it at a Kokkos 4.x/5.x install.")
  endif()
  if(TESSERA_KOKKOS_BUILT_WITH_VERSION AND NOT Kokkos_VERSION VERSION_EQUAL TESSERA_KOKKOS_BUILT_WITH_VERSION)
    message(FATAL_ERROR "tessera was built with Kokkos ${TESSERA_KOKKOS_BUILT_WITH_VERSION}, but "
      "Kokkos_ROOT='${_tessera_kokkos_root}' holds ${Kokkos_VERSION}: the compiled reference sweeps "
      "need the same Kokkos. Point Kokkos_ROOT at ${TESSERA_KOKKOS_BUILT_WITH_DIR} or rebuild tessera.")
  endif()
  _tessera_use_upstream_kokkos()
  set(TESSERA_KOKKOS_KIND upstream)
else()
  # Otherwise only an upstream 4.x/5.x config counts: Debian's 3.4 config is broken.
  find_package(Kokkos 4 CONFIG QUIET)
  if(Kokkos_FOUND AND TARGET Kokkos::kokkos)
    _tessera_use_upstream_kokkos()
    set(TESSERA_KOKKOS_KIND upstream)
  else()
    set(_tessera_kokkos_hints)
    if(TESSERA_KOKKOS_PREFIX)
      list(APPEND _tessera_kokkos_hints ${TESSERA_KOKKOS_PREFIX} ${TESSERA_KOKKOS_PREFIX}/usr)
    endif()
    find_path(TESSERA_KOKKOS_INCLUDE_DIR Kokkos_Core.hpp
      HINTS ${_tessera_kokkos_hints}
      PATH_SUFFIXES include/trilinos trilinos include/kokkos kokkos include)
    find_library(TESSERA_KOKKOS_CORE_LIBRARY NAMES trilinos_kokkoscore kokkoscore
      HINTS ${_tessera_kokkos_hints}
      PATH_SUFFIXES lib/${CMAKE_LIBRARY_ARCHITECTURE} lib lib64)
    if(NOT TESSERA_KOKKOS_INCLUDE_DIR OR NOT TESSERA_KOKKOS_CORE_LIBRARY)
      message(FATAL_ERROR
        "tessera needs Kokkos and found none.\n"
        "  Debian/Ubuntu: apt-get install libtrilinos-kokkos-dev  (or run scripts/bootstrap.sh)\n"
        "  Upstream Kokkos 4.x/5.x: pass -DKokkos_ROOT=<install prefix>\n"
        "  Unpacked .deb files: pass -DTESSERA_KOKKOS_PREFIX=<folder> (see README, GPU / offline install)\n"
        "  (searched: header Kokkos_Core.hpp -> '${TESSERA_KOKKOS_INCLUDE_DIR}', "
        "library trilinos_kokkoscore -> '${TESSERA_KOKKOS_CORE_LIBRARY}')")
    endif()
    set(TESSERA_KOKKOS_KIND trilinos)
  endif()
endif()

# KOKKOS_VERSION as the headers define it (30401 for 3.4.1), for messages and tests.
if(TESSERA_KOKKOS_KIND STREQUAL "trilinos")
  file(STRINGS "${TESSERA_KOKKOS_INCLUDE_DIR}/KokkosCore_config.h" _tessera_kokkos_v REGEX "#define KOKKOS_VERSION [0-9]+")
  string(REGEX MATCH "[0-9]+$" TESSERA_KOKKOS_VERSION_NUMBER "${_tessera_kokkos_v}")
else()
  math(EXPR TESSERA_KOKKOS_VERSION_NUMBER "${Kokkos_VERSION_MAJOR} * 10000 + ${Kokkos_VERSION_MINOR} * 100 + ${Kokkos_VERSION_PATCH}")
endif()

if(TESSERA_KOKKOS_KIND STREQUAL "trilinos")
  add_library(tessera::kokkos_core INTERFACE IMPORTED GLOBAL)
  # SYSTEM: Kokkos 3.4's headers warn under C++20 (volatile returns, enum arithmetic).
  set_target_properties(tessera::kokkos_core PROPERTIES
    INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${TESSERA_KOKKOS_INCLUDE_DIR}"
    INTERFACE_INCLUDE_DIRECTORIES "${TESSERA_KOKKOS_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${TESSERA_KOKKOS_CORE_LIBRARY};${CMAKE_DL_LIBS}")
  set(TESSERA_KOKKOS_DESCRIPTION "Trilinos-packaged Kokkos (${TESSERA_KOKKOS_INCLUDE_DIR}, ${TESSERA_KOKKOS_CORE_LIBRARY})")
  set(TESSERA_KOKKOS_RECORD_INCLUDE_DIR "${TESSERA_KOKKOS_INCLUDE_DIR}")
  set(TESSERA_KOKKOS_RECORD_LIBRARY "${TESSERA_KOKKOS_CORE_LIBRARY}")
else()
  set(TESSERA_KOKKOS_DESCRIPTION "upstream Kokkos ${Kokkos_VERSION} (${Kokkos_DIR})")
  set(TESSERA_KOKKOS_RECORD_DIR "${Kokkos_DIR}")
  set(TESSERA_KOKKOS_RECORD_VERSION "${Kokkos_VERSION}")
endif()
message(STATUS "tessera: Kokkos: ${TESSERA_KOKKOS_DESCRIPTION}")
