#pragma once
// Point functions on cuda::streaming and cuda::vector_streaming: each thread owns an output
// column (vector_streaming: a 16-byte vector's worth of columns, 4 floats or 2 doubles, 32
// columns apart) and marches a short chunk of planes along the slowest axis (z in 3D, y in 2D),
// the user's function called on windows into global memory.
//
// Why (perf/RESULTS.md has the measurements): cuda::naive gives each thread one point, and the blocks
// that read a plane's z-neighbours run on other SMs, so every plane of a field of radius R
// crosses from L2 to an SM 2R + 1 times, and each thread has one point's loads in flight.
// Marching a column instead, the planes a thread read for point z are in its SM's L1 when
// it computes z + 1..z + R; only the plane R + 1 ahead is new. Before each point the thread
// asks L2 for that plane of every field one step ahead (prefetch.global.L2: a hint, no
// register held), so each thread keeps a step's new bytes in flight besides its loads.
// Short chunks win (point_chunk: 32 bytes' worth of planes): the
// resident blocks then work on a few neighbouring planes, so the planes one chunk shares
// with the next hit in L2, as vector_streaming's stencils found (RESULTS, "vector_streaming's
// kernels").
//
// vector_streaming's lowering gives each lane a 16-byte vector's worth of outputs a row (4
// floats, 2 doubles) as its stencil kernels do, but 32 columns apart rather than adjacent:
// a window is a pointer, so there are no registers to shuffle between lanes, and adjacent
// columns made every warp load span 4 lines (measured far below copy bandwidth); spaced
// 32 apart each load stays one coalesced row segment and the lane has Vec points' loads
// in flight. Staging the planes in shared memory (cuda::pipelined) measured slower on every
// point function: the barrier a plane and the halo's extra bytes cost more than L1 hits.
#include <cstddef>
#include <string>

#include "tessera/core/point_function.hpp"
#include "tessera/cuda/device_limits.hpp"
#include "tessera/cuda/launch_plan.hpp"
#include "tessera/cuda/point_params.hpp"
#include "tessera/cuda/strategy.hpp"

namespace tessera::cuda::detail {

/// A marching point-function kernel's compiled configuration: BlockX x BlockY threads, Vec
/// columns per thread along x (BlockX apart), `chunk` planes per block along the slowest
/// axis. In 3D the block's threads tile the plane (BlockX x Vec along x, BlockY along y);
/// in 2D they all lie along x (BlockX x BlockY x Vec columns of a row).
template <int BlockX, int BlockY, int Vec, int Chunk>
struct point_column_tile {
  static constexpr int block_x = BlockX;
  static constexpr int block_y = BlockY;
  static constexpr int vec = Vec;
  static constexpr int chunk = Chunk;
};

/// Planes a block marches by default: 32 bytes' worth (8 of floats, 4 of doubles).
template <class T>
inline constexpr int point_chunk = sizeof(T) >= 32 ? 1 : 32 / static_cast<int>(sizeof(T));

/// streaming's tile for point functions. Defaults (0), the fastest measured on an H100: a
/// 256-thread block whose rows span 256 bytes (64 x 4 for 4-byte types, 32 x 8 for 8-byte;
/// 256 threads along x in 2D, where BlockY is ignored as for stencils) marching point_chunk planes.
template <class T, int Rank, int BlockX, int BlockY, int Chunk>
struct point_streaming_tile_of {
  static constexpr int row = sizeof(T) >= 256 ? 1 : 256 / static_cast<int>(sizeof(T));
  static constexpr int x = BlockX > 0 ? BlockX : Rank == 3 ? row : 256;
  static constexpr int y = Rank == 3 ? (BlockY > 0 ? BlockY : (256 / x > 0 ? 256 / x : 1)) : 1;
  using type = point_column_tile<x, y, 1, (Chunk > 0 ? Chunk : point_chunk<T>)>;
};
template <class T, int Rank, int BlockX, int BlockY, int Chunk>
using point_streaming_tile = typename point_streaming_tile_of<T, Rank, BlockX, BlockY, Chunk>::type;

/// vector_streaming's tile for point functions: 32 lanes a warp, each a 16-byte vector's
/// worth of columns (32 apart); Warps rows of a plane in 3D (default 4: 128 x 4 floats), Warps segments of a row in 2D
/// (default 2). Depth is not used: the plane ahead is prefetched, not held in registers.
template <class T, int Rank, int Warps, int Chunk>
using point_vector_tile = point_column_tile<32, (Warps > 0 ? Warps : Rank == 3 ? 4 : 2), elements_per_16_bytes<T>,
                                            (Chunk > 0 ? Chunk : point_chunk<T>)>;

/// The launch of a marching point-function kernel over extents e, or why it cannot run.
template <class Tile, int Rank>
launch_plan point_column_plan(const std::string& strategy, const extents<Rank>& e, const device_limits& lim) {
  launch_plan p;
  p.strategy = strategy;
  if constexpr (Rank == 1) {
    p.reason = strategy + " marches along the slowest axis of a 2D or 3D grid; a 1D grid has no such axis: use "
                          "cuda::naive (or cuda::automatic, which runs it there)";
    return p;
  } else {
    p.block[0] = Tile::block_x, p.block[1] = Tile::block_y, p.block[2] = 1;
    // 3D: the block's threads tile the plane; 2D: they all lie along the row
    return marched(p, e, Tile::block_x * (Rank == 3 ? 1 : Tile::block_y) * Tile::vec, Tile::block_y, Tile::chunk, lim);
  }
}

/// The marching mainloop as a strategy's point-function lowering (strategy.hpp): each thread
/// marches Tile's columns (a point_column_tile); Strategy names the launch. A 1D grid, or
/// one beyond CUDA's limits, is refused naming the caller's policy.
template <class Strategy, class Tile>
struct marching_points {
  template <class F, class T, int Rank, std::size_t NI, std::size_t NO>
  static void sweep(const std::string& policy, const point_params<F, T, Rank, NI, NO>& p,
                    const input_fields<T, Rank, CudaSpace, NI>& in, cudaStream_t stream);
};

}  // namespace tessera::cuda::detail

#if defined(__CUDACC__)
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

template <class Strategy, class Tile>
template <class F, class T, int Rank, std::size_t NI, std::size_t NO>
void marching_points<Strategy, Tile>::sweep(const std::string& policy, const point_params<F, T, Rank, NI, NO>& p,
                                           const input_fields<T, Rank, CudaSpace, NI>& in, cudaStream_t stream) {
  const auto plan = point_column_plan<Tile>(plan_label<Strategy>(), in[0].extents(), current_device_limits());
  if (!plan.ok()) throw point_function_refused(policy, plan.reason);
  if constexpr (Rank >= 2)
    launch_kernel_after_previous(
        &kernels::marching_point_sweep<F, T, Rank, NI, NO, Tile::block_x, Tile::block_y, Tile::vec>,
        "marching_point_sweep", policy, "point function", plan, dim3(Tile::block_x, Tile::block_y, 1), 0, stream, p,
        plan.chunk);
}

}  // namespace tessera::cuda::detail
#endif
