#pragma once
// The policies the Python module's sweeps of device (CuPy, DLPack) arrays iterate: every
// listed CUDA strategy (tessera/cuda/strategies.def) with its default tiles,
// cuda::automatic, automatic, and kokkos::mdrange where the build has Kokkos (it stages
// through the host). Shared by sweeps_cuda_apply.cpp, sweeps_cuda_iterate.cpp and
// sweeps_cuda_validate.cpp: one translation unit an entry point, so the build spreads over
// the cores (one unit for all three took 80-100 s on a 2-core build machine); iterate's
// policies are split again over two units (sweeps_cuda_iterate*.cpp), the listed
// strategies' first half and the rest, so that no unit takes a minute.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <optional>
#include <string>

#include "sweeps.hpp"

namespace tessera::python {

/// Where the policies that iterate device arrays are cut between iterate's two translation
/// units: the listed strategies before it, then the rest with the automatics.
inline constexpr std::size_t device_step_cut = cuda::strategies::size / 2;

template <class F>
void for_each_device_step_policy_before_cut(F&& f) {
  for_each_type(cuda::strategies{}, [&](auto p) {
    if constexpr (list_index_v<decltype(p), cuda::strategies> < device_step_cut) f(p);
  });
}

template <class F>
void for_each_device_step_policy_from_cut(F&& f) {
  for_each_type(cuda::strategies{}, [&](auto p) {
    if constexpr (list_index_v<decltype(p), cuda::strategies> >= device_step_cut) f(p);
  });
  f(cuda::automatic{});
  f(automatic{});
}

/// The policies that iterate device arrays: every one but the Kokkos reference, whose
/// host-staged sweep has no place in a step loop recorded on a stream.
template <class F>
void for_each_device_step_policy(F&& f) {
  for_each_device_step_policy_before_cut(f);
  for_each_device_step_policy_from_cut(f);
}

/// iterate_cuda for the policies before the cut (sweeps_cuda_iterate_first.cpp): whether the
/// result is in u, or none when `policy` names none of them.
std::optional<bool> iterate_cuda_before_cut(const std::string& policy, const stencil_desc& st,
                                            const views_in<CudaSpace>& u, const views_in<CudaSpace>& scratch,
                                            int steps, const boundary_desc& b);

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
