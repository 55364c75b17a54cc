#pragma once
// pipelined: z-streaming (2D: y-streaming) fed by a copy pipeline.
//
// Why: a streaming kernel that loads its next plane into registers has one plane of
// loads in flight per thread, and HBM needs more bytes in flight than registers can hold
// (Little's law: ~3 TB/s x ~1 us of loaded latency = ~23 KB per SM on an H100;
// shared_streaming stalls at 0.78 of copy with 64 registers a thread, perf/RESULTS.md).
// Asynchronous copies (cp.async, sm_80+) move global memory straight into shared memory:
// the bytes in flight cost shared memory, which an SM has 228 KB of, not registers.
//
// A block of BX x BY threads owns a BX x (BY * RY) tile of outputs (3D; each thread RY
// consecutive rows of one column) or one row of BX * RY outputs (2D; thread tx owns
// columns tx, tx + BX, ...) and marches `chunk` planes along the slowest axis. The ring
// in shared memory has W + Stages slots: the W planes the shape reaches along the
// marching axis, plus Stages planes in flight. Each plane is the tile with its in-plane
// halo, copied in 16-byte pieces, so the copy needs rows whose interior starts on a
// 16-byte boundary (views from extents have them on 128 bytes; the dispatcher checks).
// The x-halo is rounded out to whole 128-byte lines (unless the ring is deep): reading
// only the pieces the shape needs from a line the neighbouring block reads in full cost
// ~9% of the time (measured on an H100, same DRAM bytes; perf/RESULTS.md). Per step i:
//   1. wait until this thread's copies of plane i + W - 1 have landed (cp.async.wait_group
//      Stages - 1), then one __syncthreads: every thread's copies are visible, and every
//      thread has finished reading the slot about to be refilled (last read in step i - 1);
//   2. issue the copies of plane i + W + Stages - 1 into that slot (one commit group per
//      plane, empty past the chunk's end, so the group count stays in step);
//   3. compute plane i from the ring: every neighbour is a shared-memory read at a
//      compile-time offset; with RY consecutive rows per thread the compiler reuses the
//      rows two outputs share.
// Pieces outside the grid's reach are zero-filled (cp.async with source size 0): no
// global read past the ghosts, and no uninitialised shared memory is ever read.
#include <cstdint>

#include "tessera/cuda/kernels/common.cuh"

namespace tessera::cuda {
namespace kernels {

namespace async_copy {
/// Copies 16 bytes global -> shared asynchronously, or zero-fills them (valid == false).
/// Before sm_80 there is no cp.async: a synchronous load and store do the same.
__device__ inline void copy16(void* shared, const void* global, bool valid) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(global), "r"(valid ? 16 : 0)
               : "memory");
#else
  *static_cast<int4*>(shared) = valid ? *static_cast<const int4*>(global) : int4{0, 0, 0, 0};
#endif
}
__device__ inline void commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
/// Waits until at most N of this thread's commit groups are still in flight.
template <int N>
__device__ inline void wait_pending() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}
}  // namespace async_copy

