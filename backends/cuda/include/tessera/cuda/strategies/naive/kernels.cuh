#pragma once
// cuda::naive's kernel (nvcc only): one thread an output point, every neighbour a global
// load; stencils run it with their point function as the evaluator (stencil_evaluator.hpp),
// as fast as the kernel of their own it replaced (tessera-bench --family). The launchers.
#include "tessera/cuda/strategies/naive.hpp"
#include "tessera/cuda/kernels/common.cuh"
#include "tessera/cuda/stencil_evaluator.hpp"

namespace tessera::cuda::kernels {

/// One thread per output point: x from threadIdx.x (coalesced rows), y and z from the
/// block's other axes; the function's windows address global memory.
template <class F, class T, int Rank, std::size_t NI, std::size_t NO, int BlockX, int BlockY, int BlockZ>
__global__ void __launch_bounds__(BlockX * BlockY * BlockZ)
    naive_point_sweep(const detail::point_params<F, T, Rank, NI, NO> p) {
  detail::begin_after_previous_grid();  // first: the sweep before may still run
  const index_t x = static_cast<index_t>(blockIdx.x) * BlockX + threadIdx.x;
  const index_t y = Rank >= 2 ? static_cast<index_t>(blockIdx.y) * BlockY + threadIdx.y : 0;
  const index_t z = Rank >= 3 ? static_cast<index_t>(blockIdx.z) * BlockZ + threadIdx.z : 0;
  const index_t idx[3] = {z, y, x};
  // the point on the field's axes (the last Rank of z, y, x)
  for (int a = 0; a < Rank; ++a)
    if (idx[3 - Rank + a] >= p.n[a]) return;
  const T* at[NI];
  for (std::size_t i = 0; i < NI; ++i) {
    index_t o = x;
    for (int a = 0; a + 1 < Rank; ++a) o += idx[3 - Rank + a] * p.in_stride[i][a];
    at[i] = p.in[i] + o;
  }
  const auto r = tessera::detail::call_point_function<T, Rank>(p.fn, at, p.in_stride, std::make_index_sequence<NI>{});
  tessera::detail::static_for<static_cast<int>(NO)>([&](auto j) {
    index_t o = x;
    for (int a = 0; a + 1 < Rank; ++a) o += idx[3 - Rank + a] * p.out_stride[j][a];
    p.out[j][o] = static_cast<T>(tessera::detail::result_at<decltype(j)::value>(r));
  });
}

}  // namespace tessera::cuda::kernels

namespace tessera::cuda {

namespace detail {

/// The naive mainloop's launch on `plan`, for a point function's argument or a stencil's
/// (as_point_params); `policy` and `what` (the shape, or "point function") name it.
template <class Strategy, class Tile, class F, class T, int Rank, std::size_t NI, std::size_t NO>
void launch_points(naive_points<Strategy, Tile>, const std::string& policy, const std::string& what,
                   const launch_plan& plan, const point_params<F, T, Rank, NI, NO>& p, cudaStream_t stream) {
  launch_kernel_after_previous(&kernels::naive_point_sweep<F, T, Rank, NI, NO, Tile::block_x, Tile::block_y, Tile::block_z>,
                               "naive_point_sweep", policy, what, plan,
                               dim3(Tile::block_x, Tile::block_y, Tile::block_z), 0, stream, p);
}

}  // namespace detail

template <class S, class T, class Tile>
void launch_sweep(naive<>, sweep_of<S, T, Tile>, const launch_plan& plan, const params_for<S, T>& p,
                  cudaStream_t stream) {
  detail::launch_points(detail::naive_points<naive<>, Tile>{}, naive<>::name(), shape_name<S>(), plan,
                        detail::as_point_params<S>(p), stream);
}

namespace detail {

template <class Strategy, class Tile, class F, class T, int Rank, std::size_t NI, std::size_t NO>
void sweep_points(naive_points<Strategy, Tile>, const std::string& policy, const point_params<F, T, Rank, NI, NO>& p,
                  const input_fields<T, Rank, CudaSpace, NI>& in, cudaStream_t stream) {
  // block axes: x along the last axis, y and z along the ones before it
  launch_plan plan;
  plan.strategy = plan_label<Strategy>();
  plan.block[0] = Tile::block_x, plan.block[1] = Tile::block_y, plan.block[2] = Tile::block_z;
  const auto& n = in[0].extents();
  const index_t per_axis[3] = {n[Rank - 1], Rank >= 2 ? n[Rank - 2] : 1, Rank >= 3 ? n[0] : 1};
  const index_t limit[3] = {2147483647, 65535, 65535};
  for (int a = 0; a < 3; ++a) {
    const index_t blocks = (per_axis[a] + plan.block[a] - 1) / plan.block[a];
    if (blocks > limit[a])
      throw point_function_refused(policy, in[0].describe() + " needs " + std::to_string(blocks) +
                                               " blocks along one launch axis, beyond CUDA's " +
                                               std::to_string(limit[a]) + "; split the grid");
    plan.grid[a] = blocks;
  }
  launch_points(naive_points<Strategy, Tile>{}, policy, "point function", plan, p, stream);
}

}  // namespace detail

}  // namespace tessera::cuda
