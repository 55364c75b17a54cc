#pragma once
// The CUDA execution policies: the textbook progression of GPU stencils, each a small
// value type whose tile parameters are template arguments. A parameter left at 0 takes
// the documented default for the grid's rank and shape (kernel_config, tile_config.hpp).
// All of them reach CudaSpace views only.
//
//   naive<BX, BY, BZ>          one thread per output point, every read from global memory
//   tiled<TX, TY, TZ>          one block per input tile (halo included) staged in shared
//                              memory; only the inner threads compute
//   coarsened<TX, TY, Chunk>   2.5D: a block of the xy input tile marches Chunk planes
//                              along z, keeping the shape's z-reach of planes in shared memory
//   register_tiled<TX, TY, Chunk>
//                              as coarsened, but only the current plane is in shared memory;
//                              the z-neighbours live in each thread's registers
//   streaming<BX, BY, Chunk>   beyond the textbook: one thread per output column, marching
//                              Chunk planes along z; the column's z-neighbours stay in
//                              registers, all other neighbours come through L1/L2
//   shared_streaming<BX, BY, RY, Chunk>
//                              streaming built for the roofline: RY rows per thread, the
//                              in-plane neighbours (and a box's other planes) from a ring
//                              of planes in shared memory, every load issued a step ahead
//   pipelined<BX, BY, RY, Stages, Chunk>
//                              streaming whose planes arrive by asynchronous 16-byte copies
//                              (cp.async) into a ring in shared memory, Stages planes in
//                              flight: bytes in flight without registers
//   vector_streaming<BY, Chunk, Depth>
//                              streaming in 16-byte vectors with no shared memory: x-neighbours
//                              by warp shuffles, short chunks launched plane by plane
//   automatic                  picks one of the above (tuning table and tuner, automatic.hpp)
#include <string>

#include "tessera/core/memory_space.hpp"
#include "tessera/core/policy.hpp"

