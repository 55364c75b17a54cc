#pragma once
// cuda::automatic: picks a strategy per shape class and precision. Until the performance
// work replaces this by a measured tuning table per device (with an on-first-use tuner),
// the rule below is read off one tessera-bench run on an H200 (perf/RESULTS.md, run 2:
// fp32/fp64; 3D 256^3 and 512^3, 2D 4096^2 and 8192^2; star radius 1, 2, 4, box radius 1):
//   - fp32, rank 2 and 3: cuda::streaming. Best of all policies in 10 of 12 cases
//     (1.1-1.3x naive); level with naive for star<3,2> at 256^3, and 0.26 vs 0.31 of copy
//     bandwidth for star<3,4> at 256^3.
//   - fp64: cuda::naive, except stars of radius >= 4 (streaming 0.49 vs 0.40 at 512^3,
//     0.43 vs 0.38 at 256^3). For the other fp64 shapes naive is 1.05-1.6x streaming:
//     with 8-byte elements naive already reaches 0.66-0.80 of copy and streaming's
//     extra L2 traffic (see RESULTS.md) costs more than its register reuse saves.
//   - rank 1: cuda::naive (streaming and register tiling need a slow axis).
// The textbook tiled, coarsened and register_tiled kernels are never the fastest there.
#include <type_traits>

#include "tessera/cuda/dispatch.hpp"

namespace tessera::cuda {

/// The policy cuda::automatic runs for shape S (a type, so the choice is visible).
template <class S, class T>
struct automatic_choice {
  static constexpr bool wide_star = shape_traits<S>::slow_axis_neighbours_on_axis && shape_traits<S>::radius >= 4;
  static constexpr bool use_streaming = S::rank >= 2 && (sizeof(T) <= 4 || wide_star);
  using type = std::conditional_t<use_streaming, streaming<>, naive<>>;
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
