#pragma once
// The CUDA execution policies: the textbook progression of GPU stencils, each a small
// value type whose tile parameters are template arguments. A parameter left at 0 takes
// the documented default for the grid's rank and shape (the strategy's `tile`). All of
// them reach CudaSpace views only. Each strategy is one header in strategies/; the list
// is strategies.def (as a type list: strategies.hpp).
//
//   naive<BlockX, BlockY, BlockZ>   one thread per output point, every read from global memory
//   tiled<TileX, TileY, TileZ>      one block per output tile, one point a thread; the tile and
//                                   its halo staged in shared memory first
//   coarsened<TileX, TileY, Chunk>  2.5D: a block of the xy input tile marches Chunk planes
//                                   along z, keeping the shape's z-reach of planes in shared memory
//   register_tiled<TileX, TileY, Chunk>
//                                   as coarsened, but only the current plane is in shared memory;
//                                   the z-neighbours live in each thread's registers; 3D boxes:
//                                   a register tile of outputs, partial sums of several rows a
//                                   thread for every plane an input plane feeds
//   streaming<BlockX, BlockY, Chunk>
//                                   beyond the textbook: one thread per output column, marching
//                                   Chunk planes along z; the planes it read stay in L1, the
//                                   plane beyond its reach is prefetched into L2
//   shared_streaming<BlockX, BlockY, RowsPerThread, Chunk>
//                                   streaming built for the roofline: rows per thread, the
//                                   in-plane neighbours (and a box's other planes) from a ring
//                                   of planes in shared memory, every load issued a step ahead
//   pipelined<BlockX, BlockY, RowsPerThread, Stages, Chunk>
//                                   streaming whose planes arrive by asynchronous 16-byte copies
//                                   (cp.async) into a ring in shared memory, Stages planes in
//                                   flight: bytes in flight without registers
//   vector_streaming<Warps, Chunk, Depth>
//                                   streaming in 16-byte vectors with no shared memory: x-neighbours
//                                   by warp shuffles, short chunks launched plane by plane
//   temporal_blocking<Steps, TileX, TileY, Rows>
//                                   several time steps per pass (iterate): each thread's Rows
//                                   columns queue every level's planes in registers, the levels
//                                   publish their planes in shared memory, boundary conditions
//                                   applied inside the pass; one step per pass for apply
//   automatic                       picks one of the above (tuning table and tuner, automatic.hpp)
#include <string>
#include <type_traits>

#include "tessera/core/policy.hpp"
#include "tessera/cuda/detail/candidates.hpp"
#include "tessera/cuda/strategies.hpp"

namespace tessera::cuda {

/// Chooses a strategy and tile per shape and extents (automatic.hpp documents how).
struct automatic : device_policy {
  static std::string name() { return "cuda:automatic"; }

  /// Point functions: in 2D and 3D the first strategy that claims the function at the
  /// grid's size (automatic_point_claim; detail::automatic_points), else the point default;
  /// in 1D the last resort's mainloop (candidates.hpp: the units' traits say which).
  template <class T, int Rank>
  using point_mainloop =
      std::conditional_t<Rank >= 2, detail::automatic_points,
                         typename automatic_last_resort_strategy::template point_mainloop<T, Rank>>;
};

}  // namespace tessera::cuda
