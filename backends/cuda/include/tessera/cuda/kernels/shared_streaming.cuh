#pragma once
// shared_streaming: z-streaming (2D: y-streaming) built to run at the memory roofline.
//
// A block of BX x BY threads owns a BX x (BY * RY) tile of output columns (each thread
// RY rows, strided by BY so every row of the tile is read by whole warps; in 2D one row
// of BX * RY columns) and marches `chunk` planes along the slowest axis. Per step, for
// plane m:
//   - every input byte crosses from L2 once per block: each thread holds its RY columns'
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
#include "tessera/cuda/kernels/coarsened.cuh"

namespace tessera::cuda {
namespace kernels {

/// The compile-time geometry of a shared_streaming block for shape S: the plan's layout
/// (plan.hpp) plus the halo the block loads per plane.
template <class S, int BX, int BY, int RY>
struct ss_geometry : detail::shared_streaming_layout<S, BX, BY, RY> {
  using L = detail::shared_streaming_layout<S, BX, BY, RY>;
  using vs = detail::vshape<S>;
  using L::RXH, L::RXL, L::RYH, L::RYL, L::SW, L::TX, L::TY, L::size;
  static constexpr int M = L::march, LO = vs::lo(M), HI = vs::hi(M), P = vs::width(M) + 1;
  // Corners of the halo frame are needed only by points off both in-plane axes.
  static constexpr bool corners = [] {
    for (int k = 0; k < size; ++k)
      if (L::dx(k) != 0 && L::dy(k) != 0) return true;
    return false;
  }();
  static constexpr int row_w = corners ? SW : TX;  // width of a top/bottom halo row
  static constexpr int halo = (RYL + RYH) * row_w + TY * (RXL + RXH);
  static constexpr int threads = BX * BY;
  static constexpr int halo_per_thread = (halo + threads - 1) / threads;
  /// Tile coordinates of a thread's r-th column: 3D, rows ty + r * BY of column tx (whole
  /// warps read a row); 2D, the single row's columns tx + r * BX.
  __device__ static constexpr int col_y(int tx, int ty, int r) { return L::has_y ? ty + r * BY : 0; }
  __device__ static constexpr int col_x(int tx, int ty, int r) { return L::has_y ? tx : tx + r * BX; }

