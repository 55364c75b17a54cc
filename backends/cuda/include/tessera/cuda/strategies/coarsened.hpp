#pragma once
// cuda::coarsened: thread coarsening with 2.5D slicing. A block of the xy input tile (2D:
// the x input tile) marches Chunk output planes along z (2D: rows along y). The planes
// the shape reaches along z — reach_lo .. reach_hi, 2r + 1 for a star — stay in shared
// memory as a ring: each step loads one new plane and the oldest slot is reused, so every
// input element is loaded from global memory once per block (plus the xy halo). With the
// block limited to 2D, the tile can be 32 x 32 where the 3D tiled kernel had 8 x 8 x 8.
// 1D coarsening (each thread computes Chunk outputs of a shared segment) is the 1D kernel
// of the notes with Chunk outputs per thread (coarsened/segment_1d.cuh).
#include "tessera/cuda/point_function_ring.hpp"
#include "tessera/cuda/point_function_tiled.hpp"
#include "tessera/cuda/strategy.hpp"

namespace tessera::cuda {

/// The compiled configuration of the strategies that march an input tile along the
/// slowest axis (coarsened, register_tiled).
template <int TileX, int TileY, int Chunk>
struct marching_tile {
  static constexpr int tile_x = TileX;  ///< input cells (= threads) along x, halo included
  static constexpr int tile_y = TileY;  ///< along y, 3D only (1 in 1D and 2D)
  static constexpr int chunk = Chunk;   ///< outputs per thread along the marched axis
};

namespace detail {
/// Plans a block of the xy (2D: x) input tile marching along the slowest axis, `planes`
/// z-planes (2D: rows) of the tile held in shared memory (coarsened, register_tiled).
template <class S, class T, class Tile>
launch_plan plan_marching(const char* strategy, const extents<S::rank>& e, int planes, const device_limits& lim) {
  using r = virtual_reach<S>;
  launch_plan p;
  p.strategy = strategy;
  p.block[0] = Tile::tile_x, p.block[1] = Tile::tile_y, p.block[2] = 1;
  p.chunk = Tile::chunk;
  // x and (3D) y: the block is the input tile; z (3D) or y (2D): marched.
  const int march = 3 - S::rank;  // virtual axis marched along: z (3D) or y (2D)
  for (int a = 0; a < 2; ++a) {
    const int v = 2 - a;
    if (v <= march) continue;
    p.out_tile[a] = p.block[a] - r::width(v);
    if (p.out_tile[a] < 1) {
      p.reason = std::string("input tile ") + std::to_string(Tile::tile_x) +
                 (S::rank == 3 ? "x" + std::to_string(Tile::tile_y) : std::string()) + " leaves no outputs along " +
                 "xyz"[a] + ": the shape " + shape_name<S>() + " needs " + std::to_string(r::width(v)) +
                 " halo cells there; use a larger tile";
      return p;
    }
  }
  const int march_dim = 2 - march;  // dim3 component of the marching axis
  p.out_tile[march_dim] = Tile::chunk;
  p.shared_bytes = static_cast<std::size_t>(planes) * Tile::tile_x * Tile::tile_y * sizeof(T);
  return covered(p, e, lim);
}
}  // namespace detail

/// Thread coarsening with 2.5D slicing. 3D: a TileX x TileY block (the xy input tile)
/// marches Chunk output planes along z, keeping the (reach_lo..reach_hi) z-planes in
/// shared memory and rotating them. 2D: a TileX block marches Chunk rows along y. 1D:
/// each thread computes Chunk outputs of a TileX * Chunk tile. Defaults (0): 32 x 32,
/// Chunk 32 (3D); 256, Chunk 32 (2D); 256, Chunk 8 (1D).
template <int TileX = 0, int TileY = 0, int Chunk = 0>
struct coarsened : device_policy {
  static std::string name() { return "cuda:coarsened"; }
  using strategy = coarsened<>;
  static constexpr bool automatic_candidate = false;

  template <class S>
  using tile = marching_tile<detail::or_default(TileX, S::rank == 3 ? 32 : 256),
                             S::rank == 3 ? detail::or_default(TileY, 32) : 1,
                             detail::or_default(Chunk, S::rank == 1 ? 8 : 32)>;

  /// Point functions: 2.5D rings of planes loaded when needed, one output a thread, on
  /// this tile and chunk; in 1D a staged tile of TileX points (the stencil kernel coarsens along x).
  template <class T, int Rank>
  using point_mainloop = std::conditional_t<
      Rank == 1, detail::tiled_points<coarsened<>, tile<star<1, 1>>::tile_x, 1, 1>,
      detail::ring_points<coarsened<>, detail::point_ring_tile<tile<star<Rank, 1>>::tile_x, tile<star<Rank, 1>>::tile_y,
                                                               1, false, tile<star<Rank, 1>>::chunk>>>;

  template <class S>
  static constexpr bool has_kernel = true;

  template <class S, class T>
  static launch_plan plan(const extents<S::rank>& e, const device_limits& lim) {
    using t = tile<S>;
    using r = detail::virtual_reach<S>;
    if constexpr (S::rank == 1) {
      // 1D coarsening: each thread computes `chunk` outputs of a tile_x * chunk tile whose
      // halo is appended in shared memory.
      launch_plan p;
      p.strategy = detail::plan_label<strategy>();
      p.block[0] = t::tile_x;
      p.chunk = t::chunk;
      p.out_tile[0] = t::tile_x * t::chunk;
      p.shared_bytes = static_cast<std::size_t>(p.out_tile[0] + r::width(2)) * sizeof(T);
      p.grid[0] = detail::ceil_div(e[0], p.out_tile[0]);
      detail::check_limits(p, lim);
      return p;
    } else {
      const int planes = r::width(3 - S::rank) + 1;  // z-reach (2D: y-reach) + the centre
      return detail::plan_marching<S, T, t>("coarsened", e, planes, lim);
    }
  }
};

}  // namespace tessera::cuda
