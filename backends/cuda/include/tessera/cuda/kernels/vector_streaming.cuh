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
// device's copy bandwidth. Through the library (run 7): 3D 7-point 0.93 fp32 and
// 0.93-0.94 fp64, 13-point 0.87-0.89, 25-point 0.73-0.74 (then the best policy), box
// 0.79, 2D 5-point 0.93-0.96. What the probe had and this kernel lacked (run 6: 0.84 at
// 7 points) was instructions: ncu counted 2.25x the probe's (IPC 2.8 vs 1.4, the same
// DRAM bytes); scalar edge loads, a pointer advanced per step, one shuffle per element
// instead of per use and 40 registers (1536 threads an SM) closed it.
// Short chunks need a cheap start, so this kernel keeps no ring: a warp owns one row
// segment of 32 vectors (128 floats, 64 doubles), a lane one 16-byte vector of outputs;
//   - the centre vectors of the W planes the shape reaches along the marching axis stay
//     in registers, and each step loads the plane Depth steps before it is read;
//   - the x-neighbours come from the neighbouring lanes by warp shuffles, one per element
//     a step reads (the warp's edge lanes load the elements beyond the warp, predicated,
//     with the step's other loads: loaded under a branch after the shuffles, they were
//     waited for one by one and the box and 25-point ran at 0.20 of copy instead of 0.34);
//   - the rows at other y offsets (3D) are 16-byte loads that hit L1: they are the
//     neighbouring warps' centre rows.
// Every read of a step is issued before its arithmetic; outputs are summed in the
// shape's declaration order. Needs 16-byte aligned rows (the dispatcher checks in and out).
// 3D stars reaching 3 or more planes along z (19-, 25-point) are not run by this window
// kernel but by accumulation (vector_accumulate.cuh: 25-point 0.82 of copy vs 0.74 here,
// run 8); the launcher at the end of this file picks.
#include "tessera/cuda/kernels/vector_accumulate.cuh"
#include "tessera/cuda/kernels/vector_io.cuh"

