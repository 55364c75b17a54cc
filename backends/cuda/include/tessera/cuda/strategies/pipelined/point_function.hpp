#pragma once
// Point functions on cuda::pipelined (part of its unit, strategies/pipelined.hpp):
// z-streaming (2D: y-streaming) of every field the function reads beyond the point, fed by
// asynchronous copies, the user's function called on windows into shared memory.
//
// Why: cuda::naive reads each neighbour through L1/L2, so a 25-point acoustic step moves
// its u field from L2 to the SM about 25 times a point and runs at about the rate of the
// naive 25-point stencil, well below copy bandwidth (perf/RESULTS.md). Staging each
// field's planes once in shared memory, as cuda::pipelined does for stencils, makes every
// neighbour a shared-memory read, and the copies in flight cost shared memory, not
// registers.
//
// The geometry is pipelined's: a BlockX x BlockY block whose threads compute Rows outputs a
// plane each (3D: Rows consecutive rows of a column, a BlockX x BlockY Rows tile; 2D:
// columns tx, tx + BlockX, ..., a row of BlockX Rows) marches `chunk` planes along the
// slowest axis. Each input field of radius R > 0 has its own ring of planes (its tile with an
// R-point halo, the x-halo widened to whole 16-byte pieces, or to whole 128-byte lines where
// the tile is wide and the ring shallow); fields of radius 0 are read from global memory at
// the point (they are read once anyway). A thread's rows are all computed before any is
// stored, so the shared reads neighbouring rows have in common are read once; the 16-byte
// pieces each thread copies are worked out once, before the march.
//
// The windows a point function reads through are an element pointer plus constant
// strides (core/point_function.hpp), so the 2R + 1 planes one window spans must lie at
// one stride from each other. A ring does not: plane k sits in slot k mod N. The ring is
// therefore followed by copies of its first 2R slots ("duplicates"): slot s < 2R is also
// at s + N, and a window starting at slot b (b < N) finds planes b .. b + 2R at one plane
// stride. Each thread copies its own 16-byte pieces of a plane into the duplicate once the
// plane has landed (before the step's barrier): one shared-memory load and store per piece,
// against the 2R + 1 window reads per point.
//
// Per step i (plane m0 + i of the chunk):
//   1. wait for this thread's copies of the planes step i needs (cp.async.wait_group
//      Stages - 1), duplicate them where their slot is below 2R, one __syncthreads: every
//      copy is visible and every thread has finished step i - 1;
//   2. issue the copies of the planes Stages steps ahead into the slots step i - 1 read
//      last (one commit group per step for all fields, empty past the chunk's end);
//   3. call the function at each of the thread's points with windows on the rings, then
//      store the outputs.
// Pieces outside the field's reach are zero-filled: no global read beyond the ghosts a
// field's radius asks for, and no uninitialised shared memory is read.
#include <cstddef>
#include <string>
#include <utility>

#include "tessera/core/point_function.hpp"
#include "tessera/cuda/device_limits.hpp"
#include "tessera/cuda/launch_plan.hpp"
#include "tessera/cuda/point_function_ring.hpp"
#include "tessera/cuda/point_params.hpp"
#include "tessera/cuda/strategy.hpp"

