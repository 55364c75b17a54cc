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
/// one beyond CUDA's limits, is refused naming the caller's policy. Its kernel and
/// sweep_points: point_function_streaming.cuh (nvcc only).
template <class Strategy, class Tile>
struct marching_points {};

}  // namespace tessera::cuda::detail