template <class S, class T, int BX, int BY, int RY, int Stages>
__global__ void __launch_bounds__(BX * BY) pipelined_sweep(const params_for<S, T> p, const int chunk) {
  using L = detail::pipelined_layout<S, T, BX, BY, RY, Stages>;
  using vs = detail::vshape<S>;
  constexpr int M = L::march, LO = L::LO, W = L::W, NS = L::slots, V = L::vec;
  constexpr int SW = L::SW, PLANE = L::SH * L::SW, PPR = L::pieces_per_row;
  constexpr int THREADS = BX * BY, NP = (L::pieces + THREADS - 1) / THREADS;
  extern __shared__ __align__(16) unsigned char tessera_pipelined_shared[];
  T* ring = reinterpret_cast<T*>(tessera_pipelined_shared);  // [NS][SH][SW]

  const int tx = threadIdx.x, ty = L::has_y ? threadIdx.y : 0, me = ty * BX + tx;
  const index_t x0 = static_cast<index_t>(blockIdx.x) * L::TX;
  const index_t y0 = L::has_y ? static_cast<index_t>(blockIdx.y) * L::TY : 0;
  const index_t m0 = static_cast<index_t>(L::has_y ? blockIdx.z : blockIdx.y) * chunk;
  const int steps = static_cast<int>(min(static_cast<index_t>(chunk), p.n[M] - m0));
  const index_t ms = p.in_stride[M], oms = p.out_stride[M];
  const index_t ys = L::has_y ? p.in_stride[1] : 0, oys = L::has_y ? p.out_stride[1] : 0;
  const index_t nx = p.n[2], ny = L::has_y ? p.n[1] : 1;

  // The 16-byte pieces this thread copies per plane: piece q covers ring row q / PPR,
  // elements (q % PPR) * V .. + V - 1 of it. Where the layout rounds the x-halo out to
  // lines, ring rows are whole 128-byte lines (the interior of a row starts on one), so
  // each warp copies four whole lines. In-plane offsets are 32-bit (the plan refuses
  // larger planes).
  int piece_src[NP], piece_dst[NP];
  bool piece_mine[NP], piece_read[NP];
#pragma unroll
  for (int j = 0; j < NP; ++j) {
    const int q = me + j * THREADS;
    const int row = q / PPR, col = q % PPR * V;
    const index_t gy = y0 + row - L::RYL, gx = x0 + col - L::AXL;
    piece_mine[j] = q < L::pieces;
    // Copied only if it holds an element within the shape's reach: the rest of a halo
    // line may lie outside the row (a layout with a 16-byte row alignment).
    piece_read[j] = gy < ny + L::RYH && gx < nx + L::RXH && gx + V > -L::RXL;
    piece_src[j] = static_cast<int>(gy * ys + gx);
    piece_dst[j] = row * SW + col;
  }
  // Plane rel (= m0 + LO + rel) goes to slot rel % NS; planes past the chunk's reach are
  // not copied, but their (empty) commit group is.
  const int planes = steps + W - 1;
  auto issue = [&](int rel) {
    if (rel < planes) {
      const T* src = p.in + (m0 + LO + rel) * ms;
      T* dst = ring + rel % NS * PLANE;
#pragma unroll
      for (int j = 0; j < NP; ++j)
        if (piece_mine[j])  // a zero-filled piece reads nothing; its address is the grid's origin
          async_copy::copy16(dst + piece_dst[j], piece_read[j] ? src + piece_src[j] : p.in, piece_read[j]);
    }
    async_copy::commit();
  };

  // This thread's outputs: ring index within a plane, output offset, written or not.
  int at[RY], out_off[RY];
  bool writes[RY];
#pragma unroll
  for (int r = 0; r < RY; ++r) {
    const int cy = L::has_y ? ty * RY + r : 0, cx = L::has_y ? tx : tx + r * BX;
    at[r] = (cy + L::RYL) * SW + cx + L::AXL;
    const index_t gy = y0 + cy, gx = x0 + cx;
    out_off[r] = static_cast<int>(gy * oys + gx);
    writes[r] = gx < nx && gy < ny;
  }

#pragma unroll
  for (int rel = 0; rel < W + Stages - 1; ++rel) issue(rel);

  int slot0 = 0;  // slot of plane m + LO, i.e. of rel = i
  for (int i = 0; i < steps; ++i) {
    async_copy::wait_pending<Stages - 1>();
    __syncthreads();
    issue(i + W + Stages - 1);  // refills slot (i - 1) % NS: read for the last time in step i - 1

    // Slot of plane m + d, d = LO .. HI.
    int slot[W];
#pragma unroll
    for (int d = 0; d < W; ++d) slot[d] = (slot0 + d < NS ? slot0 + d : slot0 + d - NS) * PLANE;
    // All reads before any store: a store through the output pointer could alias shared
    // memory as far as the compiler knows, and would stop it reusing rows across r.
    T acc[RY];
#pragma unroll
    for (int r = 0; r < RY; ++r) acc[r] = 0;
    tessera::detail::static_for<vs::size>([&](auto k) {
      constexpr int K = decltype(k)::value;
      constexpr int dm = vs::off(K, M), dy = L::has_y ? vs::off(K, 1) : 0, dx = vs::off(K, 2);
      const T* plane = ring + slot[dm - LO] + dy * SW + dx;
#pragma unroll
      for (int r = 0; r < RY; ++r) acc[r] += p.c[K] * plane[at[r]];
    });
    const index_t m = m0 + i;
#pragma unroll
    for (int r = 0; r < RY; ++r)
      if (writes[r]) __stcs(p.out + m * oms + out_off[r], acc[r]);  // evict-first: L2 keeps the inputs' halo
    slot0 = slot0 + 1 == NS ? 0 : slot0 + 1;
  }
  // The groups still outstanding are empty (past the chunk's reach); wait anyway, so no
  // copy can outlive the block whatever the geometry.
  async_copy::wait_pending<0>();
}

}  // namespace kernels

template <class S, class T, int BX, int BY, int RY, int Stages>
void launch_tiles(pipelined<>, const launch_plan& plan, const params_for<S, T>& p, cudaStream_t stream) {
  static_assert(S::rank >= 2, "tessera::cuda::pipelined needs a 2D or 3D shape");
  const dim3 block(BX, BY, 1), grid = detail::grid_of(plan);
  const std::string name = pipelined<>::name();
  const void* k = reinterpret_cast<const void*>(&kernels::pipelined_sweep<S, T, BX, BY, RY, Stages>);
  if (plan.needs_shared_opt_in) detail::allow_shared_bytes(k, plan.shared_bytes, name);
  kernels::pipelined_sweep<S, T, BX, BY, RY, Stages><<<grid, block, plan.shared_bytes, stream>>>(p, plan.chunk);
  detail::finish_launch("pipelined_sweep", name, shape_name<S>(), plan, block, grid);
}

}  // namespace tessera::cuda
