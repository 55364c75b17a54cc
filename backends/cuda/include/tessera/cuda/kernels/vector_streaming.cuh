#pragma once
// vector_streaming: z-streaming (2D: y-streaming) in 16-byte vectors, no shared memory.
//
// Why: the time of a streaming sweep on an H100 depends on where in memory the whole
// device is reading at once, not only on how many bytes it moves. A block that marches a
// long chunk of planes keeps its own place in z; with hundreds of blocks resident the
// device reads from hundreds of planes at once, and the planes a chunk shares with the
// chunk below are read twice from DRAM (by blocks that ran a chunk's time apart). With
// short chunks (4 planes) launched plane-major, every resident block works on a few
// neighbouring planes: the shared planes hit in L2 and DRAM streams through a narrow
// window, as a copy does. A stand-alone probe kernel on an H100 (7-point fp32 512^3,
// perf/RESULTS.md run 6): chunk 32 / 16 / 8 / 4 = 0.86 / 0.87 / 0.89 / 0.94 of the
// device's copy bandwidth. Measured through the library (run 6): 2D 5-point 0.95 fp32 and
// 0.98 fp64 (pipelined 0.85 / 0.88); 3D 7-point 0.84 fp32, 0.91 fp64 (pipelined 0.88,
// 0.90); shapes that load many rows per step (13- and 25-point, boxes) 0.31-0.77 — they
// wait on those loads, which are not issued ahead. Why the 3D 7-point falls short of the
// probe is not yet known (the probe's loads are the same; its address arithmetic is
// simpler); cuda::automatic takes pipelined there.
// Short chunks need a cheap start, so this kernel keeps no ring: a warp owns one row
// segment of 32 vectors (128 floats, 64 doubles), a lane one 16-byte vector of outputs;
//   - the centre vectors of the W planes the shape reaches along the marching axis stay
//     in registers (plus Depth planes loaded ahead);
//   - the x-neighbours come from the neighbouring lanes by warp shuffles (the warp's edge
//     lanes load the vector beyond the warp, predicated, with the step's other loads:
//     loaded under a branch after the shuffles, they were waited for one by one and the
//     box and 25-point ran at 0.20 of copy instead of 0.34);
//   - the rows at other y offsets (3D) are 16-byte loads that hit L1: they are the
//     neighbouring warps' centre rows.
// Every read of a step is issued before its arithmetic; outputs are summed in the
// shape's declaration order. Needs 16-byte aligned rows (the dispatcher checks in and out).
#include <cstdint>
#include <cstring>

#include "tessera/cuda/kernels/common.cuh"