namespace tessera::cuda {

namespace detail {
template <class Space>
inline constexpr bool is_device_space = !Space::host_accessible;
}

/// One thread per output point; block BX x BY x BZ threads (x fastest). 2D grids use a
/// BX x (BY*BZ) block, 1D grids BX*BY*BZ threads. Default (0): 32 x 8 x 1, all ranks.
template <int BX = 0, int BY = 0, int BZ = 0>
struct naive {
  static std::string name() { return "cuda:naive"; }
  template <class Space>
  static constexpr bool reaches = detail::is_device_space<Space>;
};

/// One block per input tile TX x TY x TZ (halo included), loaded into shared memory;
/// the inner (T - reach) threads per axis compute. Defaults (0): 8 x 8 x 8 in 3D (the
/// notes' IN_TILE_DIM: 8^3 = 512 threads, the block limit allows no 16^3), 32 x 32 in
/// 2D, 1024 in 1D, where the block computes its whole tile and the halo cells are
/// appended in dynamic shared memory (the notes' 1D derivative).
template <int TX = 0, int TY = 0, int TZ = 0>
struct tiled {
  static std::string name() { return "cuda:tiled"; }
  template <class Space>
  static constexpr bool reaches = detail::is_device_space<Space>;
};

/// Thread coarsening with 2.5D slicing. 3D: a TX x TY block (the xy input tile) marches
/// Chunk output planes along z, keeping the (reach_lo..reach_hi) z-planes in shared
/// memory and rotating them. 2D: a TX block marches Chunk rows along y. 1D: each thread
/// computes Chunk outputs of a TX*Chunk tile. Defaults (0): 32 x 32, Chunk 32 (3D);
/// 256, Chunk 32 (2D); 256, Chunk 8 (1D).
template <int TX = 0, int TY = 0, int Chunk = 0>
struct coarsened {
  static std::string name() { return "cuda:coarsened"; }
  template <class Space>
  static constexpr bool reaches = detail::is_device_space<Space>;
};

/// Register tiling: as coarsened, but only the current z-plane (2D: row) is in shared
/// memory; each thread keeps its own column of z-neighbours in registers. Serves shapes
/// whose off-plane points all lie on the z axis (stars, not boxes); rank >= 2.
/// Defaults as coarsened.
template <int TX = 0, int TY = 0, int Chunk = 0>
struct register_tiled {
  static std::string name() { return "cuda:register-tiled"; }
  template <class Space>
  static constexpr bool reaches = detail::is_device_space<Space>;
};

/// z-streaming (2D: y-streaming): a BX x BY block owns a BX x BY tile of output columns
/// (no halo threads) and marches Chunk planes along the slowest axis. Each thread keeps
/// its own column's neighbours along that axis in registers, loading one new input value
/// per step; every other neighbour is a load that hits L1/L2, because adjacent threads
/// load the same lines. Serves every shape of rank 2 and 3. Defaults (0): 32 x 8, Chunk
/// 64 (3D); 256 x 1, Chunk 64 (2D).
template <int BX = 0, int BY = 0, int Chunk = 0>
struct streaming {
  static std::string name() { return "cuda:streaming"; }
  template <class Space>
  static constexpr bool reaches = detail::is_device_space<Space>;
};

/// Streaming at the roofline: a BX x BY block owns a BX x (BY * RY) tile of output columns
/// (RY rows per thread, strided by BY) and marches along the slowest axis. The columns'
/// neighbours along that axis stay in registers; the tile's plane with its halo (and, for
/// shapes with off-axis points in other planes, those planes too) is kept in a ring in
/// shared memory; the next plane's loads are issued before the current one is computed.
/// Every input element crosses from L2 once per block plus the tile's halo. Rank 2 and 3,
/// every shape. Chunk = planes per block; 0 lets the plan choose (long enough to amortise
/// the reach along the marching axis, short enough to fill the device). In 2D a block of
/// BX threads owns one row of BX * RY columns. Defaults (0): 128 x 4 threads x 4 rows in
/// 3D (a 128 x 16 tile), 128 threads x 4 columns in 2D (measured: perf/RESULTS.md).
template <int BX = 0, int BY = 0, int RY = 0, int Chunk = 0>
struct shared_streaming {
  static std::string name() { return "cuda:shared-streaming"; }
  template <class Space>
  static constexpr bool reaches = detail::is_device_space<Space>;
};

/// Streaming with a copy pipeline: a BX x BY block owns a BX x (BY * RY) tile of output
/// columns (RY consecutive rows per thread; in 2D one row of BX * RY columns) and marches
/// along the slowest axis. Whole planes of the tile with their halo arrive in a ring in
/// shared memory by asynchronous 16-byte copies (cp.async), issued Stages planes ahead of
/// use, so the bytes in flight cost shared memory instead of registers; every neighbour
/// is read from the ring. Chunk = planes per block, 0 lets the plan choose. Needs views whose rows
/// are 16-byte aligned (every View built from extents is); rank 2 and 3, every shape.
/// The x-halo is copied in whole 128-byte lines unless the ring is deep. Defaults (0):
/// 128 x 4 threads x 4 rows (3D; 128 x 2 threads x 8 rows for a 3D shape with points
/// off the axis on the planes next to the centre, such as the 27-point box), 128 threads
/// x 4 columns (2D); Stages 1 for shapes reaching one plane either way along the marching
/// axis, 2 for wider ones, 4 in 2D (kernel_config in tile_config.hpp; measured:
/// perf/RESULTS.md).
template <int BX = 0, int BY = 0, int RY = 0, int Stages = 0, int Chunk = 0>
struct pipelined {
  static std::string name() { return "cuda:pipelined"; }
  template <class Space>
  static constexpr bool reaches = detail::is_device_space<Space>;
};

/// Streaming in 16-byte vectors, nothing in shared memory: a lane owns one vector of
/// outputs (4 floats, 2 doubles) of a row, a warp 32 vectors of that row, and marches
/// Chunk planes along the slowest axis. The centre vectors of the planes the shape
/// reaches along that axis stay in registers (each step loads the plane Depth steps
/// before it is read: Depth planes in flight per lane), the x-neighbours come from the
/// neighbouring lanes by warp shuffles, the rows at other y offsets are 16-byte loads
/// that hit L1 (the neighbouring warps' rows). 3D stars reaching 3 or more planes along
/// z (19-, 25-point) are summed by accumulation instead: a step reads one plane and adds
/// it to the partial sums of the outputs it reaches, a warp holds 2 rows of 16 vectors
/// (kernels/vector_accumulate.cuh). Chunks are short (the plan's default: 4 planes for a
/// reach of one plane either way, 6 for two, 8 where accumulated) so the resident
/// blocks all work on a few neighbouring planes: chunk edges hit in L2 and DRAM streams
/// through a narrow window (perf/RESULTS.md). BY = warps per block (3D: BY rows, 2 BY
/// where accumulated; 2D: BY x-segments of one row). Needs views whose rows are 16-byte
/// aligned (every View built from extents is); rank 2 and 3, every shape. Defaults (0):
/// BY 4 for 3D shapes reaching more than one row along y, else 8; Depth 1; Chunk by the
/// plan.
template <int BY = 0, int Chunk = 0, int Depth = 0>
struct vector_streaming {
  static std::string name() { return "cuda:vector-streaming"; }
  template <class Space>
  static constexpr bool reaches = detail::is_device_space<Space>;
};

/// Chooses a strategy and tile per shape and extents (automatic.hpp documents how).
struct automatic {
  static std::string name() { return "cuda:automatic"; }
  template <class Space>
  static constexpr bool reaches = detail::is_device_space<Space>;
};

}  // namespace tessera::cuda
