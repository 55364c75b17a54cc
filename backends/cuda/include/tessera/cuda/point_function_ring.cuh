#pragma once
// The ring point-function mainloop's kernel and its sweep_points (nvcc only): 2.5D rings of
// each field's planes in shared memory, loaded as the block marches (point_function_ring.hpp).
#include "tessera/cuda/point_function_ring.hpp"
#include "tessera/cuda/kernels/common.cuh"

namespace tessera::cuda::kernels {

/// The ring point-function kernel (the top of point_function_ring.hpp says how it works). P: point_params.
template <class F, class T, int Rank, std::size_t NI, std::size_t NO, int BlockX, int BlockY, int Rows, bool Ahead,
          class P>
__global__ void __launch_bounds__(BlockX * BlockY) ring_point_sweep(const P p, const int chunk) {
  static_assert(Rank == 2 || Rank == 3, "ring_point_sweep marches along axis 0 of a 2D or 3D grid");
  detail::begin_after_previous_grid();  // first: the sweep before may still run
  using reach_type = typename F::reach_type;
  using geometry = detail::point_ring_geometry<Rank, BlockX, BlockY, Rows>;
  using rings = detail::point_shared_rings<F, T, Rank, BlockX, BlockY, Rows>;
  constexpr bool has_y = Rank == 3;
  constexpr int threads = geometry::threads, ni = static_cast<int>(NI);
  extern __shared__ __align__(16) unsigned char tessera_ring_shared[];
  T* shared = reinterpret_cast<T*>(tessera_ring_shared);

  const int tx = threadIdx.x, ty = has_y ? threadIdx.y : 0, me = ty * BlockX + tx;
  const index_t x0 = static_cast<index_t>(blockIdx.x) * geometry::tile_w;
  const index_t y0 = has_y ? static_cast<index_t>(blockIdx.y) * geometry::tile_h : 0;
  const index_t m0 = static_cast<index_t>(has_y ? blockIdx.z : blockIdx.y) * chunk;
  const int steps = static_cast<int>(min(static_cast<index_t>(chunk), p.n[0] - m0));
  const index_t nx = p.n[Rank - 1], ny = has_y ? p.n[1] : 1;
  T held[rings::held_elements > 0 ? rings::held_elements : 1];

  // field I's plane rel (plane m0 - R + rel) into this thread's registers: element q of the
  // ring plane is row q / ring_w, column q % ring_w of the tile with its halo
  const auto load = [&](auto fi, int rel) {
    constexpr int I = decltype(fi)::value, R = reach_type::radius[I];
    using ring = typename rings::template ring<I>;
    const T* src = p.in[I] + (m0 - R + rel) * p.in_stride[I][0];
#pragma unroll
    for (int k = 0; k < ring::per_thread; ++k) {
      const int q = me + k * threads;
      const int row = q / ring::ring_w, col = q % ring::ring_w;
      const index_t py = y0 + row - R, px = x0 + col - R;
      const bool read = q < ring::plane && px < nx + R && (!has_y || py < ny + R);
      held[rings::template held<I>() + k] = read ? src[(has_y ? py * p.in_stride[I][1] : 0) + px] : T(0);
    }
  };
  // the registers into the slot of plane rel, and into its copy behind the ring
  const auto store = [&](auto fi, int rel) {
    constexpr int I = decltype(fi)::value;
    using ring = typename rings::template ring<I>;
    const int slot = rel % ring::slots;
    T* to = shared + rings::template offset<I>() + slot * ring::plane;
    const bool copy = slot < ring::stored - ring::slots;
#pragma unroll
    for (int k = 0; k < ring::per_thread; ++k) {
      const int q = me + k * threads;
      if (q < ring::plane) {
        to[q] = held[rings::template held<I>() + k];
        if (copy) to[q + ring::slots * ring::plane] = held[rings::template held<I>() + k];
      }
    }
  };
  // for every staged field: its plane rel = i + 2R (the newest of step i's window)
  const auto each_staged = [&](auto&& body) {
    tessera::detail::static_for<ni>([&](auto fi) {
      if constexpr (reach_type::radius[decltype(fi)::value] > 0) body(fi);
    });
  };

  each_staged([&](auto fi) {
    constexpr int R = reach_type::radius[decltype(fi)::value];
    for (int rel = 0; rel < 2 * R; ++rel) {
      load(fi, rel);
      store(fi, rel);
    }
    if constexpr (Ahead) load(fi, 2 * R);
  });

  for (int i = 0; i < steps; ++i) {
    each_staged([&](auto fi) {
      constexpr int R = reach_type::radius[decltype(fi)::value];
      if constexpr (!Ahead) load(fi, i + 2 * R);
      store(fi, i + 2 * R);
    });
    __syncthreads();
    if constexpr (Ahead)
      if (i + 1 < steps)
        each_staged([&](auto fi) { load(fi, i + 1 + 2 * reach_type::radius[decltype(fi)::value]); });

    const index_t m = m0 + i;
#pragma unroll
    for (int k = 0; k < Rows; ++k) {
      const int lx = has_y ? tx : tx + k * BlockX, ly = has_y ? ty + k * BlockY : 0;
      const index_t gx = x0 + lx, gy = y0 + ly;
      if (gx >= nx || gy >= ny) continue;
      const T* at[NI];
      window_strides<Rank> stride[NI];
      tessera::detail::static_for<ni>([&](auto fi) {
        constexpr int I = decltype(fi)::value, R = reach_type::radius[I];
        using ring = typename rings::template ring<I>;
        if constexpr (R > 0) {
          at[I] = shared + rings::template offset<I>() + (i % ring::slots + R) * ring::plane +
                  (has_y ? (ly + R) * ring::ring_w : 0) + lx + R;
          stride[I][0] = ring::plane;
          if constexpr (has_y) stride[I][1] = ring::ring_w;
        } else {
          at[I] = p.in[I] + m * p.in_stride[I][0] + (has_y ? gy * p.in_stride[I][1] : 0) + gx;
          stride[I] = p.in_stride[I];
        }
      });
      const auto r = tessera::detail::call_point_function<T, Rank>(p.fn, at, stride, std::make_index_sequence<NI>{});
      tessera::detail::static_for<static_cast<int>(NO)>([&](auto j) {
        const index_t o = m * p.out_stride[j][0] + (has_y ? gy * p.out_stride[j][1] : 0) + gx;
        p.out[j][o] = static_cast<T>(tessera::detail::result_at<decltype(j)::value>(r));
      });
    }
  }
}

}  // namespace tessera::cuda::kernels

