#pragma once
// cuda::tiled: one block per input tile (halo included), loaded cooperatively into shared
// memory, one element per thread; only the inner threads compute. For the 7-point star
// and an 8^3 tile (the block-size limit allows no 16^3), 6^3 outputs per 8^3 loads: the
// intensity reaches 3.25 * (1 - 2/8)^3 = 1.37 flop/byte at best, and the halo threads
// idle during the compute phase.
//
// 1D follows the notes' derivative kernel instead (kernels/segment_1d.cuh): the block
// computes its whole tile and the reach's halo cells are appended in dynamic shared
// memory sized at launch.
#include "tessera/cuda/point_function_tiled.hpp"
#include "tessera/cuda/strategy.hpp"

namespace tessera::cuda {

/// tiled's compiled configuration: the input tile, which is the block.
template <int TileX, int TileY, int TileZ>
struct tiled_tile {
  static constexpr int tile_x = TileX;  ///< input cells (= threads) along x, halo included
  static constexpr int tile_y = TileY;  ///< along y (1 in 1D)
  static constexpr int tile_z = TileZ;  ///< along z (1 in 1D and 2D)
};

/// One block per input tile TileX x TileY x TileZ (halo included), loaded into shared
/// memory; the inner (tile - reach) threads per axis compute. Defaults (0): 8 x 8 x 8 in
/// 3D (the notes' IN_TILE_DIM: 8^3 = 512 threads, the block limit allows no 16^3), 32 x 32
/// in 2D, 1024 in 1D, where the block computes its whole tile and the halo cells are
/// appended in dynamic shared memory (the notes' 1D derivative).
template <int TileX = 0, int TileY = 0, int TileZ = 0>
struct tiled : device_policy {
  static std::string name() { return "cuda:tiled"; }
  using strategy = tiled<>;
  static constexpr bool automatic_candidate = false;

  template <class S>
  using tile = tiled_tile<detail::or_default(TileX, S::rank == 1 ? 1024 : S::rank == 2 ? 32 : 8),
                          S::rank == 1 ? 1 : detail::or_default(TileY, S::rank == 2 ? 32 : 8),
                          S::rank == 3 ? detail::or_default(TileZ, 8) : 1>;

  /// Point functions: the block is the output tile, each field staged with its own halo.
  template <class T, int Rank>
  using point_mainloop = detail::tiled_points<tiled<>, tile<star<Rank, 1>>::tile_x, tile<star<Rank, 1>>::tile_y,
                                              tile<star<Rank, 1>>::tile_z>;

  template <class S>
  static constexpr bool has_kernel = true;

  template <class S, class T>
  static launch_plan plan(const extents<S::rank>& e, const device_limits& lim) {
    using t = tile<S>;
    using r = detail::virtual_reach<S>;
    launch_plan p;
    p.strategy = detail::plan_label<strategy>();
    p.block[0] = t::tile_x, p.block[1] = t::tile_y, p.block[2] = t::tile_z;
    if constexpr (S::rank == 1) {
      // The notes' 1D layout: the block computes its whole tile; the halo cells are
      // appended in dynamic shared memory (size fixed at launch).
      p.out_tile[0] = t::tile_x;
      p.shared_bytes = static_cast<std::size_t>(t::tile_x + r::width(2)) * sizeof(T);
    } else {
      // Textbook 2D/3D: the block is the input tile; the inner threads compute.
      std::size_t cells = 1;
      for (int a = 0; a < 3; ++a) {
        p.out_tile[a] = p.block[a] - r::width(2 - a);
        cells *= static_cast<std::size_t>(p.block[a]);
        if (p.out_tile[a] < 1) {
          p.reason = "input tile " + std::to_string(t::tile_x) + "x" + std::to_string(t::tile_y) +
                     (S::rank == 3 ? "x" + std::to_string(t::tile_z) : std::string()) + " leaves no outputs along " +
                     "xyz"[a] + ": the shape " + shape_name<S>() + " needs " + std::to_string(r::width(2 - a)) +
                     " halo cells there; use a larger tile";
          return p;
        }
      }
      p.shared_bytes = cells * sizeof(T);
    }
    return detail::covered(p, e, lim);
  }
};

}  // namespace tessera::cuda
