#pragma once
// cuda::shared_streaming: z-streaming (2D: y-streaming) built to run at the memory roofline.
//
// A block of BlockX x BlockY threads owns a BlockX x (BlockY * RowsPerThread) tile of
// output columns (each thread RowsPerThread rows, strided by BlockY so every row of the
// tile is read by whole warps; in 2D one row of BlockX * RowsPerThread columns) and
// marches `chunk` planes along the slowest axis. Per step, for plane m:
//   - every input byte crosses from L2 once per block: each thread holds its columns'
//     reach along the marching axis in registers (the window) and loads one new plane of
//     it, issued a step before it is used so loads are in flight during the compute;
//   - the in-plane neighbours come from shared memory: the window's centre values and the
//     tile's halo (prefetched into registers one step ahead, like the window) are stored
//     in a ring of planes, read after a single __syncthreads;
//   - shapes with points off the marching axis in other planes (boxes) keep those planes
//     in the ring too: plane m + d is stored once, when it enters, and read for as long
//     as some point needs it.
// The ring has one plane more than the shape needs at once, so the plane being written
// was last read two steps ago and one barrier per step separates the two.
// Unlike cuda::streaming, no neighbour load depends on L1 keeping a line another warp
// brought in: L2 sees the tile plus its halo per plane and nothing else.
#include "tessera/cuda/point_function_ring.hpp"
#include "tessera/cuda/strategy.hpp"

namespace tessera::cuda {

/// shared_streaming's compiled configuration (the planes per block are chosen at launch).
template <int BlockX, int BlockY, int RowsPerThread>
struct shared_streaming_tile {
  static constexpr int block_x = BlockX;                  ///< threads along x
  static constexpr int block_y = BlockY;                  ///< threads along y (1 in 2D)
  static constexpr int rows_per_thread = RowsPerThread;  ///< outputs each thread computes per plane
};

namespace detail {
/// The shared-memory layout of a shared_streaming block (host and device constexpr): a
/// ring of `slots` planes, each the ring_h x ring_w tile with its in-plane halo. Planes m + d for
/// ring_lo <= d <= ring_hi are read by off-axis points; one slot more lets a single barrier per
/// step separate the writer of a slot from its last readers.
template <class S, int BlockX, int BlockY, int RowsPerThread>
struct shared_streaming_layout {
  static constexpr int rank = S::rank;
  static constexpr int march = 3 - rank;  // virtual axis marched along
  static constexpr bool has_y = rank == 3;
  using r = virtual_reach<S>;
  static constexpr int off(int k, int v) { return r::axis(v) < 0 ? 0 : S::points[k][r::axis(v)]; }
  static constexpr int dm(int k) { return off(k, march); }
  static constexpr int dy(int k) { return has_y ? off(k, 1) : 0; }
  static constexpr int dx(int k) { return off(k, 2); }
  static constexpr int size = shape_traits<S>::size;
  static constexpr bool on_axis(int k) { return dx(k) == 0 && dy(k) == 0; }
  // Tile: 3D, BlockX columns x BlockY * RowsPerThread rows; 2D, one row of BlockX * RowsPerThread columns.
  static constexpr int tile_w = has_y ? BlockX : BlockX * RowsPerThread, tile_h = has_y ? BlockY * RowsPerThread : 1;
  static constexpr int halo_x_lo = -r::lo(2), halo_x_hi = r::hi(2);
  static constexpr int halo_y_lo = has_y ? -r::lo(1) : 0, halo_y_hi = has_y ? r::hi(1) : 0;
  static constexpr int ring_w = tile_w + halo_x_lo + halo_x_hi, ring_h = tile_h + halo_y_lo + halo_y_hi;
  static constexpr int ring_lo = [] {
    int d = 0;
    for (int k = 0; k < size; ++k)
      if (!on_axis(k) && dm(k) < d) d = dm(k);
    return d;
  }();
  static constexpr int ring_hi = [] {
    int d = 0;
    for (int k = 0; k < size; ++k)
      if (!on_axis(k) && dm(k) > d) d = dm(k);
    return d;
  }();
  static constexpr int slots = ring_hi - ring_lo + 2;
  static constexpr std::size_t shared_elements = std::size_t(slots) * ring_h * ring_w;
};
}  // namespace detail

/// Streaming at the roofline: a BlockX x BlockY block owns a BlockX x (BlockY *
/// RowsPerThread) tile of output columns (RowsPerThread rows per thread, strided by
/// BlockY) and marches along the slowest axis. The columns' neighbours along that axis
/// stay in registers; the tile's plane with its halo (and, for shapes with off-axis
/// points in other planes, those planes too) is kept in a ring in shared memory; the next
/// plane's loads are issued before the current one is computed. Every input element
/// crosses from L2 once per block plus the tile's halo. Rank 2 and 3, every shape. Chunk
/// = planes per block; 0 lets the plan choose (long enough to amortise the reach along
/// the marching axis, short enough to fill the device). In 2D a block of BlockX threads
/// owns one row of BlockX * RowsPerThread columns. Defaults (0): 128 x 4 threads x 4 rows
/// in 3D (a 128 x 16 tile), 128 threads x 4 columns in 2D (measured: perf/RESULTS.md).
template <int BlockX = 0, int BlockY = 0, int RowsPerThread = 0, int Chunk = 0>
struct shared_streaming : marching_policy<shared_streaming<BlockX, BlockY, RowsPerThread, Chunk>> {
  static std::string name() { return "cuda:shared-streaming"; }
  using strategy = shared_streaming<>;
  static constexpr bool automatic_candidate = true;
  /// cuda::automatic's first fallback where its choice cannot run on the views: no row
  /// alignment asked, a ring smaller than pipelined's.
  static constexpr int automatic_fallback = 1;

