// The Kokkos reference sweeps of the built-in shapes, float and double (host and, with
// the CUDA backend, device views), compiled once for every program that links tessera
// (see the end of tessera/kokkos/mdrange.hpp).
#include "tessera/kokkos/mdrange.hpp"

#define TESSERA_KOKKOS_DEFINE_SWEEPS(T, ...) TESSERA_KOKKOS_SWEEPS(, T, __VA_ARGS__)
TESSERA_FOR_EACH_BUILTIN_SHAPE(TESSERA_KOKKOS_DEFINE_SWEEPS, float)
TESSERA_FOR_EACH_BUILTIN_SHAPE(TESSERA_KOKKOS_DEFINE_SWEEPS, double)
