#pragma once
// The policies the Python module's sweeps of device (CuPy, DLPack) arrays iterate: every
// listed CUDA strategy (tessera/cuda/strategies.def) with its default tiles,
// cuda::automatic, automatic, and kokkos::mdrange where the build has Kokkos (it stages
// through the host). Shared by sweeps_cuda_apply.cpp, sweeps_cuda_iterate.cpp and
// sweeps_cuda_validate.cpp: one translation unit an entry point, so the build spreads over
// the cores (one unit for all three took 80-100 s on a 2-core build machine).
#include <cuda_runtime_api.h>

#include "sweeps.hpp"

namespace tessera::python {

/// The policies that iterate device arrays: every one but the Kokkos reference, whose
/// host-staged sweep has no place in a step loop recorded on a stream.
template <class F>
void for_each_device_step_policy(F&& f) {
  for_each_type(cuda::strategies{}, f);
  f(cuda::automatic{});
  f(automatic{});
}

template <class F>
void for_each_device_policy(F&& f) {
  for_each_device_step_policy(f);
#if TESSERA_PYTHON_KOKKOS
  f(kokkos::mdrange{});
#endif
}

/// Whether P's sweep takes the caller's stream (the Kokkos reference does not).
template <class P>
constexpr bool takes_stream = true;
#if TESSERA_PYTHON_KOKKOS
template <>
inline constexpr bool takes_stream<kokkos::mdrange> = false;
#endif

}  // namespace tessera::python
