#pragma once
// The marching point-function mainloop's kernel and its sweep_points (nvcc only): Vec
// columns a thread marching through L1, no shared memory (point_function_streaming.hpp).
#include "tessera/cuda/point_function_streaming.hpp"
#include "tessera/cuda/kernels/common.cuh"

namespace tessera::cuda::kernels {

/// Each thread computes Vec output columns BlockX apart (x0 + k BlockX, k < Vec: a warp
/// of 32 lanes covers 32 Vec neighbouring columns and every load and store it issues stays
/// one coalesced row segment) of a tile (point_column_tile), marching `chunk` planes along
/// axis 0 from blockIdx.z * chunk (2D: blockIdx.y * chunk). Before each plane but the grid's
/// last, it prefetches into L2 the plane one step ahead of each field's reach: plane
/// m + 1 + R of a field of radius R, inside the ghosts the field has (at least R) because
/// m + 1 < n[0].
template <class F, class T, int Rank, std::size_t NI, std::size_t NO, int BlockX, int BlockY, int Vec>
__global__ void __launch_bounds__(BlockX * BlockY)
    marching_point_sweep(const detail::point_params<F, T, Rank, NI, NO> p, const int chunk) {
  static_assert(Rank == 2 || Rank == 3, "marching_point_sweep marches along axis 0 of a 2D or 3D grid");
  detail::begin_after_previous_grid();  // first: the sweep before may still run
  // the first of the thread's columns: its group of BlockX lanes covers BlockX * Vec columns
  const index_t group = Rank == 3 ? static_cast<index_t>(blockIdx.x)
                                  : static_cast<index_t>(blockIdx.x) * BlockY + threadIdx.y;
  const index_t x = group * BlockX * Vec + threadIdx.x;
  const index_t y = Rank == 3 ? static_cast<index_t>(blockIdx.y) * BlockY + threadIdx.y : 0;
  const index_t nx = p.n[Rank - 1];
  if (x >= nx || (Rank == 3 && y >= p.n[1])) return;
  const index_t m0 = static_cast<index_t>(Rank == 3 ? blockIdx.z : blockIdx.y) * chunk;
  const index_t m1 = m0 + chunk < p.n[0] ? m0 + chunk : p.n[0];
  using reach = typename F::reach_type;
  const T* at[NI];
  for (std::size_t i = 0; i < NI; ++i)
    at[i] = p.in[i] + x + (Rank == 3 ? y * p.in_stride[i][1] : 0) + m0 * p.in_stride[i][0];
  T* to[NO];
  for (std::size_t j = 0; j < NO; ++j)
    to[j] = p.out[j] + x + (Rank == 3 ? y * p.out_stride[j][1] : 0) + m0 * p.out_stride[j][0];
  for (index_t m = m0; m < m1; ++m) {
#pragma unroll
    for (int k = 0; k < Vec; ++k) {
      if (k > 0 && x + k * BlockX >= nx) break;
      if (m + 1 < p.n[0])
        tessera::detail::static_for<static_cast<int>(NI)>([&](auto i) {
          constexpr int r = reach::radius[decltype(i)::value];
          asm volatile("prefetch.global.L2 [%0];" ::"l"(at[i] + k * BlockX + (r + 1) * p.in_stride[i][0]));
        });
    }
#pragma unroll
    for (int k = 0; k < Vec; ++k) {
      if (k > 0 && x + k * BlockX >= nx) break;
      const T* a[NI];
      for (std::size_t i = 0; i < NI; ++i) a[i] = at[i] + k * BlockX;
      const auto r = tessera::detail::call_point_function<T, Rank>(p.fn, a, p.in_stride, std::make_index_sequence<NI>{});
      tessera::detail::static_for<static_cast<int>(NO)>([&](auto j) {
        to[decltype(j)::value][k * BlockX] = static_cast<T>(tessera::detail::result_at<decltype(j)::value>(r));
      });
    }
    for (std::size_t i = 0; i < NI; ++i) at[i] += p.in_stride[i][0];
    for (std::size_t j = 0; j < NO; ++j) to[j] += p.out_stride[j][0];
  }
}

}  // namespace tessera::cuda::kernels

namespace tessera::cuda::detail {

/// The marching mainloop's launch on `plan` (2D and 3D), for a point function's argument or a
/// stencil's (as_point_params); `policy` and `what` (the shape, or "point function") name it.
template <class Strategy, class Tile, class F, class T, int Rank, std::size_t NI, std::size_t NO>
void launch_points(marching_points<Strategy, Tile>, const std::string& policy, const std::string& what,
                   const launch_plan& plan, const point_params<F, T, Rank, NI, NO>& p, cudaStream_t stream) {
  static_assert(Rank >= 2, "the marching mainloop marches along axis 0 of a 2D or 3D grid");
  launch_kernel_after_previous(&kernels::marching_point_sweep<F, T, Rank, NI, NO, Tile::block_x, Tile::block_y, Tile::vec>,
                               "marching_point_sweep", policy, what, plan, dim3(Tile::block_x, Tile::block_y, 1), 0,
                               stream, p, plan.chunk);
}

template <class Strategy, class Tile, class F, class T, int Rank, std::size_t NI, std::size_t NO>
void sweep_points(marching_points<Strategy, Tile>, const std::string& policy, const point_params<F, T, Rank, NI, NO>& p,
                  const input_fields<T, Rank, CudaSpace, NI>& in, cudaStream_t stream) {
  const auto plan = point_column_plan<Tile>(plan_label<Strategy>(), in[0].extents(), current_device_limits());
  if (!plan.ok()) throw point_function_refused(policy, plan.reason);
  if constexpr (Rank >= 2) launch_points(marching_points<Strategy, Tile>{}, policy, "point function", plan, p, stream);
}

}  // namespace tessera::cuda::detail
