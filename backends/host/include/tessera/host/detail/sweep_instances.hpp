#pragma once
// The host sweeps of the built-in shapes are compiled once, into the tessera_host library
// (backends/host/src/precompiled.cpp), not in every translation unit that uses them (a
// 3D shape's parallel sweep costs about 0.3 s of compile time): the tessera_host target
// defines TESSERA_HOST_PRECOMPILED, which turns on the explicit instantiation
// declarations at the end of serial.hpp and parallel.hpp. Other shapes instantiate as
// usual.
#include "tessera/core/builtin_shapes.hpp"
#include "tessera/core/memory_space.hpp"

/// PREFIX template void host::sweep(POLICY, stencil, in, out) for element type T and
/// shape __VA_ARGS__ on host views (PREFIX: `extern` to declare, empty to define).
#define TESSERA_HOST_SWEEP_INSTANCE(PREFIX, POLICY, T, ...)                                          \
  PREFIX template void tessera::host::sweep<__VA_ARGS__, T, __VA_ARGS__::rank, tessera::HostSpace>( \
      const tessera::host::POLICY&, const tessera::stencil<__VA_ARGS__, T>&,                       \
      const tessera::View<T, __VA_ARGS__::rank, tessera::HostSpace>&,                              \
      const tessera::View<T, __VA_ARGS__::rank, tessera::HostSpace>&);
