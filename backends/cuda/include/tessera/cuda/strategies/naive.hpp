#pragma once
// cuda::naive: one thread per output point, every read from global memory (the caches do
// what reuse there is). For the 7-point star: 7 loads + 1 store of 4 bytes per 13 flops,
// an arithmetic intensity of 13 / 28 = 0.46 flop/byte when nothing is cached.
#include <cstddef>

#include "tessera/cuda/strategy.hpp"

namespace tessera::cuda {

namespace detail {
/// naive's point-function lowering (strategy.hpp): one thread a point on Tile's block
/// (a naive_tile), every window in global memory; Strategy names the launch. Its kernel
/// and sweep_points: naive/kernels.cuh (nvcc only).
template <class Strategy, class Tile>
struct naive_points {};
}  // namespace detail

/// naive's compiled configuration: the block, in threads.
template <int BlockX, int BlockY, int BlockZ>
struct naive_tile {
  static constexpr int block_x = BlockX;  ///< threads along x (one output each)
  static constexpr int block_y = BlockY;  ///< threads along y
  static constexpr int block_z = BlockZ;  ///< threads along z
};

/// One thread per output point; block BlockX x BlockY x BlockZ threads (x fastest). 2D
/// grids use a BlockX x (BlockY * BlockZ) block, 1D grids BlockX * BlockY * BlockZ
/// threads. Default (0): 32 x 8 x 1, all ranks.
template <int BlockX = 0, int BlockY = 0, int BlockZ = 0>
struct naive : device_policy {
  static std::string name() { return "cuda:naive"; }
  using strategy = naive<>;
  static constexpr bool automatic_candidate = true;
  /// cuda::automatic's last resort (and its choice in 1D): runs every shape on any views.
  static constexpr int automatic_fallback = 2;
  /// cuda::automatic runs point functions here on small grids (below 2^20 points, e.g. a
  /// multigrid's coarse levels): a sweep there is a few microseconds, and one thread a point
  /// starts every point at once where a marching block first fills its planes
  /// (perf/RESULTS.md, point functions by size).
  template <class F, class T, int Rank>
  static constexpr bool automatic_points_for = true;
  static constexpr std::size_t automatic_points_below = std::size_t{1} << 20;

  template <class S>
  struct resolve {
    static constexpr int x = detail::or_default(BlockX, 32), y = detail::or_default(BlockY, 8),
                         z = detail::or_default(BlockZ, 1);
    // Fold the axes the rank lacks into the ones it has, so the thread count stays.
    using type = naive_tile<S::rank == 1 ? x * y * z : x, S::rank == 1 ? 1 : S::rank == 2 ? y * z : y,
                            S::rank == 3 ? z : 1>;
  };
  template <class S>
  using tile = typename resolve<S>::type;

  /// Point functions: one thread a point, every window in global memory.
  template <class T, int Rank>
  using point_mainloop = detail::naive_points<naive<>, tile<star<Rank, 1>>>;

  template <class S>
  static constexpr bool has_kernel = true;

  template <class S, class T>
  static launch_plan plan(const extents<S::rank>& e, const device_limits& lim) {
    using t = tile<S>;
    launch_plan p;
    p.strategy = detail::plan_label<strategy>();
    p.block[0] = t::block_x, p.block[1] = t::block_y, p.block[2] = t::block_z;
    for (int a = 0; a < 3; ++a) p.out_tile[a] = p.block[a];
    return detail::covered(p, e, lim);
  }
};

}  // namespace tessera::cuda