namespace tessera::cuda {
namespace kernels {

namespace vec16 {
/// One 16-byte vector of T.
template <class T>
struct vec {
  static constexpr int size = 16 / static_cast<int>(sizeof(T));
  T e[size];
};
template <class T>
__device__ inline vec<T> load(const T* p) {
  const int4 raw = __ldg(reinterpret_cast<const int4*>(p));
  vec<T> v;
  memcpy(&v, &raw, 16);
  return v;
}
template <class T>
__device__ inline void store_streaming(T* p, const vec<T>& v) {
  int4 raw;
  memcpy(&raw, &v, 16);
  __stcs(reinterpret_cast<int4*>(p), raw);
}
template <class T>
__device__ inline vec<T> zero() {
  vec<T> v;
#pragma unroll
  for (int j = 0; j < vec<T>::size; ++j) v.e[j] = T(0);
  return v;
}
}  // namespace vec16

/// The rows (offset dm along the marching axis, dy along y) a step of shape S reads.
template <class S>
struct vector_rows {
  using vs = detail::vshape<S>;
  static constexpr int M = 3 - S::rank;
  static constexpr bool used(int dm, int dy) {
    for (int k = 0; k < vs::size; ++k)
      if (vs::off(k, M) == dm && (S::rank == 3 ? vs::off(k, 1) : 0) == dy) return true;
    return false;
  }
  /// The lane (offset from this one) whose vector holds element t of a row: t may lie
  /// before (t < 0) or beyond (t >= nv) this lane's vector.
  static constexpr int lane_of(int t, int nv) { return t < 0 ? -((-t + nv - 1) / nv) : t / nv; }
  /// True when a step reads, in row (dm, dy), elements of the vector `off` lanes away.
  static constexpr bool uses_lane(int dm, int dy, int off, int nv) {
    for (int k = 0; k < vs::size; ++k) {
      if (vs::off(k, M) != dm || (S::rank == 3 ? vs::off(k, 1) : 0) != dy) continue;
      for (int j = 0; j < nv; ++j)
        if (lane_of(j + vs::off(k, 2), nv) == off) return true;
    }
    return false;
  }
};

/// Blocks per SM the register budget is set for: for stars reaching one plane either way
/// (7-point, 2D 5-point), 1280 threads an SM (48 registers; left alone the compiler takes
/// 64 and an SM holds 1024); wider shapes keep the compiler's choice.
template <class S, int BY>
inline constexpr int vector_streaming_min_blocks =
    shape_traits<S>::slow_axis_neighbours_on_axis && detail::vshape<S>::width(3 - S::rank) <= 2 ? 1280 / (32 * BY) : 0;

template <class S, class T, int BY, int Depth>
__global__ void __launch_bounds__(32 * BY, (vector_streaming_min_blocks<S, BY>)) vector_streaming_sweep(const params_for<S, T> p, const int chunk) {
  static_assert(Depth >= 1, "tessera::cuda::vector_streaming: at least one plane loaded ahead");
  using vs = detail::vshape<S>;
  using V = vec16::vec<T>;
  using rows_of = vector_rows<S>;
  constexpr int NV = V::size;
  constexpr bool has_y = S::rank == 3;
  constexpr int M = 3 - S::rank;  // virtual axis marched along
  constexpr int LO = vs::lo(M), HI = vs::hi(M), W = HI - LO + 1;
  constexpr int YL = has_y ? vs::lo(1) : 0, YH = has_y ? vs::hi(1) : 0, YW = YH - YL + 1;
  constexpr int XH = vs::hi(2);

  const int lane = static_cast<int>(threadIdx.x);
  // 3D: a warp is one row of one x-segment of 32 vectors; 2D: the BY warps of a block
  // are BY consecutive x-segments of a row.
  const index_t seg = has_y ? static_cast<index_t>(blockIdx.x)
                            : static_cast<index_t>(blockIdx.x) * BY + threadIdx.y;
  const index_t y = has_y ? static_cast<index_t>(blockIdx.y) * BY + threadIdx.y : 0;
  const index_t nx = p.n[2];
  // Whole warps only leave early, so every shuffle finds its partner.
  if (has_y && y >= p.n[1]) return;
  if (seg * 32 * NV >= nx) return;
  const index_t x0 = (seg * 32 + lane) * NV;
  const index_t m0 = static_cast<index_t>(has_y ? blockIdx.z : blockIdx.y) * chunk;
  const int steps = static_cast<int>(min(static_cast<index_t>(chunk), p.n[M] - m0));
  const index_t ms = p.in_stride[M], ys = has_y ? p.in_stride[1] : 0;
  // This lane's vector holds an element some stored output reads; past that it may lie
  // beyond the row (and beyond the allocation on the last row): not read.
  const bool x_live = x0 < nx + XH;
  const T* origin = p.in + m0 * ms + y * ys + x0;  // plane m0, row y, this lane's x0
  auto load_row = [&](int dm, int dy) { return x_live ? vec16::load(origin + dm * ms + dy * ys) : vec16::zero<T>(); };

  V win[W];      // centre vectors of planes m + LO .. m + HI
  V ahead[Depth];  // planes m + HI + 1 .. m + HI + Depth
#pragma unroll
  for (int d = 0; d < W; ++d) win[d] = load_row(LO + d, 0);
#pragma unroll
  for (int d = 0; d < Depth; ++d) ahead[d] = d + 1 < steps ? load_row(HI + 1 + d, 0) : vec16::zero<T>();

  T* out = p.out + m0 * p.out_stride[M] + (has_y ? y * p.out_stride[1] : 0) + x0;
  const index_t oms = p.out_stride[M];
  // Lanes away from this one that a step's x-neighbours come from (1 unless the x-reach
  // exceeds a vector, e.g. fp64 radius 3 and 4).
  constexpr int OL = rows_of::lane_of(vs::lo(2), NV), OH = rows_of::lane_of(NV - 1 + XH, NV), NO = OH - OL + 1;
  for (int i = 0; i < steps; ++i) {
    // Every load of the step first: the plane Depth + 1 ahead, the rows at other y
    // offsets, and, for the warp's edge lanes, the vectors just beyond the warp (the
    // other lanes get those elements by shuffle). Issued together, their latencies overlap.
    const V incoming = i + 1 + Depth < steps ? load_row(i + 1 + HI + Depth, 0) : vec16::zero<T>();
    V rows[W][YW];
    V beyond[W][YW][NO];
    tessera::detail::static_for<W>([&](auto a) {
      tessera::detail::static_for<YW>([&](auto b) {
        constexpr int A = decltype(a)::value, B = decltype(b)::value, dm = A + LO, dy = B + YL;
        if constexpr (dy == 0) rows[A][B] = win[A];
        else if constexpr (rows_of::used(dm, dy)) rows[A][B] = load_row(i + dm, dy);
        tessera::detail::static_for<NO>([&](auto c) {
          constexpr int C = decltype(c)::value, off = C + OL;
          if constexpr (off != 0 && rows_of::uses_lane(dm, dy, off, NV)) {
            const bool edge = (lane + off < 0 || lane + off > 31) && x0 + off * NV < nx + XH;
            beyond[A][B][C] = edge ? vec16::load(origin + (i + dm) * ms + dy * ys + off * NV) : vec16::zero<T>();
          }
        });
      });
    });
    T acc[NV];
#pragma unroll
    for (int j = 0; j < NV; ++j) acc[j] = T(0);
    tessera::detail::static_for<vs::size>([&](auto k) {
      constexpr int K = decltype(k)::value;
      constexpr int dm = vs::off(K, M), dy = has_y ? vs::off(K, 1) : 0, dx = vs::off(K, 2);
      const V& r = rows[dm - LO][dy - YL];
      tessera::detail::static_for<NV>([&](auto jj) {
        constexpr int j = decltype(jj)::value, t = j + dx;
        T v;
        if constexpr (t >= 0 && t < NV) {
          v = r.e[t];
        } else {
          // Element t of this row is in the vector `off` lanes away; beyond the warp, in
          // the vector loaded above.
          constexpr int off = rows_of::lane_of(t, NV), comp = t - off * NV;
          const T shuffled = __shfl_sync(0xffffffffu, r.e[comp], lane + off);
          v = lane + off < 0 || lane + off > 31 ? beyond[dm - LO][dy - YL][off - OL].e[comp] : shuffled;
        }
        acc[j] += p.c[K] * v;
      });
    });
    T* o = out + i * oms;
    if (x0 + NV <= nx) {
      V result;
#pragma unroll
      for (int j = 0; j < NV; ++j) result.e[j] = acc[j];
      vec16::store_streaming(o, result);  // evict-first: L2 keeps the inputs
    } else {
#pragma unroll
      for (int j = 0; j < NV; ++j)
        if (x0 + j < nx) __stcs(o + j, acc[j]);
    }
#pragma unroll
    for (int d = 0; d + 1 < W; ++d) win[d] = win[d + 1];
    win[W - 1] = ahead[0];
#pragma unroll
    for (int d = 0; d + 1 < Depth; ++d) ahead[d] = ahead[d + 1];
    ahead[Depth - 1] = incoming;
  }
}

}  // namespace kernels

template <class S, class T, int BX, int BY, int BZ, int Depth>
void launch_tiles(vector_streaming<>, const launch_plan& plan, const params_for<S, T>& p, cudaStream_t stream) {
  static_assert(S::rank >= 2, "tessera::cuda::vector_streaming needs a 2D or 3D shape");
  static_assert(BX == 32, "tessera::cuda::vector_streaming: a block is BY warps of 32 lanes");
  const dim3 block(32, BY, 1), grid = detail::grid_of(plan);
  kernels::vector_streaming_sweep<S, T, BY, Depth><<<grid, block, 0, stream>>>(p, plan.chunk);
  detail::finish_launch("vector_streaming_sweep", vector_streaming<>::name(), shape_name<S>(), plan, block, grid);
}

}  // namespace tessera::cuda
