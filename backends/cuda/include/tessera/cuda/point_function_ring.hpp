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
    return staged_per_thread_offset<ring, I>();
  }
  static constexpr std::size_t elements = offset<reach_type::fields>();
  static constexpr int held_elements = held<reach_type::fields>();
};

/// The planes a block of a staged point-function mainloop marches over out_x x out_y output
/// tiles (2D: out_x) of extents e, p.block and p.shared_bytes already set: planes_per_block,
/// or (0) streaming_chunk's choice for a reach of reach_max along the march, given the
/// blocks that fit an SM (recorded in p.resident_per_sm). Shared by the ring and pipelined
/// point-function plans.
template <int Rank>
int staged_march_chunk(launch_plan& p, const extents<Rank>& e, int out_x, int out_y, int reach_max,
                       int planes_per_block, const device_limits& lim) {
  if (planes_per_block > 0) return planes_per_block;
  p.resident_per_sm = resident_blocks(p, lim);
  return streaming_chunk(2 * reach_max, plane_tiles(e, out_x, out_y), e[0], p.resident_per_sm, lim);
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
/// point_ring_tile); Strategy names the launch. Its kernel and
/// sweep_points: point_function_ring.cuh (nvcc only).
template <class Strategy, class Tile>
struct ring_points {};

}  // namespace tessera::cuda::detail