  template <class S>
  using tile = shared_streaming_tile<detail::or_default(BlockX, 128), S::rank == 3 ? detail::or_default(BlockY, 4) : 1,
                                     detail::or_default(RowsPerThread, 4)>;
  /// Planes each block marches; 0: chosen by the plan.
  static constexpr int planes_per_block = Chunk > 0 ? Chunk : 0;

  /// Point functions: 2.5D rings of planes, loads a step ahead. Defaults (0): 32 x 8
  /// threads x 2 rows in 3D (32 x 4 x 2 for 8-byte types: a deep ring of doubles), 128 threads
  /// x 2 columns in 2D.
  template <class T, int Rank>
  using point_mainloop = detail::ring_points<
      shared_streaming<>,
      detail::point_ring_tile<(BlockX > 0 ? BlockX : Rank == 3 ? 32 : 128),
                              (Rank == 3 ? (BlockY > 0 ? BlockY : sizeof(T) >= 8 ? 4 : 8) : 1),
                              (RowsPerThread > 0 ? RowsPerThread : 2), true, Chunk>>;

  /// 2D and 3D grids (marching_policy refuses 1D).
  template <class S, class T>
  static launch_plan plan_march(const extents<S::rank>& e, const device_limits& lim) {
    using t = tile<S>;
    launch_plan p;
    p.strategy = detail::plan_label<strategy>();
    using lay = detail::shared_streaming_layout<S, t::block_x, t::block_y, t::rows_per_thread>;
    p.block[0] = t::block_x, p.block[1] = t::block_y, p.block[2] = 1;
    p.shared_bytes = lay::shared_elements * sizeof(T);
    // before the driver answers, about 64 registers a thread (the columns' window and the
    // next plane in flight): two 512-thread blocks an SM
    const int chunk = planes_per_block > 0
                          ? planes_per_block
                          : detail::streaming_chunk(detail::virtual_reach<S>::width(lay::march),
                                                    detail::plane_tiles(e, lay::tile_w, lay::tile_h),
                                                    detail::virtual_extent(e, lay::march),
                                                    p.resident_per_sm = detail::resident_blocks(p, lim, 64), lim);
    p.reason = detail::plane_too_large<S>(e, "shared_streaming");
    return detail::marched(p, e, lay::tile_w, lay::tile_h, chunk, lim);
  }
};

}  // namespace tessera::cuda
