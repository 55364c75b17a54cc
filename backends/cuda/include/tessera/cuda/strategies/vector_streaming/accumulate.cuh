#pragma once
// vector_streaming's accumulating kernel, for 3D stars reaching 3 or more planes along z
// (19- and 25-point): z-streaming by accumulation, in 16-byte vectors, no shared memory.
// nvcc only.
//
// Why: the window kernel (window.cuh) keeps the reach_planes planes of a lane's column in
// registers and loads each plane once, reach_planes steps before the last step that reads
// it; the rows at other y offsets that a warp reads are its neighbours' rows of the
// step's own plane, loaded by those warps reach_planes / 2 steps earlier. At 25 points L1
// no longer holds them that long, and L2 becomes the limit. Here a step reads one plane
// p, the newest, and adds what it contributes to the outputs p - march_hi .. p -
// march_lo, held as partial sums; the oldest is then complete and stored. The rows a
// block's warps read of each other lie in plane p, which every warp reads in the same
// step (its own row one step ahead, in registers), so they hit L1. And a warp holds
// RowsPerWarp rows of 32 / RowsPerWarp lanes (2: 2 rows of 64 floats; a block of 4 warps
// 8 rows), so a block reads 8 rows beyond it in y for 8 rows of outputs instead of for 4
// (perf/RESULTS.md, "vector_streaming's kernels").
//   - the partial sums are reach_planes vectors of registers, shifted a step (the window
//     kernel's count); the own row of the next Ahead planes is loaded ahead;
//   - the x-neighbours: in warps whose vectors all hold outputs, a neighbouring lane's
//     vector that a step reads whole (the x-reach is at least a vector) is loaded from
//     L1 (the row is the warp's own); otherwise shuffled as in the window kernel, the
//     edge lanes loading the elements beyond the row segment;
//   - the edge lanes' lines beyond the segment (another block's row or the ghosts: no
//     warp of this block loads them) are prefetched into L1 Prefetch planes ahead.
//     Prefetching the other rows too (own, beyond the block in y) makes L2 serve more
//     sectors, not fewer.
// Outputs are summed in a different order than the shape declares (column points of
// earlier planes first), so results differ from host::serial by rounding only.
#include <type_traits>

#include "tessera/cuda/strategies/vector_streaming/vector_io.cuh"

