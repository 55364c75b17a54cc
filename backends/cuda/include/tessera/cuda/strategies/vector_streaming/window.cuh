#pragma once
// vector_streaming's window kernel: z-streaming (2D: y-streaming) in 16-byte vectors, no
// shared memory, for every shape but the 3D stars reaching 3 or more planes along z
// (accumulate.cuh). nvcc only.
//
// Short chunks need a cheap start, so this kernel keeps no ring: a warp owns one row
// segment of 32 vectors (128 floats, 64 doubles), a lane one 16-byte vector of outputs;
//   - the centre vectors of the reach_planes planes the shape reaches along the marching
//     axis stay in registers, and each step loads the plane Depth steps before it is read;
//   - the x-neighbours come from the neighbouring lanes by warp shuffles, one per element
//     a step reads; the warp's edge lanes load the elements beyond the warp (only those a
//     step reads), predicated, with the step's other loads, so their latencies overlap;
//   - the rows at other y offsets (3D) are 16-byte loads that hit L1: they are the
//     neighbouring warps' centre rows.
// Every read of a step is issued before its arithmetic; outputs are summed in the
// shape's declaration order. A pointer advances a plane per step (no 64-bit product per
// load): the kernel is bound by instructions as much as by bytes.
#include "tessera/cuda/strategies/vector_streaming/vector_io.cuh"

