#pragma once
// The tiled mainloop: cuda::tiled's stencils and point functions (and cuda::coarsened's
// point functions in 1D): shared-memory tiling. A block of TileX x TileY x TileZ threads
// computes that tile of outputs, one point a thread; every field the function reads beyond
// the point is first loaded cooperatively into shared memory as the tile plus its own
// R-point halo on every side, then one __syncthreads, then each thread calls the function
// on windows into the staged tiles. Fields of radius 0 are read from global memory at the
// point.
//
// The block is the output tile, not the input tile as in the notes' kernel: the fields of
// one function have different radii, so there is no one input tile, and an output tile
// keeps every thread computing (a radius-4 field would leave no inner threads of an 8^3
// input tile). Each thread loads ceil((tile + 2R)^d / tile^d) elements a field.
// Elements outside a field's reach are stored as zeros and never read from global memory.
#include <cstddef>
#include <string>
#include <utility>

#include "tessera/core/point_function.hpp"
#include "tessera/cuda/device_limits.hpp"
#include "tessera/cuda/launch_plan.hpp"
#include "tessera/cuda/point_params.hpp"
#include "tessera/cuda/strategy.hpp"

namespace tessera::cuda::detail {

/// Field I's staged tile (host and device constexpr): the Rank-d output tile with an
/// R-point halo on each side of each of the grid's axes; empty for R = 0.
template <int Rank, int R, int TileX, int TileY, int TileZ>
struct point_staged_tile {
  static constexpr int w = TileX + 2 * R;
  static constexpr int h = Rank >= 2 ? TileY + 2 * R : 1;
  static constexpr int d = Rank >= 3 ? TileZ + 2 * R : 1;
  static constexpr std::size_t elements = R > 0 ? std::size_t(w) * h * d : 0;
};

/// The staged tiles of all input fields, one after the other: field I's at offset<I>().
template <class F, int Rank, int TileX, int TileY, int TileZ>
struct point_staged_tiles {
  using reach_type = typename F::reach_type;
  template <int I>
  using tile = point_staged_tile<Rank, reach_type::radius[I], TileX, TileY, TileZ>;
  template <int I>
  static constexpr std::size_t offset() {
    return staged_offset<tile, I>();
  }
  static constexpr std::size_t elements = offset<reach_type::fields>();
};

/// The launch of the tiled point-function kernel on a TileX x TileY x TileZ block over extents
/// e; `strategy` names it in the launch record (tiled, or coarsened in 1D).
template <class F, class T, int Rank, int TileX, int TileY, int TileZ>
launch_plan point_tiled_plan(const std::string& strategy, const extents<Rank>& e, const device_limits& lim) {
  launch_plan p;
  p.strategy = strategy;
  p.block[0] = TileX, p.block[1] = TileY, p.block[2] = TileZ;
  for (int a = 0; a < 3; ++a) p.out_tile[a] = p.block[a];
  p.shared_bytes = point_staged_tiles<F, Rank, TileX, TileY, TileZ>::elements * sizeof(T);
  return covered(p, e, lim);
}

/// The tiled mainloop as a strategy's point-function lowering (strategy.hpp): a TileX x TileY
/// x TileZ block, the output tile, one point a thread; Strategy names the launch. Its kernel and
/// sweep_points: point_function_tiled.cuh (nvcc only).
template <class Strategy, int TileX, int TileY, int TileZ>
struct tiled_points {};

}  // namespace tessera::cuda::detail