namespace tessera::cuda {
namespace kernels {

/// Brings the line holding p into L1 without a register.
__device__ inline void prefetch_l1(const void* p) { asm volatile("prefetch.global.L1 [%0];" ::"l"(p)); }

/// S: the shape (a 3D star); T: the element type; Warps: warps a block; RowsPerWarp: rows
/// a warp holds (1, 2 or 4); Ahead: planes of the own row loaded ahead (at most the shape's
/// reach along z: those planes exist); MinBlocks: __launch_bounds__'s blocks per SM;
/// Prefetch: planes ahead the edge lines are prefetched (0: none; at most the reach).
template <class S, class T, int Warps, int RowsPerWarp, int Ahead, int MinBlocks, int Prefetch>
__global__ void __launch_bounds__(32 * Warps, MinBlocks)
    vector_accumulate_sweep(const params_for<S, T> p, const int chunk) {
  detail::begin_after_previous_grid();  // first: the sweep before may still run
  static_assert(S::rank == 3 && accumulates_by_column<S>, "tessera::cuda::vector_accumulate: a 3D star");
  static_assert(RowsPerWarp == 1 || RowsPerWarp == 2 || RowsPerWarp == 4,
                "tessera::cuda::vector_accumulate: 1, 2 or 4 rows a warp");
  using vs = detail::vshape<S>;
  using vec_t = vec16::vec<T>;
  using rows_of = vector_rows<S>;
  constexpr int vec_elems = vec_t::size;
  constexpr int march_lo = vs::lo(0), march_hi = vs::hi(0), reach_planes = march_hi - march_lo + 1;
  constexpr int y_lo = vs::lo(1), y_hi = vs::hi(1), y_rows = y_hi - y_lo + 1;
  constexpr int x_hi = vs::hi(2);
  static_assert(Ahead >= 0 && Ahead <= march_hi && Prefetch >= 0 && Prefetch <= march_hi,
                "tessera::cuda::vector_accumulate: planes ahead within the shape's reach (they exist)");

  // A warp holds RowsPerWarp rows of row_lanes lanes; a block block_rows rows.
  constexpr int row_lanes = 32 / RowsPerWarp, block_rows = Warps * RowsPerWarp;
  using nb = row_neighbours<S, T, row_lanes>;
  const int lane = static_cast<int>(threadIdx.x);
  const int xl = lane % row_lanes,
            rr = static_cast<int>(threadIdx.y) * RowsPerWarp + lane / row_lanes;  // lane in row, row in block
  const index_t seg = blockIdx.x;
  const index_t ny = p.n[1];
  if (static_cast<index_t>(blockIdx.y) * block_rows + static_cast<index_t>(threadIdx.y) * RowsPerWarp >= ny)
    return;  // whole warps
  // A warp's rows past the grid's last read that row and store nothing.
  const bool y_ok = static_cast<index_t>(blockIdx.y) * block_rows + rr < ny;
  const index_t y = y_ok ? static_cast<index_t>(blockIdx.y) * block_rows + rr : ny - 1;
  const index_t nx = p.n[2];
  const index_t x0 = (seg * row_lanes + xl) * vec_elems;
  const index_t m0 = static_cast<index_t>(blockIdx.z) * chunk;
  const int steps = static_cast<int>(min(static_cast<index_t>(chunk), p.n[0] - m0));
  const index_t ms = p.in_stride[0], ys = p.in_stride[1], oms = p.out_stride[0];
  const T* const first = p.in + (m0 + march_lo) * ms + y * ys + x0;  // plane m0 + march_lo, row y, x0
  T* const out0 = p.out + m0 * oms + y * p.out_stride[1] + x0;

  // The edge lanes' lines beyond the row segment: the one request each that a block
  // makes for them, Prefetch planes ahead (warps with no bounds only).
  const bool pf_edge = Prefetch > 0 && (xl == 0 || xl == row_lanes - 1) && (seg + 1) * row_lanes * vec_elems <= nx;
  const int pf_edge_off = xl == 0 ? -vec_elems : vec_elems;
  auto prefetch_edges = [&](const T* at) {
    if (pf_edge) prefetch_l1(at + pf_edge_off);
  };

  auto march = [&](auto interior_tag) {
    constexpr bool Interior = decltype(interior_tag)::value;
    const bool x_live = Interior || x0 < nx + x_hi;
    auto load_at = [&](const T* q) { return Interior || x_live ? vec16::load(q) : vec16::zero<T>(); };

    vec_t acc[reach_planes];  // acc[s]: output plane p - march_hi + s
#pragma unroll
    for (int s = 0; s < reach_planes; ++s) acc[s] = vec16::zero<T>();
    // Plane p's column contributions: to outputs p - dm of the points (dm, 0, 0).
    auto add_column = [&](const vec_t& own) {
      tessera::detail::static_for<vs::size>([&](auto k) {
        constexpr int K = decltype(k)::value, dm = vs::off(K, 0);
        if constexpr (dm != 0) {
#pragma unroll
          for (int j = 0; j < vec_elems; ++j) acc[march_hi - dm].e[j] += p.template term<K>(own.e[j]);
        }
      });
    };
    // The oldest partial sum is complete: store it (rows past the grid store nothing).
    auto retire = [&](T* o) {
      if (RowsPerWarp > 1 && !y_ok) return;
      if (Interior || x0 + vec_elems <= nx) {
        vec16::store_streaming(o, acc[0]);  // evict-first: L2 keeps the inputs
      } else {
#pragma unroll
        for (int j = 0; j < vec_elems; ++j)
          if (x0 + j < nx) __stcs(o + j, acc[0].e[j]);
      }
    };
    // Move the sums down a plane; the newest output starts at zero.
    auto shift = [&] {
#pragma unroll
      for (int s = 0; s + 1 < reach_planes; ++s) acc[s] = acc[s + 1];
      acc[reach_planes - 1] = vec16::zero<T>();
    };

    const T* plane = first;
    if constexpr (Prefetch > 0) {
#pragma unroll
      for (int d = 0; d < Prefetch; ++d) prefetch_edges(first + (d - march_lo) * ms);
    }
    // Own vectors of the planes after the one a step reads, loaded Ahead steps early
    // (planes up to the chunk's last + march_hi exist: Ahead <= march_hi).
    vec_t ahead[Ahead + 1];
#pragma unroll
    for (int d = 0; d < Ahead; ++d) ahead[d] = load_at(first + (d - march_lo) * ms);
    // Planes below the chunk (m0 + march_lo .. m0 - 1): their column terms only, to outputs m0 ...
#pragma unroll
    for (int h = 0; h < -march_lo; ++h) {
      add_column(load_at(plane));
      shift();
      plane += ms;
    }
    T* o = out0 - march_hi * oms;  // output plane p - march_hi
    for (int i = 0; i < steps; ++i) {
      if constexpr (Prefetch > 0) prefetch_edges(plane + Prefetch * ms);
      if constexpr (Ahead > 0) ahead[Ahead] = load_at(plane + Ahead * ms);
      // Every load of the step first: the own vector, the rows at other y offsets, the
      // elements beyond this lane's vector; then the shuffles.
      vec_t rows[y_rows];
      T beyond[y_rows][nb::lanes_away][vec_elems];
      tessera::detail::static_for<y_rows>([&](auto b) {
        constexpr int row_i = decltype(b)::value, dy = row_i + y_lo;
        if constexpr (dy == 0 && Ahead > 0) rows[row_i] = ahead[0];
        else if constexpr (dy == 0 || rows_of::used(0, dy)) rows[row_i] = load_at(plane + dy * ys);
        tessera::detail::static_for<nb::lanes_away>([&](auto c) {
          constexpr int lane_i = decltype(c)::value, off = lane_i + nb::lane_lo;
          if constexpr (off != 0 && rows_of::uses_lane(0, dy, off, vec_elems)) {
            const T* q = plane + dy * ys + off * vec_elems;
            if constexpr (nb::template loaded_whole<Interior>(0, dy, off)) {
              const vec_t v = vec16::load(q);
#pragma unroll
              for (int e = 0; e < vec_elems; ++e) beyond[row_i][lane_i][e] = v.e[e];
            } else {
              const bool edge =
                  (xl + off < 0 || xl + off > row_lanes - 1) && (Interior || x0 + off * vec_elems < nx + x_hi);
              tessera::detail::static_for<vec_elems>([&](auto ee) {
                constexpr int elem_i = decltype(ee)::value;
                if constexpr (rows_of::uses_elem(0, dy, off, elem_i, vec_elems))
                  beyond[row_i][lane_i][elem_i] = edge ? __ldg(q + elem_i) : T(0);
              });
            }
          }
        });
      });
      tessera::detail::static_for<y_rows>([&](auto b) {
        constexpr int row_i = decltype(b)::value;
        nb::template shuffle<0, row_i + y_lo, Interior>(beyond[row_i], rows[row_i], xl);
      });
      // In-plane points go to output p (slot march_hi), column points to outputs p - dm.
      tessera::detail::static_for<vs::size>([&](auto k) {
        constexpr int K = decltype(k)::value;
        constexpr int dm = vs::off(K, 0), dy = vs::off(K, 1), dx = vs::off(K, 2);
        tessera::detail::static_for<vec_elems>([&](auto jj) {
          constexpr int j = decltype(jj)::value;
          acc[march_hi - dm].e[j] +=
              p.template term<K>(nb::template element<j + dx>(rows[dy - y_lo], beyond[dy - y_lo]));
        });
      });
      if (i >= march_hi) retire(o);
      shift();
#pragma unroll
      for (int d = 0; d < Ahead; ++d) ahead[d] = ahead[d + 1];
      plane += ms;
      o += oms;
    }
    // Planes above the chunk: column terms, and the outputs they complete.
#pragma unroll
    for (int h = 0; h < march_hi; ++h) {
      add_column(h < Ahead ? ahead[h] : load_at(plane));
      if (steps + h >= march_hi) retire(o);
      shift();
      plane += ms;
      o += oms;
    }
  };
  // Warp-uniform: seg is the same for every lane of a warp.
  if ((seg + 1) * row_lanes * vec_elems <= nx) march(std::true_type{});
  else march(std::false_type{});
}

}  // namespace kernels
}  // namespace tessera::cuda
