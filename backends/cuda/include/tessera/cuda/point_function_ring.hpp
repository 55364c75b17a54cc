#pragma once
// Point functions on cuda::shared_streaming and cuda::coarsened: 2.5D slicing with every
// field a point function reads beyond the point staged plane by plane in a ring in shared
// memory by ordinary loads (cuda::pipelined does the same with asynchronous copies:
// strategies/pipelined/point_function.hpp), the user's function called on windows into the rings.
//
// Geometry: a BlockX x BlockY block owns a tile of output columns and marches `chunk`
// planes along the slowest axis (z in 3D, y in 2D). Each thread computes Rows outputs a
// plane: in 3D rows ty + k BlockY of column tx (a tile of BlockX x BlockY Rows), in 2D
// columns tx + k BlockX (a row of BlockX Rows). Each input field of radius R > 0 has its own
// ring: its tile with an R-point halo on every in-plane side, element by element (no
// alignment asked of the rows); fields of radius 0 are read from global memory at the point.
//
// A window is an element pointer plus constant strides (core/point_function.hpp), so the
// 2R + 1 planes one window spans must lie at one stride from each other: the ring of
// S = 2R + 2 slots is followed by copies of its first 2R slots, written by the thread that
// stores the plane (the layout of strategies/pipelined/point_function.hpp).
//
// Per step i (plane m0 + i; a field's planes numbered rel = 0, 1, ... from m0 - R):
//   1. store plane rel = i + 2R (already in this thread's registers, or loaded now), into
//      slot (i + 2R) mod S: the slot of plane i - 2, last read at step i - 2;
//   2. one __syncthreads: the plane is visible, and no thread still reads step i - 1's
//      window (i - 1 .. i - 1 + 2R), which the next step's store cannot touch either;
//   3. Ahead (shared_streaming): issue the loads of plane i + 1 + 2R into registers, so
//      they are in flight while the function runs; coarsened loads at step 1, as the
//      textbook's 2.5D kernel does;
//   4. call the function at each of the thread's points, store the outputs.
// Elements outside a field's reach (beyond its ghosts) are stored as zeros and never read
// from global memory.
#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>

#include "tessera/core/point_function.hpp"
#include "tessera/cuda/device_limits.hpp"
#include "tessera/cuda/launch_plan.hpp"
#include "tessera/cuda/point_params.hpp"
#include "tessera/cuda/strategy.hpp"

