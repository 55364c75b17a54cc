#pragma once
// cuda::automatic: picks a strategy per shape. The heuristic, until the performance
// work replaces it by a measured tuning table:
//   - every shape: cuda::naive<32, 8, 1>. A sweep is memory-bound, and on Hopper the
//     L1/L2 caches serve the neighbour reuse that the textbook tiled, coarsened and
//     register-tiled kernels stage by hand; those kernels pay for it in halo threads,
//     __syncthreads and fewer blocks in flight. Measured on an H100 in this repository
//     (perf/RESULTS.md) and in the performance issue's orientation numbers (fp32 512^3:
//     naive 32x8 0.71 of copy bandwidth vs 0.42 for register_tiled 32x32 and 0.19 for
//     tiled 8^3), naive is the fastest of the four for every shape.
#include "tessera/cuda/dispatch.hpp"

namespace tessera::cuda {

/// The policy cuda::automatic runs for shape S (a type, so the choice is visible).
template <class S, class T>
struct automatic_choice {
  using type = naive<>;  // 32 x 8 x 1
};

template <class S, class T, int Rank, class Space>
void sweep(const automatic&, const stencil<S, T>& st, const View<T, Rank, Space>& in,
           const View<T, Rank, Space>& out, cudaStream_t stream = nullptr) {
  sweep(typename automatic_choice<S, T>::type{}, st, in, out, stream);
}

}  // namespace tessera::cuda

namespace tessera::cuda {

/// The plan cuda::automatic runs: its choice's plan.
template <class S, class T>
launch_plan make_plan(const automatic&, const extents<S::rank>& e, const device_limits& lim) {
  return make_plan<S, T>(typename automatic_choice<S, T>::type{}, e, lim);
}

}  // namespace tessera::cuda
