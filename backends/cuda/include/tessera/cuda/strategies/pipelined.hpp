#pragma once
// cuda::pipelined: z-streaming (2D: y-streaming) fed by a copy pipeline.
//
// Why: a streaming kernel that loads its next plane into registers has one plane of
// loads in flight per thread, and HBM needs more bytes in flight than registers can hold
// (Little's law: ~3 TB/s x ~1 us of loaded latency = ~23 KB per SM on an H100, more
// than shared_streaming's 64 registers a thread can hold).
// Asynchronous copies (cp.async, sm_80+) move global memory straight into shared memory:
// the bytes in flight cost shared memory, which an SM has 228 KB of, not registers.
//
// A block of BlockX x BlockY threads owns a BlockX x (BlockY * RowsPerThread) tile of outputs (3D; each thread
// RowsPerThread consecutive rows of one column) or one row of BlockX * RowsPerThread outputs (2D; thread tx owns
// columns tx, tx + BlockX, ...) and marches `chunk` planes along the slowest axis. The ring
// in shared memory has reach_planes + Stages slots: the reach_planes planes the shape reaches along the
// marching axis, plus Stages planes in flight. Each plane is the tile with its in-plane
// halo, copied in 16-byte pieces, so the copy needs rows whose interior starts on a
// 16-byte boundary (views from extents have them on 128 bytes; the dispatcher checks).
// The x-halo is rounded out to whole 128-byte lines (unless the ring is deep): reading
// only the pieces the shape needs from a line the neighbouring block reads in full costs
// time for the same DRAM bytes (perf/RESULTS.md, "pipelined's defaults"). Per step i:
//   1. wait until this thread's copies of plane i + reach_planes - 1 have landed (cp.async.wait_group
//      Stages - 1), then one __syncthreads: every thread's copies are visible, and every
//      thread has finished reading the slot about to be refilled (last read in step i - 1);
//   2. issue the copies of plane i + reach_planes + Stages - 1 into that slot (one commit group per
//      plane, empty past the chunk's end, so the group count stays in step);
//   3. compute plane i from the ring: every neighbour is a shared-memory read at a
//      compile-time offset; with RowsPerThread consecutive rows per thread the compiler reuses the
//      rows two outputs share.
// Pieces outside the grid's reach are zero-filled (cp.async with source size 0): no
// global read past the ghosts, and no uninitialised shared memory is ever read.
//
// The same loop serves point functions (pipelined/point_function.hpp: a ring per field,
// windows into it). 2D and 3D stars of radius 1 in 4-byte types run on that mainloop, the
// stencil as its evaluator (stencil_evaluator.hpp), 128 x 2 threads of 4 rows (2D: 256
// threads of 4 columns): faster there than the kernel below, which the other shapes and
// 8-byte types keep (detail::pipelined_stencil_on_mainloop says why).
#include <cstdint>
#include <type_traits>

#include "tessera/core/stencil_function.hpp"
#include "tessera/cuda/strategies/pipelined/point_function.hpp"
#include "tessera/cuda/strategy.hpp"

