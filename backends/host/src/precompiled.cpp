// The host sweeps of the built-in shapes, float and double, compiled once for every
// program that links tessera (tessera/host/detail/sweep_instances.hpp).
#include "tessera/host/parallel.hpp"
#include "tessera/host/serial.hpp"

#define TESSERA_HOST_DEFINE_SWEEPS(T, ...)                    \
  TESSERA_HOST_SWEEP_INSTANCE(, serial, T, __VA_ARGS__)      \
  TESSERA_HOST_SWEEP_INSTANCE(, parallel, T, __VA_ARGS__)
TESSERA_FOR_EACH_BUILTIN_SHAPE(TESSERA_HOST_DEFINE_SWEEPS, float)
TESSERA_FOR_EACH_BUILTIN_SHAPE(TESSERA_HOST_DEFINE_SWEEPS, double)