namespace tessera::cuda {
namespace kernels {

/// Blocks per SM the register budget is set for: for stars reaching one plane either way
/// (7-point, 2D 5-point), 1536 threads an SM (40 registers: 6 blocks of 256). Measured on
/// an H100, 7-point 512^3 (perf/probes/vs_probe.cu, RESULTS run 7), 1536 vs 2048 threads
/// (32 registers, spilling): fp32 0.92-0.94 vs 0.86-0.91 of copy, fp64 0.95 vs 0.93 (0.59
/// where the cap spilled 40 bytes). Wider shapes keep the compiler's choice: capping them
/// spills and runs up to 10x slower.
template <class S, int BY>
inline constexpr int vector_streaming_min_blocks =
    shape_traits<S>::slow_axis_neighbours_on_axis && detail::vshape<S>::width(3 - S::rank) <= 2 ? 1536 / (32 * BY) : 0;

/// Ahead: planes loaded before the step that first reads them (0: each step loads the
/// plane the next step needs). MinBlocks: __launch_bounds__'s blocks per SM.
/// ScalarEdges: the warp's edge lanes load only the elements beyond the warp that a step
/// reads (one float at 7 points) rather than whole vectors; StepPointers: one pointer
/// advanced a plane per step instead of a 64-bit product per load. Both cut the 7-point's
/// instructions (ncu: 2.8 vs 1.4 IPC against a hand-written kernel before them) and
/// raised it from 0.88 to 0.91 of copy; they stay switchable for probes (vs_probe.cu).
template <class S, class T, int BY, int Ahead, int MinBlocks = vector_streaming_min_blocks<S, BY>,
          bool ScalarEdges = true, bool StepPointers = true>
__global__ void __launch_bounds__(32 * BY, MinBlocks) vector_streaming_sweep(const params_for<S, T> p, const int chunk) {
  static_assert(Ahead >= 0, "tessera::cuda::vector_streaming: planes loaded ahead cannot be negative");
  using vs = detail::vshape<S>;
  using V = vec16::vec<T>;
  using rows_of = vector_rows<S>;
  using nb = row_neighbours<S, T, 32>;
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
  // beyond the row (and beyond the allocation on the last row): not read. (Pointing such
  // lanes at lane 0's vector instead, so that no load needs a predicate or zeroed
  // registers, measured 1-3% slower on every shape: perf/RESULTS.md run 7, not kept.)
  const bool x_live = x0 < nx + XH;
  const T* origin = p.in + m0 * ms + y * ys + x0;  // plane m0, row y, this lane's x0
  const T* plane = origin;                         // plane m0 + i at step i
  auto at = [&](int i, int dm, int dy) {
    if constexpr (StepPointers) return plane + dm * ms + dy * ys;
    else return origin + (i + dm) * ms + dy * ys;
  };
  auto load_row = [&](int i, int dm, int dy) { return x_live ? vec16::load(at(i, dm, dy)) : vec16::zero<T>(); };

  // Centre vectors of planes m + LO .. m + HI + Ahead: the window the step reads and the
  // planes loaded ahead of it.
  constexpr int R = W + Ahead;
  V win[R];
#pragma unroll
  for (int d = 0; d < R; ++d) win[d] = d < W || d - W + 1 < steps ? load_row(0, LO + d, 0) : vec16::zero<T>();

  T* out = p.out + m0 * p.out_stride[M] + (has_y ? y * p.out_stride[1] : 0) + x0;
  const index_t oms = p.out_stride[M];
  for (int i = 0; i < steps; ++i) {
    // Every load of the step first: the plane Ahead + 1 steps ahead, the rows at other y
    // offsets, and, for the warp's edge lanes, the elements just beyond the warp (the
    // other lanes get those by shuffle, after). Issued together, their latencies overlap.
    const V incoming = i + 1 + Ahead < steps ? load_row(i, HI + 1 + Ahead, 0) : vec16::zero<T>();
    V rows[W][YW];
    T beyond[W][YW][nb::NO][NV];  // elements of other lanes' vectors (row_neighbours)
    tessera::detail::static_for<W>([&](auto a) {
      tessera::detail::static_for<YW>([&](auto b) {
        constexpr int A = decltype(a)::value, B = decltype(b)::value, dm = A + LO, dy = B + YL;
        if constexpr (dy == 0) rows[A][B] = win[A];
        else if constexpr (rows_of::used(dm, dy)) rows[A][B] = load_row(i, dm, dy);
        tessera::detail::static_for<nb::NO>([&](auto c) {
          constexpr int C = decltype(c)::value, off = C + nb::OL;
          if constexpr (off != 0 && rows_of::uses_lane(dm, dy, off, NV)) {
            const bool edge = (lane + off < 0 || lane + off > 31) && x0 + off * NV < nx + XH;
            const T* q = at(i, dm, dy) + off * NV;
            if constexpr (!ScalarEdges || rows_of::elems_used(dm, dy, off, NV) == NV) {
              const V v = edge ? vec16::load(q) : vec16::zero<T>();
#pragma unroll
              for (int e = 0; e < NV; ++e) beyond[A][B][C][e] = v.e[e];
            } else {
              // Only the elements a step reads (one float at 7 points): a narrower load
              // and fewer registers held through the step.
              tessera::detail::static_for<NV>([&](auto ee) {
                constexpr int E = decltype(ee)::value;
                if constexpr (rows_of::uses_elem(dm, dy, off, E, NV)) beyond[A][B][C][E] = edge ? __ldg(q + E) : T(0);
              });
            }
          }
        });
      });
    });
    tessera::detail::static_for<W>([&](auto a) {
      tessera::detail::static_for<YW>([&](auto b) {
        constexpr int A = decltype(a)::value, B = decltype(b)::value;
        nb::template shuffle<A + LO, B + YL, false>(beyond[A][B], rows[A][B], lane);
      });
    });
    T acc[NV];
#pragma unroll
    for (int j = 0; j < NV; ++j) acc[j] = T(0);
    tessera::detail::static_for<vs::size>([&](auto k) {
      constexpr int K = decltype(k)::value;
      constexpr int dm = vs::off(K, M), dy = has_y ? vs::off(K, 1) : 0, dx = vs::off(K, 2);
      tessera::detail::static_for<NV>([&](auto jj) {
        constexpr int j = decltype(jj)::value;
        acc[j] += p.c[K] * nb::template element<j + dx>(rows[dm - LO][dy - YL], beyond[dm - LO][dy - YL]);
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
    // (Unrolling the loop W times so the window rotates by renaming instead: 128
    // registers at 25 points, 0.62 of copy instead of 0.73; 7-point 0.83 vs 0.92. Run 7.)
#pragma unroll
    for (int d = 0; d + 1 < R; ++d) win[d] = win[d + 1];
    win[R - 1] = incoming;
    plane += ms;
  }
}

}  // namespace kernels

template <class S, class T, int BX, int BY, int BZ, int Depth>
void launch_tiles(vector_streaming<>, const launch_plan& plan, const params_for<S, T>& p, cudaStream_t stream) {
  static_assert(S::rank >= 2, "tessera::cuda::vector_streaming needs a 2D or 3D shape");
  static_assert(BX == 32, "tessera::cuda::vector_streaming: a block is BY warps of 32 lanes");
  static_assert(Depth >= 1, "tessera::cuda::vector_streaming: Depth counts planes in flight, at least 1");
  const dim3 block(32, BY, 1), grid = detail::grid_of(plan);
  if constexpr (accumulates_by_column<S>) {
    // 3D stars reaching 3+ planes along z (vector_accumulate.cuh): 2 rows a warp
    // (kernel_config::rows_per_warp; the plan's grid counts them), Depth own rows in flight
    // and the edge lines prefetched 3 planes ahead (both capped at the reach: those planes
    // exist); fp32: registers for 28 warps an SM (72). Measured on an H100, 25-point fp32
    // 512^3 (RESULTS run 8): prefetch 3 / 2 / 0 planes 0.83-0.85 / 0.79-0.83 / 0.76 of
    // copy; the compiler's 92 registers (6 blocks) 0.72; fp64 keeps the compiler's choice.
    constexpr int H = kernel_config<vector_streaming<>, S>::rows_per_warp, reach = shape_traits<S>::reach_hi[0];
    constexpr int ahead = Depth < reach ? Depth : reach, prefetch = 3 < reach ? 3 : reach;
    constexpr int min_blocks = sizeof(T) == 4 ? 28 / BY : 0;
    kernels::vector_accumulate_sweep<S, T, BY, H, ahead, min_blocks, prefetch><<<grid, block, 0, stream>>>(p, plan.chunk);
    detail::finish_launch("vector_accumulate_sweep", vector_streaming<>::name(), shape_name<S>(), plan, block, grid);
  } else {
    kernels::vector_streaming_sweep<S, T, BY, Depth - 1><<<grid, block, 0, stream>>>(p, plan.chunk);
    detail::finish_launch("vector_streaming_sweep", vector_streaming<>::name(), shape_name<S>(), plan, block, grid);
  }
}

}  // namespace tessera::cuda