namespace tessera::cuda {

/// pipelined's compiled configuration (the planes per block are chosen at launch).
template <int BlockX, int BlockY, int RowsPerThread, int Stages>
struct pipelined_tile {
  static constexpr int block_x = BlockX;                  ///< threads along x
  static constexpr int block_y = BlockY;                  ///< threads along y (1 in 2D)
  static constexpr int rows_per_thread = RowsPerThread;  ///< outputs each thread computes per plane
  static constexpr int stages = Stages;                   ///< planes whose copies are in flight
};

/// pipelined's configuration for a stencil: its kernel's tile (Kernel, a pipelined_tile) and,
/// for the stencils it runs on its point-function mainloop
/// (detail::pipelined_stencil_on_mainloop), the mainloop's tile `points<T, Rank>` from the
/// policy's arguments. Mainloop defaults: 3D 128 x 2 threads x 4 rows, 2D 256 threads x 4
/// columns; 2 planes in flight; arguments given are kept.
template <class Kernel, int BlockX, int BlockY, int RowsPerThread, int Stages>
struct pipelined_stencil_tile : Kernel {
  template <class T, int Rank>
  using points = detail::point_pipelined_tile<T, Rank, detail::or_default(BlockX, Rank == 3 ? 128 : 256),
                                              detail::or_default(BlockY, 2), detail::or_default(RowsPerThread, 4),
                                              detail::or_default(Stages, 2)>;
};

namespace detail {
/// Stencils pipelined runs on its point-function mainloop, the stencil as the evaluator
/// (stencil_evaluator.hpp): 2D and 3D stars of radius 1 in 4-byte types, where the mainloop
/// measures faster than the kernel below. Other shapes and 8-byte types keep the kernel: the
/// mainloop's ring stores 2R more planes (the windows' duplicates), and the resident blocks
/// that costs lose more than the mainloop's tile gains (perf/RESULTS.md, "One mainloop for
/// stencils and point functions").
template <class S, class T>
inline constexpr bool pipelined_stencil_on_mainloop = S::rank >= 2 && sizeof(T) <= 4 && std::is_same_v<S, star<S::rank, 1>>;

/// The shared-memory layout of a pipelined block (host and device constexpr). A plane of
/// the ring is the ring_h x ring_w tile with its in-plane halo, the x-halo widened to whole
/// 16-byte pieces (pad_x_lo, pad_x_hi elements) because planes arrive by 16-byte asynchronous
/// copies. The ring holds the reach_planes planes the shape reaches along the marching axis plus
/// `stages` planes in flight.
template <class S, class T, int BlockX, int BlockY, int RowsPerThread, int Stages>
struct pipelined_layout {
  static constexpr int rank = S::rank;
  static constexpr int march = 3 - rank;  // virtual axis marched along
  static constexpr bool has_y = rank == 3;
  using r = virtual_reach<S>;
  static constexpr int vec = elements_per_16_bytes<T>;  // elements per copy
  static constexpr int line_elems = elements_per_128_bytes<T>;
  // Tile: 3D, BlockX columns x BlockY * RowsPerThread rows (RowsPerThread consecutive rows per thread); 2D, one row of
  // BlockX * RowsPerThread columns (thread tx owns tx, tx + BlockX, ...).
  static constexpr int tile_w = has_y ? BlockX : BlockX * RowsPerThread, tile_h = has_y ? BlockY * RowsPerThread : 1;
  static constexpr int halo_x_lo = -r::lo(2), halo_x_hi = r::hi(2);
  static constexpr int halo_y_lo = has_y ? -r::lo(1) : 0, halo_y_hi = has_y ? r::hi(1) : 0;
  static constexpr int march_lo = r::lo(march), march_hi = r::hi(march), reach_planes = march_hi - march_lo + 1;
  static constexpr int stages = Stages;
  static constexpr int slots = reach_planes + Stages;
  // The x-halo is copied as whole 128-byte lines where the ring is small: a halo of
  // single 16-byte pieces, each a partial read of a line the neighbouring block reads in
  // full, costs time for the same DRAM bytes. A deep ring (a wide reach along the
  // marching axis) takes 16-byte pieces instead: the lines' shared memory would leave one
  // block per SM (perf/RESULTS.md, "pipelined's defaults").
  static constexpr bool halo_in_lines = slots <= 8;
  static constexpr int halo_unit = halo_in_lines ? line_elems : vec;
  static constexpr int round_up(int a) { return (a + halo_unit - 1) / halo_unit * halo_unit; }
  static constexpr int pad_x_lo = round_up(halo_x_lo), pad_x_hi = round_up(halo_x_hi);
  static constexpr int ring_w = tile_w + pad_x_lo + pad_x_hi, ring_h = tile_h + halo_y_lo + halo_y_hi;
  static constexpr int pieces_per_row = ring_w / vec, pieces = ring_h * pieces_per_row;
  static constexpr std::size_t shared_elements = std::size_t(slots) * ring_h * ring_w;
  static_assert(tile_w % vec == 0, "tessera::cuda::pipelined: the tile width must be a multiple of 16 bytes");
  static_assert(line_elems % vec == 0);
  static_assert(Stages >= 1, "tessera::cuda::pipelined: at least one plane in flight");
};


/// pipelined's defaults that depend on the shape (perf/RESULTS.md, "pipelined's defaults"):
/// - tile: 128 x 4 threads x 4 rows; a 3D shape with points off the axis on the planes
///   next to the centre (the 27-point box) reads 3 x 3 rows per output, so its threads
///   take 8 rows each (128 x 2 threads, the same 128 x 16 tile): adjacent outputs share
///   more of those rows. Stars keep 4 rows, and so do shapes reaching further along z
///   (beside a deeper ring, 256-thread blocks leave SMs short of threads);
/// - depth: 2 planes in flight for 3D stars reaching one or two planes along z and for
///   shapes reaching further, 1 for the 27-point box, 4 rows in 2D (a row is a small copy);
/// - planes per block: short chunks (4 or 8 planes) for 3D stars reaching one or two
///   planes along z where an SM holds two blocks or more (pipelined's plan).
template <class S, int BlockX, int BlockY, int RowsPerThread, int Stages>
struct pipelined_defaults {
  static constexpr int march_width = shape_traits<S>::reach_hi[0] - shape_traits<S>::reach_lo[0] + 1;
  static constexpr bool tall_rows = S::rank == 3 && BlockY == 0 && RowsPerThread == 0 && march_width <= 3 &&
                                    !shape_traits<S>::slow_axis_neighbours_on_axis;
  /// 3D stars reaching one or two planes along z.
  static constexpr bool short_chunks =
      S::rank == 3 && shape_traits<S>::slow_axis_neighbours_on_axis && march_width <= 5;
  using tile = pipelined_tile<or_default(BlockX, 128),
                              S::rank == 3 ? (tall_rows ? 2 : or_default(BlockY, 4)) : 1,
                              tall_rows ? 8 : or_default(RowsPerThread, 4),
                              (Stages > 0 ? Stages : S::rank == 2 ? 4 : short_chunks || march_width > 3 ? 2 : 1)>;
};
}  // namespace detail

/// Streaming with a copy pipeline: a BlockX x BlockY block owns a BlockX x (BlockY *
/// RowsPerThread) tile of output columns (RowsPerThread consecutive rows per thread; in
/// 2D one row of BlockX * RowsPerThread columns) and marches along the slowest axis.
/// Whole planes of the tile with their halo arrive in a ring in shared memory by
/// asynchronous 16-byte copies (cp.async), issued Stages planes ahead of use, so the
/// bytes in flight cost shared memory instead of registers; every neighbour is read from
/// the ring. Chunk = planes per block, 0 lets the plan choose. Needs views whose rows are
/// 16-byte aligned (every View built from extents is); rank 2 and 3, every shape. The
/// x-halo is copied in whole 128-byte lines unless the ring is deep. Defaults (0): 128 x
/// 4 threads x 4 rows (3D; 128 x 2 threads x 8 rows for a 3D shape with points off the
/// axis on the planes next to the centre, such as the 27-point box), 128 threads x 4
/// columns (2D); Stages 2 for 3D stars reaching one or two planes along the marching axis
/// (they march in short chunks) and for any shape reaching further, 1 for the other shapes
/// reaching one plane (boxes), 4 in 2D (detail::pipelined_defaults). 2D and 3D stars of
/// radius 1 in 4-byte types run on the point-function mainloop instead, whose tile the same
/// arguments set (pipelined_stencil_tile: 128 x 2 threads x 4 rows, 2D 256 threads x 4
/// columns, 2 planes in flight by default; the ring's x-halo in whole lines).
template <int BlockX = 0, int BlockY = 0, int RowsPerThread = 0, int Stages = 0, int Chunk = 0>
struct pipelined : marching_policy<pipelined<BlockX, BlockY, RowsPerThread, Stages, Chunk>> {
  static std::string name() { return "cuda:pipelined"; }
  using strategy = pipelined<>;
  static constexpr bool automatic_candidate = true;
  /// cuda::automatic's default for stencils no table row knows: the fastest in most measured cases.
  static constexpr bool automatic_default = true;
  /// cuda::automatic runs these point functions here rather than on its point default: 3D,
  /// 4-byte types, at most two fields read one point beyond (the 128 x 2 x 4-row tile), on
  /// grids of 2^24 points or more, where pipelined measured 1.08-1.14x streaming; below, its
  /// blocks' prologues cost more than the ring saves (perf/RESULTS.md, point functions).
  template <class F, class T, int Rank>
  static constexpr bool automatic_points_for = Rank == 3 && sizeof(T) == 4 && F::reach_type::max == 1 &&
                                               detail::staged_fields<typename F::reach_type> <= 2;
  static constexpr std::size_t automatic_points_from = std::size_t{1} << 24;

