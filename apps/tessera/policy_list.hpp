#pragma once
// The execution policies this build offers, as a compile-time list, so the command can
// run "every policy available" without a switch: for_each_policy(f) calls f(policy{})
// for each. CUDA policies are listed only when the build has the CUDA backend.
#include <tessera/tessera.hpp>

namespace tessera::app {

template <class F>
void for_each_host_policy(F&& f) {
  f(host::serial{});
  f(host::parallel{});
  f(kokkos::mdrange{});
}

template <class F>
void for_each_cuda_policy([[maybe_unused]] F&& f) {
#if TESSERA_ENABLE_CUDA
  for_each_type(cuda::strategies{}, f);  // the listed strategies (tessera/cuda/strategies.def)
  f(cuda::automatic{});
#endif
}

inline bool cuda_device_present() {
#if TESSERA_ENABLE_CUDA
  return cuda::device_count() > 0;
#else
  return false;
#endif
}

}  // namespace tessera::app
