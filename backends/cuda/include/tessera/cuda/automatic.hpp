#pragma once
// cuda::automatic: picks a strategy per shape. Until the performance work replaces this
// by a measured tuning table (per shape class, radius, precision, device), the choice is
// cuda::naive<32, 8, 1> for every shape, because that is what measurement says of the
// four textbook strategies. tessera-bench on an H200 (perf/RESULTS.md; fp32/fp64, 3D
// 256^3 and 512^3, 2D 4096^2 and 8192^2; star radius 1, 2, 4 and box radius 1):
//   - 3D, every shape and precision: naive is the fastest; register_tiled reaches
//     0.74-0.85 of its speed, coarsened 0.52-0.89, tiled 0.14-0.49 (its 8^3 block
//     leaves (8 - 2r)^3 computing threads: 27% at r = 1, 12.5% at r = 2, none at r = 4).
//   - 2D fp32 at 8192^2: register_tiled (star) and coarsened (box) beat naive by 22% and
//     12%; at 4096^2 they are level with it or 7% slower; fp64 2D: naive fastest.
// On Hopper the L1/L2 caches already serve most of the neighbour reuse the textbook
// kernels stage by hand, and those pay for it in halo threads, __syncthreads and fewer
// resident blocks. naive is never below 0.82 of the best of the four in those cases.
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