  template <class S>
  using tile = pipelined_stencil_tile<typename detail::pipelined_defaults<S, BlockX, BlockY, RowsPerThread, Stages>::tile,
                                      BlockX, BlockY, RowsPerThread, Stages>;
  /// Planes each block marches; 0: chosen by the plan.
  static constexpr int planes_per_block = Chunk > 0 ? Chunk : 0;

  /// Point functions: its own mainloop (pipelined/point_function.hpp), every staged field's
  /// rows on 16 bytes; the tile's arguments left 0 are picked for each function by its
  /// reach (detail::point_pipelined_tile).
  template <class T, int Rank>
  using point_mainloop =
      detail::pipelined_points<detail::point_pipelined_tile<T, Rank, BlockX, BlockY, RowsPerThread, Stages>, Chunk>;

  /// 2D and 3D grids (marching_policy refuses 1D).
  template <class S, class T>
  static launch_plan plan_march(const extents<S::rank>& e, const device_limits& lim) {
    if constexpr (detail::pipelined_stencil_on_mainloop<S, T>) {
      launch_plan p = detail::point_pipelined_plan<stencil_function<S, T>, T, S::rank,
                                                   typename tile<S>::template points<T, S::rank>>(e, lim, planes_per_block);
      p.strategy = detail::plan_label<strategy>();
      return p;
    } else {  // pipelined's own kernel
      using t = tile<S>;
      launch_plan p;
      p.strategy = detail::plan_label<strategy>();
      using lay = detail::pipelined_layout<S, T, t::block_x, t::block_y, t::rows_per_thread, t::stages>;
      p.block[0] = t::block_x, p.block[1] = t::block_y, p.block[2] = 1;
      const long long tiles = detail::plane_tiles(e, lay::tile_w, lay::tile_h);
      p.shared_bytes = lay::shared_elements * sizeof(T);
      // A deep ring leaves one block an SM, and its chunk need not shrink to make blocks
      // that cannot run anyway.
      const int resident = p.resident_per_sm = detail::resident_blocks(p, lim);
      // Stars reaching one or two planes along z take short chunks (4, 8 planes) where an
      // SM holds two blocks or more: the resident blocks stay on neighbouring planes (chunk
      // edges hit in L2, DRAM reads a narrow window). With one block an SM nothing hides a
      // block's ring prologue, and short chunks lose (perf/RESULTS.md, "pipelined's defaults").
      constexpr bool short_chunks = detail::pipelined_defaults<S, BlockX, BlockY, RowsPerThread, Stages>::short_chunks;
      const int short_chunk = short_chunks && resident >= 2 ? (lay::reach_planes <= 3 ? 4 : 8) : 0;
      const int chunk =
          planes_per_block > 0 ? planes_per_block
          : short_chunk > 0    ? short_chunk
                               : detail::streaming_chunk(lay::reach_planes - 1, tiles, detail::virtual_extent(e, lay::march),
                                                         resident, lim);
      p.reason = detail::plane_too_large<S>(e, "pipelined");
      return detail::marched(p, e, lay::tile_w, lay::tile_h, chunk, lim);
    }
  }

  /// pipelined copies input rows in 16-byte pieces: every row's interior of `in` must
  /// start on a 16-byte boundary.
  template <class T, int Rank, class Space>
  static std::string view_requirement(const View<T, Rank, Space>& in, const View<T, Rank, Space>&) {
    return detail::rows_on_16_bytes(in, "pipelined copies rows in 16-byte pieces", "cuda::shared_streaming");
  }
};

}  // namespace tessera::cuda
