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
struct shared_streaming : device_policy {
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

  template <class S>
  static constexpr bool has_kernel = S::rank >= 2;

  template <class S, class T>
  static launch_plan plan(const extents<S::rank>& e, const device_limits& lim) {
    using t = tile<S>;
    launch_plan p;
    p.strategy = "shared_streaming";
    if constexpr (S::rank == 1) {
      return detail::refuse_1d_marching(p);
    } else {
      using lay = detail::shared_streaming_layout<S, t::block_x, t::block_y, t::rows_per_thread>;
      p.block[0] = t::block_x, p.block[1] = t::block_y, p.block[2] = 1;
      const int chunk = planes_per_block > 0
                            ? planes_per_block
                            : detail::streaming_chunk(detail::virtual_reach<S>::width(lay::march),
                                                      detail::plane_tiles(e, lay::tile_w, lay::tile_h),
                                                      detail::virtual_extent(e, lay::march), 1024 / p.threads(), lim);
      p.shared_bytes = lay::shared_elements * sizeof(T);
      p.reason = detail::plane_too_large<S>(e, "shared_streaming");
      return detail::marched(p, e, lay::tile_w, lay::tile_h, chunk, lim);
    }
  }

  template <class S, class T, class Tile>
  static void launch(const launch_plan& plan, const params_for<S, T>& p, cudaStream_t stream);
};

}  // namespace tessera::cuda

#if defined(__CUDACC__)
#include "tessera/cuda/kernels/marching.cuh"

namespace tessera::cuda {
namespace kernels {

/// The compile-time geometry of a shared_streaming block for shape S: the plan's layout
/// (detail::shared_streaming_layout) plus the halo the block loads per plane.
template <class S, int BlockX, int BlockY, int RowsPerThread>
struct shared_streaming_geometry : detail::shared_streaming_layout<S, BlockX, BlockY, RowsPerThread> {
  using L = detail::shared_streaming_layout<S, BlockX, BlockY, RowsPerThread>;
  using vs = detail::vshape<S>;
  using L::halo_x_hi, L::halo_x_lo, L::halo_y_hi, L::halo_y_lo, L::ring_w, L::tile_w, L::tile_h, L::size;
  static constexpr int march = L::march, march_lo = vs::lo(march), march_hi = vs::hi(march),
                       planes = vs::width(march) + 1;
  // Corners of the halo frame are needed only by points off both in-plane axes.
  static constexpr bool corners = [] {
    for (int k = 0; k < size; ++k)
      if (L::dx(k) != 0 && L::dy(k) != 0) return true;
    return false;
  }();
  static constexpr int row_w = corners ? ring_w : tile_w;  // width of a top/bottom halo row
  static constexpr int halo = (halo_y_lo + halo_y_hi) * row_w + tile_h * (halo_x_lo + halo_x_hi);
  static constexpr int threads = BlockX * BlockY;
  static constexpr int halo_per_thread = (halo + threads - 1) / threads;
  /// Tile coordinates of a thread's r-th column: 3D, rows ty + r * BlockY of column tx (whole
  /// warps read a row); 2D, the single row's columns tx + r * BlockX.
  __device__ static constexpr int col_y(int tx, int ty, int r) { return L::has_y ? ty + r * BlockY : 0; }
  __device__ static constexpr int col_x(int tx, int ty, int r) { return L::has_y ? tx : tx + r * BlockX; }

