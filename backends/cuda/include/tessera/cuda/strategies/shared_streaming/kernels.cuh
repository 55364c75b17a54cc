#pragma once
// cuda::shared_streaming's kernel (nvcc only): a ring of halo-padded planes in shared
// memory, several output columns a thread, the block marching the slowest axis.
#include "tessera/cuda/strategies/shared_streaming.hpp"
#include "tessera/cuda/kernels/marching.cuh"
#include "tessera/cuda/point_function_ring.cuh"

namespace tessera::cuda::kernels {

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

}  // namespace tessera::cuda::kernels

namespace tessera::cuda {

template <class S, class T, class Tile>
void launch_sweep(shared_streaming<>, sweep_of<S, T, Tile>, const launch_plan& plan, const params_for<S, T>& p,
                  cudaStream_t stream) {
  detail::launch_kernel_after_previous(
      &kernels::shared_streaming_sweep<S, T, Tile::block_x, Tile::block_y, Tile::rows_per_thread>,
      "shared_streaming_sweep", shared_streaming<>::name(), shape_name<S>(), plan, dim3(Tile::block_x, Tile::block_y, 1),
      plan.shared_bytes, stream, p, plan.chunk);
}

}  // namespace tessera::cuda
