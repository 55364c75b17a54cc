#pragma once
// cuda::register_tiled: as coarsened, but only the current plane is in shared memory
// (where the in-plane neighbours are read); the z-neighbours (2D: y-neighbours) of each
// thread's column live in its registers — reach_hi - reach_lo + 1 values, shifted one
// step per plane. Shared memory drops from (2r + 1) planes to one, so larger tiles and
// more blocks fit. Serves shapes whose off-plane points all lie on the marching axis.
#include "tessera/cuda/point_function_streaming.hpp"
#include "tessera/cuda/strategies/coarsened.hpp"

namespace tessera::cuda {

/// Register tiling: as coarsened, but only the current z-plane (2D: row) is in shared
/// memory; each thread keeps its own column of z-neighbours in registers. Serves shapes
/// whose off-plane points all lie on the z axis (stars, not boxes); rank >= 2. Tiles and
/// defaults as coarsened.
template <int TileX = 0, int TileY = 0, int Chunk = 0>
struct register_tiled : device_policy {
  static std::string name() { return "cuda:register-tiled"; }
  using strategy = register_tiled<>;
  static constexpr bool automatic_candidate = false;

  template <class S>
  using tile = typename coarsened<TileX, TileY, Chunk>::template tile<S>;

  /// Only shapes of rank 2 and 3 whose off-plane points lie on the marching axis.
  /// Point functions: a window is a pointer, which registers cannot serve, so each
  /// thread marches its column with the planes it read in L1, on this tile and chunk.
  template <class T, int Rank>
  using point_mainloop =
      detail::marching_points<register_tiled<>, detail::point_column_tile<tile<star<Rank, 1>>::tile_x,
                                                                          tile<star<Rank, 1>>::tile_y, 1,
                                                                          tile<star<Rank, 1>>::chunk>>;

  template <class S>
  static constexpr bool has_kernel = S::rank >= 2 && shape_traits<S>::slow_axis_neighbours_on_axis;

  template <class S, class T>
  static launch_plan plan(const extents<S::rank>& e, const device_limits& lim) {
    if constexpr (S::rank == 1) {
      launch_plan p;
      p.strategy = detail::plan_label<strategy>();
      p.reason = "register tiling marches along the slowest axis of a 2D or 3D grid and keeps its "
                 "neighbours in registers; a 1D grid has no such axis: use cuda::tiled or "
                 "cuda::coarsened";
      return p;
    } else if constexpr (!shape_traits<S>::slow_axis_neighbours_on_axis) {
      launch_plan p;
      p.strategy = detail::plan_label<strategy>();
      p.reason = "register tiling keeps only the " + std::string(S::rank == 3 ? "z" : "y") +
                 "-neighbours on the marching axis in registers (offsets (d, 0" + (S::rank == 3 ? ", 0" : "") +
                 ")), but " + shape_name<S>() +
                 " has points off both that axis and the centre plane (a box or skewed shape "
                 "needs whole neighbour planes): use cuda::coarsened, which keeps those planes "
                 "in shared memory";
      return p;
    } else {
      return detail::plan_marching<S, T, tile<S>>("register_tiled", e, 1, lim);
    }
  }
};

}  // namespace tessera::cuda