  /// Tile coordinates (row, column; the interior is [0, TY) x [0, TX)) of halo cell h.
  __device__ static void halo_cell(int h, int& hy, int& hx) {
    const int x0 = corners ? -RXL : 0;
    if (h < RYL * row_w) {
      hy = -RYL + h / row_w, hx = x0 + h % row_w;
      return;
    }
    h -= RYL * row_w;
    if (h < RYH * row_w) {
      hy = TY + h / row_w, hx = x0 + h % row_w;
      return;
    }
    h -= RYH * row_w;
    if (RXL > 0 && h < TY * RXL) {
      hy = h / (RXL > 0 ? RXL : 1), hx = -RXL + h % (RXL > 0 ? RXL : 1);
      return;
    }
    h -= TY * RXL;
    hy = h / (RXH > 0 ? RXH : 1), hx = TX + h % (RXH > 0 ? RXH : 1);
  }
};

/// Resident blocks per SM the register budget must allow: half the thread slots, or a
/// quarter when the window of a wide shape needs many registers per thread.
template <class S, int BX, int BY, int RY>
constexpr int ss_min_blocks() {
  constexpr int threads = BX * BY;
  constexpr int per_sm = (marching<S>::planes + 1) * RY >= 24 || shape_traits<S>::size > 27 ? 512 : 1024;
  return threads >= per_sm ? 1 : per_sm / threads;
}

template <class S, class T, int BX, int BY, int RY>
__global__ void __launch_bounds__(BX * BY, (ss_min_blocks<S, BX, BY, RY>()))
    shared_streaming_sweep(const params_for<S, T> p, const int chunk) {
  using g = ss_geometry<S, BX, BY, RY>;
  using mg = marching<S>;
  constexpr int M = g::M, LO = g::LO, HI = g::HI, P = g::P, NS = g::slots;
  constexpr int SW = g::SW, PLANE = g::SH * g::SW;
  extern __shared__ unsigned char tessera_shared[];
  T* ring = reinterpret_cast<T*>(tessera_shared);  // [NS][SH][SW]

  const int tx = threadIdx.x, ty = mg::has_y ? threadIdx.y : 0;
  const index_t x0 = static_cast<index_t>(blockIdx.x) * g::TX;
  const index_t y0 = mg::has_y ? static_cast<index_t>(blockIdx.y) * g::TY : 0;
  const index_t m0 = static_cast<index_t>(mg::has_y ? blockIdx.z : blockIdx.y) * chunk;
  const index_t m_end = min(m0 + chunk, p.n[M]);
  const index_t ms = p.in_stride[M], oms = p.out_stride[M];
  const index_t ys = mg::has_y ? p.in_stride[1] : 0, oys = mg::has_y ? p.out_stride[1] : 0;
  const index_t nx = p.n[2], ny = mg::has_y ? p.n[1] : 1;

  // This thread's RY columns (tile coordinates col_y, col_x): in-plane offsets, whether
  // they are read (inside the grid's reach) and written (inside the grid). In-plane
  // offsets are 32-bit (the plan refuses planes beyond that): half the registers of
  // 64-bit ones, which keeps the 7-point kernel under its 64-register budget unspilled.
  int col_off[RY], out_off[RY];
  bool col_loads[RY], col_writes[RY];
#pragma unroll
  for (int r = 0; r < RY; ++r) {
    const index_t gy = y0 + g::col_y(tx, ty, r), gx = x0 + g::col_x(tx, ty, r);
    col_off[r] = static_cast<int>(gy * ys + gx);
    out_off[r] = static_cast<int>(gy * oys + gx);
    col_loads[r] = gx < nx + g::RXH && gy < ny + g::RYH;
    col_writes[r] = gx < nx && gy < ny;
  }
  // The halo cells this thread loads: in-plane offset and shared-memory index.
  constexpr int NH = g::halo_per_thread > 0 ? g::halo_per_thread : 1;
  int halo_off[NH];
  int halo_at[NH];
  bool halo_loads[NH];
  const int me = ty * BX + tx;
#pragma unroll
  for (int j = 0; j < g::halo_per_thread; ++j) {
    const int h = me + j * g::threads;
    int hy = 0, hx = 0;
    if (h < g::halo) g::halo_cell(h, hy, hx);
    const index_t gy = y0 + hy, hgx = x0 + hx;
    halo_off[j] = static_cast<int>(gy * ys + hgx);
    halo_at[j] = (hy + g::RYL) * SW + hx + g::RXL;
    halo_loads[j] = h < g::halo && hgx < nx + g::RXH && gy < ny + g::RYH;
  }
  // Plane m + d lives in slot (i + d - DLO) mod NS, i = m - m0; `step` is i mod NS.
  auto slot_of = [&](int step, int d) { return (step + d - g::DLO) % NS * PLANE; };
  auto at = [&](int r) { return (g::col_y(tx, ty, r) + g::RYL) * SW + g::col_x(tx, ty, r) + g::RXL; };

  // window[j][r] = input at plane m + LO + j of column r; window[P] is the next step's
  // plane, requested before this step's compute so the load is in flight meanwhile.
  // (Measured on an H100: unrolling the loop so the window rotates instead of shifting
  // saved nothing at 7 points and cost 20% at 13 and 25 points; a second plane in flight
  // spilled registers in fp64. See perf/RESULTS.md.)
  T window[P + 1][RY];
  T halo_next[NH];
#pragma unroll
  for (int j = 0; j < P; ++j)
#pragma unroll
    for (int r = 0; r < RY; ++r)
      window[j][r] = col_loads[r] ? __ldg(p.in + (m0 + LO + j) * ms + col_off[r]) : T(0);
  // Ring planes m0 + DLO .. m0 + DHI - 1 now; step m stores plane m + DHI.
#pragma unroll
  for (int d = g::DLO; d < g::DHI; ++d) {
    const int slot = slot_of(0, d);
#pragma unroll
    for (int r = 0; r < RY; ++r) ring[slot + at(r)] = window[d - LO][r];
#pragma unroll
    for (int j = 0; j < g::halo_per_thread; ++j)
      if (me + j * g::threads < g::halo)
        ring[slot + halo_at[j]] = halo_loads[j] ? __ldg(p.in + (m0 + d) * ms + halo_off[j]) : T(0);
  }
#pragma unroll
  for (int j = 0; j < g::halo_per_thread; ++j)
    halo_next[j] = halo_loads[j] ? __ldg(p.in + (m0 + g::DHI) * ms + halo_off[j]) : T(0);

  for (index_t m = m0; m < m_end; ++m) {
    const int i = static_cast<int>((m - m0) % NS);
    const bool more = m + 1 < m_end;
#pragma unroll
    for (int r = 0; r < RY; ++r)
      window[P][r] = more && col_loads[r] ? __ldg(p.in + (m + HI + 1) * ms + col_off[r]) : T(0);
    // Plane m + DHI enters the ring: interior from the window, halo prefetched last step.
    const int slot_in = slot_of(i, g::DHI);
#pragma unroll
    for (int r = 0; r < RY; ++r) ring[slot_in + at(r)] = window[g::DHI - LO][r];
#pragma unroll
    for (int j = 0; j < g::halo_per_thread; ++j)
      if (me + j * g::threads < g::halo) ring[slot_in + halo_at[j]] = halo_next[j];
#pragma unroll
    for (int j = 0; j < g::halo_per_thread; ++j)
      halo_next[j] = more && halo_loads[j] ? __ldg(p.in + (m + g::DHI + 1) * ms + halo_off[j]) : T(0);
    __syncthreads();

#pragma unroll
    for (int r = 0; r < RY; ++r) {
      T acc = 0;
      const int c = at(r);
      tessera::detail::static_for<g::size>([&](auto k) {
        constexpr int K = decltype(k)::value;
        constexpr int dm = mg::dm(K), dy = mg::dy(K), dx = mg::dx(K);
        if constexpr (g::on_axis(K))
          acc += p.c[K] * window[dm - LO][r];
        else
          acc += p.c[K] * ring[slot_of(i, dm) + c + dy * SW + dx];
      });
      if (col_writes[r]) p.out[m * oms + out_off[r]] = acc;
    }
#pragma unroll
    for (int j = 0; j < P; ++j)
#pragma unroll
      for (int r = 0; r < RY; ++r) window[j][r] = window[j + 1][r];
  }
}

}  // namespace kernels

template <class S, class T, int BX, int BY, int RY, int Chunk>
void launch_tiles(shared_streaming<>, const launch_plan& plan, const params_for<S, T>& p, cudaStream_t stream) {
  static_assert(S::rank >= 2, "tessera::cuda::shared_streaming needs a 2D or 3D shape");
  const dim3 block(BX, BY, 1), grid = detail::grid_of(plan);
  const std::string name = shared_streaming<>::name();
  const void* k = reinterpret_cast<const void*>(&kernels::shared_streaming_sweep<S, T, BX, BY, RY>);
  if (plan.needs_shared_opt_in) detail::allow_shared_bytes(k, plan.shared_bytes, name);
  kernels::shared_streaming_sweep<S, T, BX, BY, RY><<<grid, block, plan.shared_bytes, stream>>>(p, plan.chunk);
  detail::finish_launch("shared_streaming_sweep", name, shape_name<S>(), plan, block, grid);
}

}  // namespace tessera::cuda