  /// Tile coordinates (row, column; the interior is [0, tile_h) x [0, tile_w)) of halo cell h.
  __device__ static void halo_cell(int h, int& hy, int& hx) {
    const int x0 = corners ? -halo_x_lo : 0;
    if (h < halo_y_lo * row_w) {
      hy = -halo_y_lo + h / row_w, hx = x0 + h % row_w;
      return;
    }
    h -= halo_y_lo * row_w;
    if (h < halo_y_hi * row_w) {
      hy = tile_h + h / row_w, hx = x0 + h % row_w;
      return;
    }
    h -= halo_y_hi * row_w;
    if (halo_x_lo > 0 && h < tile_h * halo_x_lo) {
      hy = h / (halo_x_lo > 0 ? halo_x_lo : 1), hx = -halo_x_lo + h % (halo_x_lo > 0 ? halo_x_lo : 1);
      return;
    }
    h -= tile_h * halo_x_lo;
    hy = h / (halo_x_hi > 0 ? halo_x_hi : 1), hx = tile_w + h % (halo_x_hi > 0 ? halo_x_hi : 1);
  }
};

/// Resident blocks per SM the register budget must allow: half the thread slots, or a
/// quarter when the window of a wide shape needs many registers per thread.
template <class S, int BlockX, int BlockY, int RowsPerThread>
constexpr int shared_streaming_min_blocks() {
  constexpr int threads = BlockX * BlockY;
  constexpr int per_sm = (marching<S>::planes + 1) * RowsPerThread >= 24 || shape_traits<S>::size > 27 ? 512 : 1024;
  return threads >= per_sm ? 1 : per_sm / threads;
}

/// S: the shape; T: the element type; BlockX x BlockY: the block; RowsPerThread: output
/// columns each thread owns (rows strided by BlockY in 3D); the planes per block are the
/// `chunk` argument.
template <class S, class T, int BlockX, int BlockY, int RowsPerThread>
__global__ void __launch_bounds__(BlockX * BlockY, (shared_streaming_min_blocks<S, BlockX, BlockY, RowsPerThread>()))
    shared_streaming_sweep(const params_for<S, T> p, const int chunk) {
  detail::begin_after_previous_grid();  // first: the sweep before may still run
  using g = shared_streaming_geometry<S, BlockX, BlockY, RowsPerThread>;
  using mg = marching<S>;
  constexpr int march = g::march, march_lo = g::march_lo, march_hi = g::march_hi, planes = g::planes, slots = g::slots;
  constexpr int ring_w = g::ring_w, plane_size = g::ring_h * g::ring_w;
  extern __shared__ unsigned char tessera_shared[];
  T* ring = reinterpret_cast<T*>(tessera_shared);  // [slots][ring_h][ring_w]

  const int tx = threadIdx.x, ty = mg::has_y ? threadIdx.y : 0;
  const index_t x0 = static_cast<index_t>(blockIdx.x) * g::tile_w;
  const index_t y0 = mg::has_y ? static_cast<index_t>(blockIdx.y) * g::tile_h : 0;
  const index_t m0 = static_cast<index_t>(mg::has_y ? blockIdx.z : blockIdx.y) * chunk;
  const index_t m_end = min(m0 + chunk, p.n[march]);
  const index_t ms = p.in_stride[march], oms = p.out_stride[march];
  const index_t ys = mg::has_y ? p.in_stride[1] : 0, oys = mg::has_y ? p.out_stride[1] : 0;
  const index_t nx = p.n[2], ny = mg::has_y ? p.n[1] : 1;

  // This thread's RowsPerThread columns (tile coordinates col_y, col_x): in-plane offsets, whether
  // they are read (inside the grid's reach) and written (inside the grid). In-plane
  // offsets are 32-bit (the plan refuses planes beyond that): half the registers of
  // 64-bit ones, which keeps the 7-point kernel under its 64-register budget unspilled.
  int col_off[RowsPerThread], out_off[RowsPerThread];
  bool col_loads[RowsPerThread], col_writes[RowsPerThread];
#pragma unroll
  for (int r = 0; r < RowsPerThread; ++r) {
    const index_t gy = y0 + g::col_y(tx, ty, r), gx = x0 + g::col_x(tx, ty, r);
    col_off[r] = static_cast<int>(gy * ys + gx);
    out_off[r] = static_cast<int>(gy * oys + gx);
    col_loads[r] = gx < nx + g::halo_x_hi && gy < ny + g::halo_y_hi;
    col_writes[r] = gx < nx && gy < ny;
  }
  // The halo cells this thread loads: in-plane offset and shared-memory index.
  constexpr int halo_regs = g::halo_per_thread > 0 ? g::halo_per_thread : 1;
  int halo_off[halo_regs];
  int halo_at[halo_regs];
  bool halo_loads[halo_regs];
  const int me = ty * BlockX + tx;
#pragma unroll
  for (int j = 0; j < g::halo_per_thread; ++j) {
    const int h = me + j * g::threads;
    int hy = 0, hx = 0;
    if (h < g::halo) g::halo_cell(h, hy, hx);
    const index_t gy = y0 + hy, hgx = x0 + hx;
    halo_off[j] = static_cast<int>(gy * ys + hgx);
    halo_at[j] = (hy + g::halo_y_lo) * ring_w + hx + g::halo_x_lo;
    halo_loads[j] = h < g::halo && hgx < nx + g::halo_x_hi && gy < ny + g::halo_y_hi;
  }
  // Plane m + d lives in slot (i + d - ring_lo) mod slots, i = m - m0; `step` is i mod slots.
  auto slot_of = [&](int step, int d) { return (step + d - g::ring_lo) % slots * plane_size; };
  auto at = [&](int r) { return (g::col_y(tx, ty, r) + g::halo_y_lo) * ring_w + g::col_x(tx, ty, r) + g::halo_x_lo; };

  // window[j][r] = input at plane m + march_lo + j of column r; window[planes] is the next step's
  // plane, requested before this step's compute so the load is in flight meanwhile.
  // The window shifts rather than rotating through an unrolled loop, and holds one plane
  // in flight, not two: both alternatives cost registers (perf/RESULTS.md,
  // "shared_streaming's kernel").
  T window[planes + 1][RowsPerThread];
  T halo_next[halo_regs];
#pragma unroll
  for (int j = 0; j < planes; ++j)
#pragma unroll
    for (int r = 0; r < RowsPerThread; ++r)
      window[j][r] = col_loads[r] ? __ldg(p.in + (m0 + march_lo + j) * ms + col_off[r]) : T(0);
  // Ring planes m0 + ring_lo .. m0 + ring_hi - 1 now; step m stores plane m + ring_hi.
#pragma unroll
  for (int d = g::ring_lo; d < g::ring_hi; ++d) {
    const int slot = slot_of(0, d);
#pragma unroll
    for (int r = 0; r < RowsPerThread; ++r) ring[slot + at(r)] = window[d - march_lo][r];
#pragma unroll
    for (int j = 0; j < g::halo_per_thread; ++j)
      if (me + j * g::threads < g::halo)
        ring[slot + halo_at[j]] = halo_loads[j] ? __ldg(p.in + (m0 + d) * ms + halo_off[j]) : T(0);
  }
#pragma unroll
  for (int j = 0; j < g::halo_per_thread; ++j)
    halo_next[j] = halo_loads[j] ? __ldg(p.in + (m0 + g::ring_hi) * ms + halo_off[j]) : T(0);

  for (index_t m = m0; m < m_end; ++m) {
    const int i = static_cast<int>((m - m0) % slots);
    const bool more = m + 1 < m_end;
#pragma unroll
    for (int r = 0; r < RowsPerThread; ++r)
      window[planes][r] = more && col_loads[r] ? __ldg(p.in + (m + march_hi + 1) * ms + col_off[r]) : T(0);
    // Plane m + ring_hi enters the ring: interior from the window, halo prefetched last step.
    const int slot_in = slot_of(i, g::ring_hi);
#pragma unroll
    for (int r = 0; r < RowsPerThread; ++r) ring[slot_in + at(r)] = window[g::ring_hi - march_lo][r];
#pragma unroll
    for (int j = 0; j < g::halo_per_thread; ++j)
      if (me + j * g::threads < g::halo) ring[slot_in + halo_at[j]] = halo_next[j];
#pragma unroll
    for (int j = 0; j < g::halo_per_thread; ++j)
      halo_next[j] = more && halo_loads[j] ? __ldg(p.in + (m + g::ring_hi + 1) * ms + halo_off[j]) : T(0);
    __syncthreads();

#pragma unroll
    for (int r = 0; r < RowsPerThread; ++r) {
      T acc = 0;
      const int c = at(r);
      tessera::detail::static_for<g::size>([&](auto k) {
        constexpr int K = decltype(k)::value;
        constexpr int dm = mg::dm(K), dy = mg::dy(K), dx = mg::dx(K);
        if constexpr (g::on_axis(K))
          acc += p.template term<K>(window[dm - march_lo][r]);
        else
          acc += p.template term<K>(ring[slot_of(i, dm) + c + dy * ring_w + dx]);
      });
      if (col_writes[r]) p.out[m * oms + out_off[r]] = acc;
    }
#pragma unroll
    for (int j = 0; j < planes; ++j)
#pragma unroll
      for (int r = 0; r < RowsPerThread; ++r) window[j][r] = window[j + 1][r];
  }
}

}  // namespace kernels

template <int BlockX, int BlockY, int RowsPerThread, int Chunk>
template <class S, class T, class Tile>
void shared_streaming<BlockX, BlockY, RowsPerThread, Chunk>::launch(const launch_plan& plan, const params_for<S, T>& p,
                                                                     cudaStream_t stream) {
  detail::launch_kernel_after_previous(
      &kernels::shared_streaming_sweep<S, T, Tile::block_x, Tile::block_y, Tile::rows_per_thread>,
      "shared_streaming_sweep", name(), shape_name<S>(), plan, dim3(Tile::block_x, Tile::block_y, 1),
      plan.shared_bytes, stream, p, plan.chunk);
}

}  // namespace tessera::cuda
#endif
