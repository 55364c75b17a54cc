#pragma once
// vector_accumulate: vector_streaming's kernel for 3D stars reaching 3 or more planes
// along z (19- and 25-point): z-streaming by accumulation, in 16-byte vectors, no shared
// memory.
//
// Why: vector_streaming's window kernel (vector_streaming.cuh) keeps the W planes of a
// lane's column in registers and loads each plane once, W steps before the last step
// that reads it; the rows at other y offsets that a warp reads are its neighbours' rows
// of the step's own plane, loaded by those warps W/2 steps earlier. At 25 points (W = 9)
// L1 no longer holds them that long: ncu on an H100 (fp32 512^3, perf/RESULTS.md run 8)
// counted 4.8 sectors read from L2 per sector of input and L2 at 95% of its peak
// throughput, at 0.78 of copy bandwidth; the 13- and 7-point kernels run at 0.88-0.94.
// Here a step reads one plane p, the newest, and adds what it contributes to the W
// outputs p - HI .. p - LO, held as partial sums; the oldest is then complete and
// stored. The rows a block's warps read of each other lie in plane p, which every warp
// reads in the same step (its own row one step ahead, in registers), so they hit L1.
// And a warp holds H rows of 32 / H lanes (H = 2: 2 rows of 64 floats; a block of 4
// warps 8 rows), so a block reads 8 rows beyond it in y for 8 rows of outputs instead
// of for 4. Measured on an H100 through perf/probes/vs_probe.cu (RESULTS run 8), 25-point
// fp32 512^3: window kernel 0.73-0.79 of copy, this kernel with H = 1 0.78-0.80, with
// H = 2, 3 planes prefetched and chunks of 8 0.83-0.85 (ncu: L2 read sectors 4.8 -> 3.2
// per input sector; L2 stays the limit, at 97% of its peak).
//   - the partial sums are W vectors of registers, shifted a step (the window kernel's
//     count); the own row of the next Ahead planes is loaded ahead;
//   - the x-neighbours: in warps whose vectors all hold outputs, a neighbouring lane's
//     vector that a step reads whole (the x-reach is at least a vector) is loaded from
//     L1 (the row is the warp's own); otherwise shuffled as in the window kernel, the
//     edge lanes loading the elements beyond the row segment;
//   - the edge lanes' lines beyond the segment (another block's row or the ghosts: no
//     warp of this block loads them) are prefetched into L1 Prefetch planes ahead.
//     Prefetching the other rows too (own, beyond the block in y) made L2 serve more
//     sectors, not fewer, and ran slower (0.69-0.74).
// Outputs are summed in a different order than the shape declares (column points of
// earlier planes first), so results differ from host::serial by rounding only.
#include <type_traits>

#include "tessera/cuda/kernels/vector_io.cuh"
#include "tessera/cuda/tile_config.hpp"

