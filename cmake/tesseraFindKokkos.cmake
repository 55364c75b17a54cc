# Finds Kokkos and provides the imported target tessera::kokkos.
#
# 1. An upstream Kokkos install: any version when -DKokkos_ROOT=<prefix> (or the
#    environment variable) names it, else a 4.x/5.x config found on the default paths;
#    tessera::kokkos forwards to Kokkos::kokkos.
# 2. Otherwise Debian/Ubuntu's libtrilinos-kokkos-dev (Kokkos 3.4, Serial only), whose
#    KokkosConfig.cmake points at a non-existent /usr/lib/include: the header
#    Kokkos_Core.hpp (in include/trilinos) and libtrilinos_kokkoscore are found directly,
#    below CMAKE_PREFIX_PATH or TESSERA_KOKKOS_PREFIX (e.g. a folder of unpacked .deb files).
# Used both by tessera's own build and by tesseraConfig.cmake on the consumer's side.
include_guard(GLOBAL)

if(TARGET tessera::kokkos)
  return()
endif()

set(TESSERA_KOKKOS_PREFIX "" CACHE PATH "Extra prefix searched for a Trilinos-packaged Kokkos (headers in include/trilinos)")

if(Kokkos_ROOT OR DEFINED ENV{Kokkos_ROOT})
  # The user pointed at an install: use it whatever its version, and fail loudly if not.
  find_package(Kokkos CONFIG REQUIRED)
else()
  # Otherwise only an upstream 4.x/5.x config counts: Debian's 3.4 config is broken.
  find_package(Kokkos 4 CONFIG QUIET)
endif()
if(Kokkos_FOUND AND TARGET Kokkos::kokkos)
  add_library(tessera::kokkos INTERFACE IMPORTED GLOBAL)
  target_link_libraries(tessera::kokkos INTERFACE Kokkos::kokkos)
  set(TESSERA_KOKKOS_DESCRIPTION "upstream Kokkos ${Kokkos_VERSION} (${Kokkos_DIR})")
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
  add_library(tessera::kokkos INTERFACE IMPORTED GLOBAL)
  # SYSTEM: Kokkos 3.4's headers warn under C++20 (volatile returns, enum arithmetic).
  set_target_properties(tessera::kokkos PROPERTIES
    INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${TESSERA_KOKKOS_INCLUDE_DIR}"
    INTERFACE_INCLUDE_DIRECTORIES "${TESSERA_KOKKOS_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${TESSERA_KOKKOS_CORE_LIBRARY};${CMAKE_DL_LIBS}")
  set(TESSERA_KOKKOS_DESCRIPTION "Trilinos-packaged Kokkos (${TESSERA_KOKKOS_INCLUDE_DIR}, ${TESSERA_KOKKOS_CORE_LIBRARY})")
endif()
message(STATUS "tessera: Kokkos: ${TESSERA_KOKKOS_DESCRIPTION}")
