#pragma once
// The tiled point-function mainloop's kernel and its sweep_points (nvcc only): each field's
// tile and halo staged in shared memory, one output a thread (point_function_tiled.hpp).
#include "tessera/cuda/point_function_tiled.hpp"
#include "tessera/cuda/kernels/common.cuh"

namespace tessera::cuda::kernels {

/// The tiled point-function kernel (the top of point_function_tiled.hpp says how it works). P: point_params.
template <class F, class T, int Rank, std::size_t NI, std::size_t NO, int TileX, int TileY, int TileZ, class P>
__global__ void __launch_bounds__(TileX * TileY * TileZ) tiled_point_sweep(const P p) {
  detail::begin_after_previous_grid();  // first: the sweep before may still run
  using reach_type = typename F::reach_type;
  using tiles = detail::point_staged_tiles<F, Rank, TileX, TileY, TileZ>;
  constexpr int threads = TileX * TileY * TileZ, ni = static_cast<int>(NI);
  extern __shared__ __align__(16) unsigned char tessera_tiled_shared[];
  T* shared = reinterpret_cast<T*>(tessera_tiled_shared);

  const int me = (threadIdx.z * TileY + threadIdx.y) * TileX + threadIdx.x;
  // the block's first point and this thread's, on the grid's axes z, y, x (unused ones 0)
  const index_t o0[3] = {Rank >= 3 ? static_cast<index_t>(blockIdx.z) * TileZ : 0,
                         Rank >= 2 ? static_cast<index_t>(blockIdx.y) * TileY : 0,
                         static_cast<index_t>(blockIdx.x) * TileX};
  const int l[3] = {static_cast<int>(threadIdx.z), static_cast<int>(threadIdx.y), static_cast<int>(threadIdx.x)};
  index_t n[3] = {1, 1, 1};
  for (int a = 0; a < Rank; ++a) n[3 - Rank + a] = p.n[a];
  // offset of the point (z, y, x) in field I's (or output J's) global layout
  const auto global_offset = [&](const window_strides<Rank>& s, index_t z, index_t y, index_t x) -> index_t {
    if constexpr (Rank == 3)
      return z * s[0] + y * s[1] + x;
    else if constexpr (Rank == 2)
      return y * s[0] + x;
    else
      return x;
  };

  tessera::detail::static_for<ni>([&](auto fi) {
    constexpr int I = decltype(fi)::value, R = reach_type::radius[I];
    if constexpr (R > 0) {
      using tile = typename tiles::template tile<I>;
      T* to = shared + tiles::template offset<I>();
      constexpr int elements = static_cast<int>(tile::elements), per_thread = (elements + threads - 1) / threads;
      const auto element = [&](int q) {  // element q of the staged tile, read from global memory
        const int lx = q % tile::w, ly = q / tile::w % tile::h, lz = q / (tile::w * tile::h);
        const index_t z = Rank >= 3 ? o0[0] + lz - R : 0, y = Rank >= 2 ? o0[1] + ly - R : 0, x = o0[2] + lx - R;
        const bool read = x < n[2] + R && y < n[1] + (Rank >= 2 ? R : 0) && z < n[0] + (Rank >= 3 ? R : 0);
        return read ? p.in[I][global_offset(p.in_stride[I], z, y, x)] : T(0);
      };
      if constexpr (per_thread <= 2) {
        // both loads issued before either store: a thread's loads in flight together (a
        // radius-1 field's tile; one at a time ran the 2D 5-point slower than the notes' kernel)
        T held[per_thread];
#pragma unroll
        for (int k = 0; k < per_thread; ++k) held[k] = me + k * threads < elements ? element(me + k * threads) : T(0);
#pragma unroll
        for (int k = 0; k < per_thread; ++k)
          if (me + k * threads < elements) to[me + k * threads] = held[k];
      } else {
        // wider halos: one element at a time measured faster than batches of loads
        for (int q = me; q < elements; q += threads) to[q] = element(q);
      }
    }
  });
  __syncthreads();

  const index_t z = o0[0] + l[0], y = o0[1] + l[1], x = o0[2] + l[2];
  if (z >= n[0] || y >= n[1] || x >= n[2]) return;
  const T* at[NI];
  window_strides<Rank> stride[NI] = {};  // a 1D window has no stride to set
  tessera::detail::static_for<ni>([&](auto fi) {
    constexpr int I = decltype(fi)::value, R = reach_type::radius[I];
    if constexpr (R > 0) {
      using tile = typename tiles::template tile<I>;
      const int lz = Rank >= 3 ? l[0] + R : 0, ly = Rank >= 2 ? l[1] + R : 0;
      at[I] = shared + tiles::template offset<I>() + (lz * tile::h + ly) * tile::w + l[2] + R;
      if constexpr (Rank == 3) stride[I][0] = tile::w * tile::h, stride[I][1] = tile::w;
      if constexpr (Rank == 2) stride[I][0] = tile::w;
    } else {
      at[I] = p.in[I] + global_offset(p.in_stride[I], z, y, x);
      stride[I] = p.in_stride[I];
    }
  });
  const auto r = tessera::detail::call_point_function<T, Rank>(p.fn, at, stride, std::make_index_sequence<NI>{});
  tessera::detail::static_for<static_cast<int>(NO)>([&](auto j) {
    p.out[j][global_offset(p.out_stride[j], z, y, x)] = static_cast<T>(tessera::detail::result_at<decltype(j)::value>(r));
  });
}

}  // namespace tessera::cuda::kernels

namespace tessera::cuda::detail {

/// The tiled mainloop's launch on `plan`, for a point function's argument or a stencil's
/// (as_point_params); `policy` and `what` (the shape, or "point function") name it.
template <class Strategy, int TileX, int TileY, int TileZ, class F, class T, int Rank, std::size_t NI, std::size_t NO>
void launch_points(tiled_points<Strategy, TileX, TileY, TileZ>, const std::string& policy, const std::string& what,
                   const launch_plan& plan, const point_params<F, T, Rank, NI, NO>& p, cudaStream_t stream) {
  launch_kernel_after_previous(
      &kernels::tiled_point_sweep<F, T, Rank, NI, NO, TileX, TileY, TileZ, point_params<F, T, Rank, NI, NO>>,
      "tiled_point_sweep", policy, what, plan, dim3(TileX, TileY, TileZ), plan.shared_bytes, stream, p);
}

template <class Strategy, int TileX, int TileY, int TileZ, class F, class T, int Rank, std::size_t NI, std::size_t NO>
void sweep_points(tiled_points<Strategy, TileX, TileY, TileZ>, const std::string& policy, const point_params<F, T, Rank, NI, NO>& p,
                  const input_fields<T, Rank, CudaSpace, NI>& in, cudaStream_t stream) {
  const auto plan = point_tiled_plan<F, T, Rank, TileX, TileY, TileZ>(plan_label<Strategy>(), in[0].extents(),
                                                                      current_device_limits());
  if (!plan.ok()) throw point_function_refused(policy, plan.reason);
  launch_points(tiled_points<Strategy, TileX, TileY, TileZ>{}, policy, "point function", plan, p, stream);
}

}  // namespace tessera::cuda::detail