namespace tessera::cuda::detail {

template <class Strategy, class Tile, class F, class T, int Rank, std::size_t NI, std::size_t NO>
void sweep_points(ring_points<Strategy, Tile>, const std::string& policy, const point_params<F, T, Rank, NI, NO>& p,
                  const input_fields<T, Rank, CudaSpace, NI>& in, cudaStream_t stream) {
  const auto plan_at = [&](const device_limits& lim) {
    return point_ring_plan<F, T, Rank, Tile>(plan_label<Strategy>(), in[0].extents(), lim);
  };
  if constexpr (Rank == 1) {
    throw point_function_refused(policy, plan_at(current_device_limits()).reason);  // the ring marches
  } else {
    constexpr auto kernel = &kernels::ring_point_sweep<F, T, Rank, NI, NO, Tile::block_x, Tile::block_y, Tile::rows,
                                                      Tile::ahead, point_params<F, T, Rank, NI, NO>>;
    const auto plan = with_driver_residency(current_device_limits(), plan_at, [](const launch_plan& q) {
      return resident_blocks_per_sm<kernel>(q.threads(), q.shared_bytes);
    });
    if (!plan.ok()) throw point_function_refused(policy, plan.reason);
    launch_kernel_after_previous(kernel, "ring_point_sweep", policy, "point function", plan,
                                 dim3(Tile::block_x, Tile::block_y, 1), plan.shared_bytes, stream, p, plan.chunk);
  }
}

}  // namespace tessera::cuda::detail