namespace tessera::cuda {
namespace kernels {

/// Brings the line holding p into L1 without a register.
__device__ inline void prefetch_l1(const void* p) { asm volatile("prefetch.global.L1 [%0];" ::"l"(p)); }

/// BY warps a block, H rows a warp, the own row of Ahead planes loaded ahead (at most
/// the shape's reach along z: those planes exist), MinBlocks for __launch_bounds__,
/// edge lines prefetched Prefetch planes ahead (0: none; at most the reach).
template <class S, class T, int BY, int H, int Ahead, int MinBlocks, int Prefetch>
__global__ void __launch_bounds__(32 * BY, MinBlocks) vector_accumulate_sweep(const params_for<S, T> p, const int chunk) {
  static_assert(S::rank == 3 && accumulates_by_column<S>, "tessera::cuda::vector_accumulate: a 3D star");
  static_assert(H == 1 || H == 2 || H == 4, "tessera::cuda::vector_accumulate: 1, 2 or 4 rows a warp");
  using vs = detail::vshape<S>;
  using V = vec16::vec<T>;
  using rows_of = vector_rows<S>;
  constexpr int NV = V::size;
  constexpr int LO = vs::lo(0), HI = vs::hi(0), W = HI - LO + 1;
  constexpr int YL = vs::lo(1), YH = vs::hi(1), YW = YH - YL + 1;
  constexpr int XH = vs::hi(2);
  static_assert(Ahead >= 0 && Ahead <= HI && Prefetch >= 0 && Prefetch <= HI,
                "tessera::cuda::vector_accumulate: planes ahead within the shape's reach (they exist)");

  // A warp holds H rows of LW lanes; a block BYR = BY * H rows.
  constexpr int LW = 32 / H, BYR = BY * H;
  using nb = row_neighbours<S, T, LW>;
  const int lane = static_cast<int>(threadIdx.x);
  const int xl = lane % LW, rr = static_cast<int>(threadIdx.y) * H + lane / LW;  // lane in row, row in block
  const index_t seg = blockIdx.x;
  const index_t ny = p.n[1];
  if (static_cast<index_t>(blockIdx.y) * BYR + static_cast<index_t>(threadIdx.y) * H >= ny) return;  // whole warps
  // A warp's rows past the grid's last read that row and store nothing.
  const bool y_ok = static_cast<index_t>(blockIdx.y) * BYR + rr < ny;
  const index_t y = y_ok ? static_cast<index_t>(blockIdx.y) * BYR + rr : ny - 1;
  const index_t nx = p.n[2];
  const index_t x0 = (seg * LW + xl) * NV;
  const index_t m0 = static_cast<index_t>(blockIdx.z) * chunk;
  const int steps = static_cast<int>(min(static_cast<index_t>(chunk), p.n[0] - m0));
  const index_t ms = p.in_stride[0], ys = p.in_stride[1], oms = p.out_stride[0];
  const T* const first = p.in + (m0 + LO) * ms + y * ys + x0;  // plane m0 + LO, row y, x0
  T* const out0 = p.out + m0 * oms + y * p.out_stride[1] + x0;

  // The edge lanes' lines beyond the row segment: the one request each that a block
  // makes for them, Prefetch planes ahead (warps with no bounds only).
  const bool pf_edge = Prefetch > 0 && (xl == 0 || xl == LW - 1) && (seg + 1) * LW * NV <= nx;
  const int pf_edge_off = xl == 0 ? -NV : NV;
  auto prefetch_edges = [&](const T* at) {
    if (pf_edge) prefetch_l1(at + pf_edge_off);
  };

  auto march = [&](auto interior_tag) {
    constexpr bool Interior = decltype(interior_tag)::value;
    const bool x_live = Interior || x0 < nx + XH;
    auto load_at = [&](const T* q) { return Interior || x_live ? vec16::load(q) : vec16::zero<T>(); };

    V acc[W];  // acc[s]: output plane p - HI + s
#pragma unroll
    for (int s = 0; s < W; ++s) acc[s] = vec16::zero<T>();
    // Plane p's column contributions: to outputs p - dm of the points (dm, 0, 0).
    auto add_column = [&](const V& own) {
      tessera::detail::static_for<vs::size>([&](auto k) {
        constexpr int K = decltype(k)::value, dm = vs::off(K, 0);
        if constexpr (dm != 0) {
#pragma unroll
          for (int j = 0; j < NV; ++j) acc[HI - dm].e[j] += p.c[K] * own.e[j];
        }
      });
    };
    // The oldest partial sum is complete: store it (rows past the grid store nothing).
    auto retire = [&](T* o) {
      if (H > 1 && !y_ok) return;
      if (Interior || x0 + NV <= nx) {
        vec16::store_streaming(o, acc[0]);  // evict-first: L2 keeps the inputs
      } else {
#pragma unroll
        for (int j = 0; j < NV; ++j)
          if (x0 + j < nx) __stcs(o + j, acc[0].e[j]);
      }
    };
    // Move the sums down a plane; the newest output starts at zero.
    auto shift = [&] {
#pragma unroll
      for (int s = 0; s + 1 < W; ++s) acc[s] = acc[s + 1];
      acc[W - 1] = vec16::zero<T>();
    };

    const T* plane = first;
    if constexpr (Prefetch > 0) {
#pragma unroll
      for (int d = 0; d < Prefetch; ++d) prefetch_edges(first + (d - LO) * ms);
    }
    // Own vectors of the planes after the one a step reads, loaded Ahead steps early
    // (planes up to the chunk's last + HI exist: Ahead <= HI).
    V ahead[Ahead + 1];
#pragma unroll
    for (int d = 0; d < Ahead; ++d) ahead[d] = load_at(first + (d - LO) * ms);
    // Planes below the chunk (m0 + LO .. m0 - 1): their column terms only, to outputs m0 ...
#pragma unroll
    for (int h = 0; h < -LO; ++h) {
      add_column(load_at(plane));
      shift();
      plane += ms;
    }
    T* o = out0 - HI * oms;  // output plane p - HI
    for (int i = 0; i < steps; ++i) {
      if constexpr (Prefetch > 0) prefetch_edges(plane + Prefetch * ms);
      if constexpr (Ahead > 0) ahead[Ahead] = load_at(plane + Ahead * ms);
      // Every load of the step first: the own vector, the rows at other y offsets, the
      // elements beyond this lane's vector; then the shuffles.
      V rows[YW];
      T beyond[YW][nb::NO][NV];
      tessera::detail::static_for<YW>([&](auto b) {
        constexpr int B = decltype(b)::value, dy = B + YL;
        if constexpr (dy == 0 && Ahead > 0) rows[B] = ahead[0];
        else if constexpr (dy == 0 || rows_of::used(0, dy)) rows[B] = load_at(plane + dy * ys);
        tessera::detail::static_for<nb::NO>([&](auto c) {
          constexpr int C = decltype(c)::value, off = C + nb::OL;
          if constexpr (off != 0 && rows_of::uses_lane(0, dy, off, NV)) {
            const T* q = plane + dy * ys + off * NV;
            if constexpr (nb::template loaded_whole<Interior>(0, dy, off)) {
              const V v = vec16::load(q);
#pragma unroll
              for (int e = 0; e < NV; ++e) beyond[B][C][e] = v.e[e];
            } else {
              const bool edge = (xl + off < 0 || xl + off > LW - 1) && (Interior || x0 + off * NV < nx + XH);
              tessera::detail::static_for<NV>([&](auto ee) {
                constexpr int E = decltype(ee)::value;
                if constexpr (rows_of::uses_elem(0, dy, off, E, NV)) beyond[B][C][E] = edge ? __ldg(q + E) : T(0);
              });
            }
          }
        });
      });
      tessera::detail::static_for<YW>([&](auto b) {
        constexpr int B = decltype(b)::value;
        nb::template shuffle<0, B + YL, Interior>(beyond[B], rows[B], xl);
      });
      // In-plane points go to output p (slot HI), column points to outputs p - dm.
      tessera::detail::static_for<vs::size>([&](auto k) {
        constexpr int K = decltype(k)::value;
        constexpr int dm = vs::off(K, 0), dy = vs::off(K, 1), dx = vs::off(K, 2);
        tessera::detail::static_for<NV>([&](auto jj) {
          constexpr int j = decltype(jj)::value;
          acc[HI - dm].e[j] += p.c[K] * nb::template element<j + dx>(rows[dy - YL], beyond[dy - YL]);
        });
      });
      if (i >= HI) retire(o);
      shift();
#pragma unroll
      for (int d = 0; d < Ahead; ++d) ahead[d] = ahead[d + 1];
      plane += ms;
      o += oms;
    }
    // Planes above the chunk: column terms, and the outputs they complete.
#pragma unroll
    for (int h = 0; h < HI; ++h) {
      add_column(h < Ahead ? ahead[h] : load_at(plane));
      if (steps + h >= HI) retire(o);
      shift();
      plane += ms;
      o += oms;
    }
  };
  // Warp-uniform: seg is the same for every lane of a warp.
  if ((seg + 1) * LW * NV <= nx) march(std::true_type{});
  else march(std::false_type{});
}

}  // namespace kernels
}  // namespace tessera::cuda
