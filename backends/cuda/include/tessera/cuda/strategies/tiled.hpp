#pragma once
// cuda::tiled: shared-memory tiling. A block computes a tile of outputs, one point a
// thread; first the block loads the tile plus the shape's halo into shared memory
// cooperatively (each thread a few elements, all of its loads in flight at once), then one
// __syncthreads, then every thread reads its neighbours from the staged tile. For the
// 7-point star and an 8^3 output tile, 10^3 loads serve 8^3 outputs and every thread
// computes; the notes' block-as-input-tile (8^3 loads, 6^3 outputs) idles its halo threads
// during the compute phase and measured slower on every case (perf/RESULTS.md, "One
// mainloop for stencils and point functions"). Stencils and point functions run the same
// mainloop (tiled_points, point_function_tiled.hpp), a stencil as its point function.
#include "tessera/core/stencil_function.hpp"
#include "tessera/cuda/point_function_tiled.hpp"
#include "tessera/cuda/strategy.hpp"

namespace tessera::cuda {

/// tiled's compiled configuration: the output tile, which is the block.
template <int TileX, int TileY, int TileZ>
struct tiled_tile {
  static constexpr int tile_x = TileX;  ///< outputs (= threads) along x
  static constexpr int tile_y = TileY;  ///< along y (1 in 1D)
  static constexpr int tile_z = TileZ;  ///< along z (1 in 1D and 2D)
};

/// One block per output tile TileX x TileY x TileZ, one output a thread; the tile and its
/// halo are staged in shared memory. Defaults (0): 8 x 8 x 8 in 3D (512 threads), 32 x 32
/// in 2D, 1024 in 1D.
template <int TileX = 0, int TileY = 0, int TileZ = 0>
struct tiled : device_policy {
  static std::string name() { return "cuda:tiled"; }
  using strategy = tiled<>;
  static constexpr bool automatic_candidate = false;

  template <class S>
  using tile = tiled_tile<detail::or_default(TileX, S::rank == 1 ? 1024 : S::rank == 2 ? 32 : 8),
                          S::rank == 1 ? 1 : detail::or_default(TileY, S::rank == 2 ? 32 : 8),
                          S::rank == 3 ? detail::or_default(TileZ, 8) : 1>;

  /// Point functions and stencils alike: the block is the output tile, each field staged
  /// with its own halo.
  template <class T, int Rank>
  using point_mainloop = detail::tiled_points<tiled<>, tile<star<Rank, 1>>::tile_x, tile<star<Rank, 1>>::tile_y,
                                              tile<star<Rank, 1>>::tile_z>;

  template <class S>
  static constexpr bool has_kernel = true;

  template <class S, class T>
  static launch_plan plan(const extents<S::rank>& e, const device_limits& lim) {
    using t = tile<S>;
    return detail::point_tiled_plan<stencil_function<S, T>, T, S::rank, t::tile_x, t::tile_y, t::tile_z>(
        detail::plan_label<strategy>(), e, lim);
  }
};

}  // namespace tessera::cuda