namespace tessera::cuda::detail {

/// A ring kernel's compiled configuration: BlockX x BlockY threads, Rows outputs each a
/// plane, loads issued a step ahead or not, and the planes per block (0: the plan's choice).
template <int BlockX, int BlockY, int Rows, bool Ahead, int Chunk>
struct point_ring_tile {
  static_assert(BlockX > 0 && BlockY > 0 && Rows > 0, "tessera: a point-function ring tile needs positive sizes");
  static constexpr int block_x = BlockX;
  static constexpr int block_y = BlockY;
  static constexpr int rows = Rows;
  static constexpr bool ahead = Ahead;
  static constexpr int chunk = Chunk;
};

/// The output tile of a ring kernel: 3D BlockX x BlockY Rows; 2D one row of BlockX Rows.
template <int Rank, int BlockX, int BlockY, int Rows>
struct point_ring_geometry {
  static constexpr bool has_y = Rank == 3;
  static constexpr int threads = BlockX * BlockY;
  static constexpr int tile_w = has_y ? BlockX : BlockX * Rows;
  static constexpr int tile_h = has_y ? BlockY * Rows : 1;
};

/// Field I's ring (host and device constexpr): R-point halo in plane, 2R + 2 slots plus
/// copies of the first 2R, `per_thread` elements of a plane loaded by each thread.
template <class T, int Rank, int R, int BlockX, int BlockY, int Rows>
struct point_shared_ring {
  using geometry = point_ring_geometry<Rank, BlockX, BlockY, Rows>;
  static constexpr bool staged = R > 0;
  static constexpr int ring_w = geometry::tile_w + 2 * R;
  static constexpr int ring_h = geometry::has_y ? geometry::tile_h + 2 * R : 1;
  static constexpr int plane = ring_w * ring_h;
  static constexpr int slots = 2 * R + 2;
  static constexpr int stored = staged ? slots + 2 * R : 0;
  static constexpr std::size_t elements = std::size_t(stored) * plane;
  static constexpr int per_thread = staged ? (plane + geometry::threads - 1) / geometry::threads : 0;
};

/// The rings of all input fields, one after the other: field I's at offset<I>(); its
/// registers at held<I>() of the thread's `held_elements`.
template <class F, class T, int Rank, int BlockX, int BlockY, int Rows>
struct point_shared_rings {
  using reach_type = typename F::reach_type;
  template <int I>
  using ring = point_shared_ring<T, Rank, reach_type::radius[I], BlockX, BlockY, Rows>;
  template <int I>
  static constexpr std::size_t offset() {
    return staged_offset<ring, I>();
  }
  template <int I>
  static constexpr int held() {
    int o = 0;
    tessera::detail::static_for<I>([&](auto j) { o += ring<decltype(j)::value>::per_thread; });
    return o;
  }
  static constexpr std::size_t elements = offset<reach_type::fields>();
  static constexpr int held_elements = held<reach_type::fields>();
};

/// The planes a block of a staged point-function mainloop marches over out_x x out_y output
/// tiles (2D: out_x) of extents e, p.block and p.shared_bytes already set: planes_per_block,
/// or (0) streaming_chunk's choice for a reach of reach_max along the march, given the
/// blocks that fit an SM. Shared by the ring and pipelined point-function plans.
template <int Rank>
int staged_march_chunk(const launch_plan& p, const extents<Rank>& e, int out_x, int out_y, int reach_max,
                       int planes_per_block, const device_limits& lim) {
  if (planes_per_block > 0) return planes_per_block;
  return streaming_chunk(2 * reach_max, plane_tiles(e, out_x, out_y), e[0], resident_blocks_estimate(p, lim), lim);
}

/// The launch of a ring kernel (Tile: point_ring_tile) over extents e, or why it cannot run.
template <class F, class T, int Rank, class Tile>
launch_plan point_ring_plan(const std::string& strategy, const extents<Rank>& e, const device_limits& lim) {
  launch_plan p;
  p.strategy = strategy;
  if constexpr (Rank == 1) {
    return refuse_1d_marching(p);
  } else {
    using geometry = point_ring_geometry<Rank, Tile::block_x, Tile::block_y, Tile::rows>;
    using rings = point_shared_rings<F, T, Rank, Tile::block_x, Tile::block_y, Tile::rows>;
    p.block[0] = Tile::block_x, p.block[1] = Tile::block_y, p.block[2] = 1;
    p.shared_bytes = rings::elements * sizeof(T);
    const int chunk =
        staged_march_chunk(p, e, geometry::tile_w, geometry::tile_h, F::reach_type::max, Tile::chunk, lim);
    return marched(p, e, geometry::tile_w, geometry::tile_h, chunk, lim);
  }
}

/// The ring mainloop as a strategy's point-function lowering (strategy.hpp), on Tile (a
/// point_ring_tile); Strategy names the launch.
template <class Strategy, class Tile>
struct ring_points {
  template <class F, class T, int Rank, std::size_t NI, std::size_t NO>
  static void sweep(const std::string& policy, const point_params<F, T, Rank, NI, NO>& p,
                    const input_fields<T, Rank, CudaSpace, NI>& in, cudaStream_t stream);
};

}  // namespace tessera::cuda::detail

#if defined(__CUDACC__)
#include "tessera/cuda/kernels/common.cuh"

namespace tessera::cuda::kernels {

/// The ring point-function kernel (see the top of this file). P: point_params.
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

template <class Strategy, class Tile>
template <class F, class T, int Rank, std::size_t NI, std::size_t NO>
void ring_points<Strategy, Tile>::sweep(const std::string& policy, const point_params<F, T, Rank, NI, NO>& p,
                                       const input_fields<T, Rank, CudaSpace, NI>& in, cudaStream_t stream) {
  const auto plan = point_ring_plan<F, T, Rank, Tile>(plan_label<Strategy>(), in[0].extents(), current_device_limits());
  if (!plan.ok()) throw point_function_refused(policy, plan.reason);
  if constexpr (Rank >= 2)
    launch_kernel_after_previous(
        &kernels::ring_point_sweep<F, T, Rank, NI, NO, Tile::block_x, Tile::block_y, Tile::rows, Tile::ahead,
                                   point_params<F, T, Rank, NI, NO>>,
        "ring_point_sweep", policy, "point function", plan, dim3(Tile::block_x, Tile::block_y, 1), plan.shared_bytes,
        stream, p, plan.chunk);
}

}  // namespace tessera::cuda::detail
#endif
