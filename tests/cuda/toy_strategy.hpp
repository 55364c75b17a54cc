#pragma once
// A strategy written outside the library, the way docs/design.md's walkthrough writes one:
// the whole unit in one header (policy, tile, plan, point-function lowering, and under
// __CUDACC__ the stencil kernel and its launcher; a strategy in the library keeps those in
// strategies/<name>/kernels.cuh), no file of tessera touched. test_cuda_policy_semantics.cpp joins it to the
// list of strategies and runs the sweep semantics suite on it; test_toy_strategy.cu
// compiles its kernels for the shapes that suite uses and runs stencils and a point
// function on it. If adding a strategy ever needs more than its unit and the list, this
// stops compiling or those tests fail.
//
// The kernel: one thread per output point, a block of BlockX points of one row (x), the
// grid's y and z from the block's other axes; every read through L1/L2.
#include "tessera/cuda/point_function_streaming.hpp"
#include "tessera/cuda/strategy.hpp"

namespace tessera::cuda {

/// toy_rows' compiled configuration: the block, in threads along x.
template <int BlockX>
struct toy_rows_tile {
  static constexpr int block_x = BlockX;
};

/// One thread per output point, BlockX threads along a row (default 128).
template <int BlockX = 0>
struct toy_rows : device_policy {
  static std::string name() { return "cuda:toy-rows"; }
  using strategy = toy_rows<>;
  static constexpr bool automatic_candidate = false;

  template <class S>
  using tile = toy_rows_tile<detail::or_default(BlockX, 128)>;

  /// Point functions: the marching mainloop the library's streaming strategies share.
  template <class T, int Rank>
  using point_mainloop = detail::marching_points<toy_rows<>, detail::point_column_tile<64, 2, 1, 4>>;

  template <class S>
  static constexpr bool has_kernel = true;

  template <class S, class T>
  static launch_plan plan(const extents<S::rank>& e, const device_limits& lim) {
    launch_plan p;
    p.strategy = "toy_rows";
    p.block[0] = p.out_tile[0] = tile<S>::block_x;
    detail::cover(p, e);
    detail::check_limits(p, lim);
    return p;
  }
};

}  // namespace tessera::cuda

#if defined(__CUDACC__)
#include "tessera/cuda/kernels/common.cuh"
#include "tessera/cuda/point_function_streaming.cuh"  // the point-function mainloop it names

namespace tessera::cuda {
namespace kernels {

template <class S, class T, int BlockX>
__global__ void __launch_bounds__(BlockX) toy_rows_sweep(const params_for<S, T> p) {
  detail::begin_after_previous_grid();
  using vs = detail::vshape<S>;
  const index_t x = static_cast<index_t>(blockIdx.x) * BlockX + threadIdx.x;
  const index_t y = blockIdx.y, z = blockIdx.z;
  if (x >= p.n[2]) return;
  const T* in = p.in + z * p.in_stride[0] + y * p.in_stride[1] + x;
  T acc = 0;
  tessera::detail::static_for<vs::size>([&](auto k) {
    constexpr int K = decltype(k)::value;
    acc += p.template term<K>(in[vs::off(K, 0) * p.in_stride[0] + vs::off(K, 1) * p.in_stride[1] + vs::off(K, 2)]);
  });
  p.out[z * p.out_stride[0] + y * p.out_stride[1] + x] = acc;
}

}  // namespace kernels

// The launcher, found by argument-dependent lookup (launch.hpp): the policy declares none.
template <class S, class T, class Tile>
void launch_sweep(toy_rows<>, sweep_of<S, T, Tile>, const launch_plan& plan, const params_for<S, T>& p,
                  cudaStream_t stream) {
  detail::launch_kernel_after_previous(&kernels::toy_rows_sweep<S, T, Tile::block_x>, "toy_rows_sweep",
                                       toy_rows<>::name(), shape_name<S>(), plan, dim3(Tile::block_x, 1, 1), 0, stream,
                                       p);
}

}  // namespace tessera::cuda
#endif
