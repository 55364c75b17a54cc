#pragma once
// cuda::streaming: beyond the textbook. A block owns a BlockX x BlockY tile of output
// columns — no halo threads, no shared memory, no __syncthreads — and marches Chunk planes
// along the slowest axis (z in 3D, y in 2D). Each thread keeps its own column's reach
// along that axis (reach_lo .. reach_hi) in registers and loads one new input value per
// step, so the column loads stream every input byte from DRAM about once. Every other
// neighbour (in-plane, or a box's off-axis points) is a load of a line an adjacent thread
// has just brought in, served by L1/L2. Unlike register tiling it serves every shape.
#include "tessera/cuda/point_function_streaming.hpp"
#include "tessera/cuda/strategy.hpp"

namespace tessera::cuda {

/// streaming's compiled configuration.
template <int BlockX, int BlockY, int Chunk>
struct streaming_tile {
  static constexpr int block_x = BlockX;  ///< threads (= output columns) along x
  static constexpr int block_y = BlockY;  ///< along y, 3D only (1 in 2D)
  static constexpr int chunk = Chunk;     ///< planes (2D: rows) each block marches
};

/// z-streaming (2D: y-streaming): a BlockX x BlockY block owns a BlockX x BlockY tile of
/// output columns (no halo threads) and marches Chunk planes along the slowest axis. Each
/// thread keeps its own column's neighbours along that axis in registers, loading one new
/// input value per step; every other neighbour is a load that hits L1/L2, because adjacent
/// threads load the same lines. Serves every shape of rank 2 and 3. Defaults (0): 32 x 8,
/// Chunk 64 (3D); 256 x 1, Chunk 64 (2D).
template <int BlockX = 0, int BlockY = 0, int Chunk = 0>
struct streaming : marching_policy<streaming<BlockX, BlockY, Chunk>> {
  static std::string name() { return "cuda:streaming"; }
  using strategy = streaming<>;
  static constexpr bool automatic_candidate = true;
  /// cuda::automatic runs point functions in 2D and 3D here: the fastest on every one measured.
  static constexpr bool automatic_point_default = true;

  template <class S>
  using tile = streaming_tile<detail::or_default(BlockX, S::rank == 3 ? 32 : 256),
                              S::rank == 3 ? detail::or_default(BlockY, 8) : 1, detail::or_default(Chunk, 64)>;

  /// Point functions: one column a thread marching through L1, defaults of its own
  /// (point_streaming_tile).
  template <class T, int Rank>
  using point_mainloop =
      detail::marching_points<streaming<>, detail::point_streaming_tile<T, Rank, BlockX, BlockY, Chunk>>;

  /// 2D and 3D grids (marching_policy refuses 1D).
  template <class S, class T>
  static launch_plan plan_march(const extents<S::rank>& e, const device_limits& lim) {
    using t = tile<S>;
    launch_plan p;
    p.strategy = detail::plan_label<strategy>();
    p.block[0] = t::block_x, p.block[1] = t::block_y, p.block[2] = 1;
    return detail::marched(p, e, t::block_x, t::block_y, t::chunk, lim);
  }
};

}  // namespace tessera::cuda