namespace tessera::cuda {
namespace kernels {

/// Blocks per SM the register budget is set for: for stars reaching one plane either way
/// (7-point, 2D 5-point), 1536 threads an SM (40 registers: 6 blocks of 256); capping at
/// 2048 threads spills. Wider shapes keep the compiler's choice: capping them spills and
/// runs up to 10x slower (perf/RESULTS.md, "vector_streaming's kernels").
template <class S, int Warps>
inline constexpr int vector_streaming_min_blocks =
    shape_traits<S>::slow_axis_neighbours_on_axis && detail::vshape<S>::width(3 - S::rank) <= 2
        ? 1536 / (32 * Warps)
        : 0;

/// S: the shape; T: the element type; Warps: warps per block (3D: rows; 2D: x-segments of
/// one row); Ahead: planes loaded before the step that first reads them (0: each step
/// loads the plane the next step needs); MinBlocks: __launch_bounds__'s blocks per SM.
template <class S, class T, int Warps, int Ahead, int MinBlocks = vector_streaming_min_blocks<S, Warps>>
__global__ void __launch_bounds__(32 * Warps, MinBlocks)
    vector_streaming_sweep(const params_for<S, T> p, const int chunk) {
  detail::begin_after_previous_grid();  // first: the sweep before may still run
  static_assert(Ahead >= 0, "tessera::cuda::vector_streaming: planes loaded ahead cannot be negative");
  using vs = detail::vshape<S>;
  using vec_t = vec16::vec<T>;
  using rows_of = vector_rows<S>;
  using nb = row_neighbours<S, T, 32>;
  constexpr int vec_elems = vec_t::size;
  constexpr bool has_y = S::rank == 3;
  constexpr int march = 3 - S::rank;  // virtual axis marched along
  constexpr int march_lo = vs::lo(march), march_hi = vs::hi(march), reach_planes = march_hi - march_lo + 1;
  constexpr int y_lo = has_y ? vs::lo(1) : 0, y_hi = has_y ? vs::hi(1) : 0, y_rows = y_hi - y_lo + 1;
  constexpr int x_hi = vs::hi(2);

  const int lane = static_cast<int>(threadIdx.x);
  // 3D: a warp is one row of one x-segment of 32 vectors; 2D: the Warps warps of a block
  // are Warps consecutive x-segments of a row.
  const index_t seg = has_y ? static_cast<index_t>(blockIdx.x)
                            : static_cast<index_t>(blockIdx.x) * Warps + threadIdx.y;
  const index_t y = has_y ? static_cast<index_t>(blockIdx.y) * Warps + threadIdx.y : 0;
  const index_t nx = p.n[2];
  // Whole warps only leave early, so every shuffle finds its partner.
  if (has_y && y >= p.n[1]) return;
  if (seg * 32 * vec_elems >= nx) return;
  const index_t x0 = (seg * 32 + lane) * vec_elems;
  const index_t m0 = static_cast<index_t>(has_y ? blockIdx.z : blockIdx.y) * chunk;
  const int steps = static_cast<int>(min(static_cast<index_t>(chunk), p.n[march] - m0));
  const index_t ms = p.in_stride[march], ys = has_y ? p.in_stride[1] : 0;
  // This lane's vector holds an element some stored output reads; past that it may lie
  // beyond the row (and beyond the allocation on the last row): not read.
  const bool x_live = x0 < nx + x_hi;
  const T* plane = p.in + m0 * ms + y * ys + x0;  // plane m0 + i at step i, row y, this lane's x0
  auto at = [&](int dm, int dy) { return plane + dm * ms + dy * ys; };
  auto load_row = [&](int dm, int dy) { return x_live ? vec16::load(at(dm, dy)) : vec16::zero<T>(); };

  // Centre vectors of planes m + march_lo .. m + march_hi + Ahead: the window the step reads and the
  // planes loaded ahead of it.
  constexpr int held_planes = reach_planes + Ahead;
  vec_t win[held_planes];
#pragma unroll
  for (int d = 0; d < held_planes; ++d)
    win[d] = d < reach_planes || d - reach_planes + 1 < steps ? load_row(march_lo + d, 0) : vec16::zero<T>();

  T* out = p.out + m0 * p.out_stride[march] + (has_y ? y * p.out_stride[1] : 0) + x0;
  const index_t oms = p.out_stride[march];
  for (int i = 0; i < steps; ++i) {
    // Every load of the step first: the plane Ahead + 1 steps ahead, the rows at other y
    // offsets, and, for the warp's edge lanes, the elements just beyond the warp (the
    // other lanes get those by shuffle, after). Issued together, their latencies overlap.
    const vec_t incoming = i + 1 + Ahead < steps ? load_row(march_hi + 1 + Ahead, 0) : vec16::zero<T>();
    vec_t rows[reach_planes][y_rows];
    T beyond[reach_planes][y_rows][nb::lanes_away][vec_elems];  // elements of other lanes' vectors (row_neighbours)
    tessera::detail::static_for<reach_planes>([&](auto a) {
      tessera::detail::static_for<y_rows>([&](auto b) {
        constexpr int plane_i = decltype(a)::value, row_i = decltype(b)::value, dm = plane_i + march_lo,
                      dy = row_i + y_lo;
        if constexpr (dy == 0)
          rows[plane_i][row_i] = win[plane_i];
        else if constexpr (rows_of::used(dm, dy))
          rows[plane_i][row_i] = load_row(dm, dy);
        tessera::detail::static_for<nb::lanes_away>([&](auto c) {
          constexpr int lane_i = decltype(c)::value, off = lane_i + nb::lane_lo;
          if constexpr (off != 0 && rows_of::uses_lane(dm, dy, off, vec_elems)) {
            const bool edge = (lane + off < 0 || lane + off > 31) && x0 + off * vec_elems < nx + x_hi;
            const T* q = at(dm, dy) + off * vec_elems;
            if constexpr (rows_of::elems_used(dm, dy, off, vec_elems) == vec_elems) {
              const vec_t v = edge ? vec16::load(q) : vec16::zero<T>();
#pragma unroll
              for (int e = 0; e < vec_elems; ++e) beyond[plane_i][row_i][lane_i][e] = v.e[e];
            } else {
              // Only the elements a step reads (one float at 7 points): a narrower load
              // and fewer registers held through the step.
              tessera::detail::static_for<vec_elems>([&](auto ee) {
                constexpr int elem_i = decltype(ee)::value;
                if constexpr (rows_of::uses_elem(dm, dy, off, elem_i, vec_elems))
                  beyond[plane_i][row_i][lane_i][elem_i] = edge ? __ldg(q + elem_i) : T(0);
              });
            }
          }
        });
      });
    });
    tessera::detail::static_for<reach_planes>([&](auto a) {
      tessera::detail::static_for<y_rows>([&](auto b) {
        constexpr int plane_i = decltype(a)::value, row_i = decltype(b)::value;
        nb::template shuffle<plane_i + march_lo, row_i + y_lo, false>(beyond[plane_i][row_i], rows[plane_i][row_i],
                                                                      lane);
      });
    });
    T acc[vec_elems];
#pragma unroll
    for (int j = 0; j < vec_elems; ++j) acc[j] = T(0);
    tessera::detail::static_for<vs::size>([&](auto k) {
      constexpr int K = decltype(k)::value;
      constexpr int dm = vs::off(K, march), dy = has_y ? vs::off(K, 1) : 0, dx = vs::off(K, 2);
      tessera::detail::static_for<vec_elems>([&](auto jj) {
        constexpr int j = decltype(jj)::value;
        acc[j] += p.template term<K>(
            nb::template element<j + dx>(rows[dm - march_lo][dy - y_lo], beyond[dm - march_lo][dy - y_lo]));
      });
    });
    T* o = out + i * oms;
    if (x0 + vec_elems <= nx) {
      vec_t result;
#pragma unroll
      for (int j = 0; j < vec_elems; ++j) result.e[j] = acc[j];
      vec16::store_streaming(o, result);  // evict-first: L2 keeps the inputs
    } else {
#pragma unroll
      for (int j = 0; j < vec_elems; ++j)
        if (x0 + j < nx) __stcs(o + j, acc[j]);
    }
#pragma unroll
    for (int d = 0; d + 1 < held_planes; ++d) win[d] = win[d + 1];
    win[held_planes - 1] = incoming;
    plane += ms;
  }
}

}  // namespace kernels
}  // namespace tessera::cuda