namespace tessera::cuda {

namespace detail {

/// pipelined's tile for point functions: BlockX x BlockY threads, each computing Rows
/// outputs a plane (3D: Rows consecutive rows of its column; 2D: columns tx, tx + BlockX, ...),
/// Stages planes in flight. The arguments left 0 take defaults picked for the function the
/// tile is resolved against (for_function): Reach is its widest field radius, Staged the
/// number of fields it reads beyond the point.
///   3D, Reach <= 1 and Staged <= 2: 128 x 2 threads, 4 rows a thread (2 for 8-byte types):
///     wide rows read whole 128-byte lines and neighbouring rows share their shared-memory
///     reads, while two such rings still leave an SM two blocks;
///   other 3D functions: 32 x 8 threads, 2 rows (1 for 8-byte types): deep or many rings of
///     wide rows would leave an SM one block, or not fit at all;
///   2D: 128 threads x 4 columns;
/// 2 planes in flight.
template <class T, int Rank, int BlockX, int BlockY, int RowsPerThread, int Stages, int Reach = 1, int Staged = 1>
struct point_pipelined_tile {
  static_assert(RowsPerThread >= 0 && Stages >= 0, "tessera::cuda::pipelined: tile arguments are counts (0: default)");
  static constexpr bool wide = Rank == 2 || (Reach <= 1 && Staged <= 2);
  static constexpr int block_x = BlockX > 0 ? BlockX : wide ? 128 : 32;
  static constexpr int block_y = Rank == 3 ? (BlockY > 0 ? BlockY : wide ? 2 : 8) : 1;
  static constexpr int rows = RowsPerThread > 0 ? RowsPerThread
                              : Rank == 2       ? 4
                                                : (wide ? 4 : 2) / (sizeof(T) >= 8 ? 2 : 1);
  static constexpr int stages = Stages > 0 ? Stages : 2;
  /// These arguments, the defaults picked for point function F.
  template <class F>
  using for_function = point_pipelined_tile<T, Rank, BlockX, BlockY, RowsPerThread, Stages, F::reach_type::max,
                                            staged_fields<typename F::reach_type>>;
};

/// The tile a point_pipelined_tile's arguments give function F.
template <class Arguments, class F>
using pipelined_tile_for = typename Arguments::template for_function<F>;

/// The shared-memory ring of one input field of radius R (host and device constexpr), for
/// a block of BlockX x BlockY threads with Rows outputs each a plane.
/// The x-halo is widened to whole 16-byte pieces (planes arrive by 16-byte copies), or to
/// whole 128-byte lines where the tile is at least 512 bytes wide and the ring shallow: a
/// halo of single pieces, each a partial read of a line the neighbouring block reads in
/// full, costs time for the same DRAM bytes, while a narrow tile or a deep ring would
/// spend more shared memory on the lines than they save.
template <class T, int Rank, int R, int BlockX, int BlockY, int Rows, int Stages>
struct point_ring {
  using geometry = point_ring_geometry<Rank, BlockX, BlockY, Rows>;
  static constexpr bool staged = R > 0;
  static constexpr int vec = elements_per_16_bytes<T>;
  static constexpr int slots = 2 * R + 1 + Stages;  // the window's planes + the planes in flight
  static constexpr int stored = staged ? slots + 2 * R : 0;  // + duplicates of slots 0 .. 2R - 1
  static constexpr bool halo_in_lines = geometry::tile_w * sizeof(T) >= 512 && stored <= 8;
  static constexpr int halo_unit = halo_in_lines ? elements_per_128_bytes<T> : vec;
  static constexpr int pad_x = (R + halo_unit - 1) / halo_unit * halo_unit;
  static constexpr int ring_w = geometry::tile_w + 2 * pad_x;
  static constexpr int ring_h = geometry::has_y ? geometry::tile_h + 2 * R : 1;
  static constexpr int plane = ring_w * ring_h;
  static constexpr std::size_t elements = std::size_t(stored) * plane;
  static constexpr int pieces_per_row = ring_w / vec, pieces = ring_h * pieces_per_row;
  /// The pieces of a plane each thread copies (the last ones past `pieces` for some threads).
  static constexpr int per_thread = staged ? (pieces + geometry::threads - 1) / geometry::threads : 0;
  static_assert(geometry::tile_w % vec == 0, "tessera::cuda::pipelined: the tile width must be a multiple of 16 bytes");
};

/// The rings of all input fields, one after the other: field I's starts at offset<I>; its
/// pieces' offsets at piece<I>() of a thread's `pieces` table.
template <class F, class T, int Rank, int BlockX, int BlockY, int Rows, int Stages>
struct point_rings {
  using reach_type = typename F::reach_type;
  template <int I>
  using ring = point_ring<T, Rank, reach_type::radius[I], BlockX, BlockY, Rows, Stages>;
  template <int I>
  static constexpr std::size_t offset() {
    return staged_offset<ring, I>();
  }
  template <int I>
  static constexpr int piece() {
    return staged_per_thread_offset<ring, I>();
  }
  static constexpr std::size_t elements = offset<reach_type::fields>();
  static constexpr int pieces = piece<reach_type::fields>();
};

/// pipelined's launch for a point function over extents e; reason set where it cannot run.
template <class F, class T, int Rank, class Arguments>
launch_plan point_pipelined_plan(const extents<Rank>& e, const device_limits& lim, int planes_per_block) {
  using Tile = pipelined_tile_for<Arguments, F>;
  launch_plan p;
  p.strategy = "pipelined";
  if constexpr (Rank == 1) {
    return refuse_1d_marching(p);
  } else {
    using geometry = point_ring_geometry<Rank, Tile::block_x, Tile::block_y, Tile::rows>;
    using rings = point_rings<F, T, Rank, Tile::block_x, Tile::block_y, Tile::rows, Tile::stages>;
    p.block[0] = Tile::block_x, p.block[1] = Tile::block_y, p.block[2] = 1;
    p.shared_bytes = rings::elements * sizeof(T);
    const int chunk =
        staged_march_chunk(p, e, geometry::tile_w, geometry::tile_h, F::reach_type::max, planes_per_block, lim);
    // in-plane offsets of the copies are 32-bit
    const long long plane = (Rank == 3 ? e[1] + 2LL * F::reach_type::max : 1) * (e[Rank - 1] + 256LL);
    if (plane >= (1LL << 31))
      p.reason = "a plane of " + e.to_string() + " has about " + std::to_string(plane) +
                 " elements; pipelined indexes a plane with 32-bit offsets: use cuda::naive";
    return marched(p, e, geometry::tile_w, geometry::tile_h, chunk, lim);
  }
}

/// "" when every field pipelined stages (radius > 0) has its rows on 16 bytes; else why not.
template <class F, class T, int Rank, std::size_t NI>
std::string point_rows_on_16_bytes(const input_fields<T, Rank, CudaSpace, NI>& in) {
  std::string why;
  tessera::detail::static_for<static_cast<int>(NI)>([&](auto i) {
    if (why.empty() && F::reach_type::radius[decltype(i)::value] > 0)
      why = rows_on_16_bytes(in[decltype(i)::value], "pipelined copies the rows of every field a point function "
                                                     "reads beyond the point in 16-byte pieces", "cuda::naive");
  });
  return why;
}

/// pipelined's mainloop as its point-function lowering (strategy.hpp): Tile (a
/// point_pipelined_tile, resolved against each function by for_function), `Chunk` planes
/// a block (0: the plan's choice). Its kernel and sweep_points: point_function.cuh (nvcc only).
template <class Tile, int Chunk>
struct pipelined_points {
  using tile = Tile;
  static constexpr int chunk = Chunk;
};

}  // namespace detail
}  // namespace tessera::cuda
