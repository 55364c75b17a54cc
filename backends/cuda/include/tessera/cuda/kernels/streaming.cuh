#pragma once
// streaming: beyond the textbook. A block owns a BX x BY tile of output columns — no
// halo threads, no shared memory, no __syncthreads — and marches Chunk planes along the
// slowest axis (z in 3D, y in 2D). Each thread keeps its own column's reach along that
// axis (reach_lo .. reach_hi) in registers and loads one new input value per step, so
// the column loads stream every input byte from DRAM about once. Every other neighbour
// (in-plane, or a box's off-axis points) is a load of a line an adjacent thread has just
// brought in, served by L1/L2. Unlike register tiling it serves every shape.
#include "tessera/cuda/kernels/coarsened.cuh"

namespace tessera::cuda {
namespace kernels {

template <class S, class T, int BX, int BY, int Chunk>
__global__ void __launch_bounds__(BX * BY) streaming_sweep(const params_for<S, T> p) {
  using vs = detail::vshape<S>;
  using mg = marching<S>;
  constexpr int M = mg::M, P = mg::planes, LO = vs::lo(M), HI = vs::hi(M);
  const index_t gx = static_cast<index_t>(blockIdx.x) * BX + threadIdx.x;
  const index_t gy = mg::has_y ? static_cast<index_t>(blockIdx.y) * BY + threadIdx.y : 0;
  if (gx >= p.n[2] || (mg::has_y && gy >= p.n[1])) return;  // no barrier below: leave early
  const index_t m0 = static_cast<index_t>(mg::has_y ? blockIdx.z : blockIdx.y) * Chunk;
  const index_t m_end = min(m0 + Chunk, p.n[M]);
  const index_t ms = p.in_stride[M], oms = p.out_stride[M];
  const index_t ys = mg::has_y ? p.in_stride[1] : 0;
  const T* __restrict__ col = p.in + gy * ys + gx;
  T* __restrict__ out_col = p.out + (mg::has_y ? gy * p.out_stride[1] : 0) + gx;

  // window[j] = input at plane m + LO + j of this column; window[-LO] is the centre.
  T window[P];
#pragma unroll
  for (int q = 0; q < P - 1; ++q) window[q] = col[(m0 + LO + q) * ms];

#pragma unroll 2
  for (index_t m = m0; m < m_end; ++m) {
    const T* __restrict__ pm = col + m * ms;
    window[P - 1] = pm[HI * ms];
    T acc = 0;
    tessera::detail::static_for<vs::size>([&](auto k) {
      constexpr int K = decltype(k)::value;
      constexpr int dm = mg::dm(K), dy = mg::dy(K), dx = mg::dx(K);
      if constexpr (dy == 0 && dx == 0)
        acc += p.c[K] * window[dm - LO];
      else
        acc += p.c[K] * __ldg(pm + dm * ms + dy * ys + dx);
    });
    out_col[m * oms] = acc;
#pragma unroll
    for (int q = 0; q < P - 1; ++q) window[q] = window[q + 1];
  }
}

}  // namespace kernels

template <class S, class T, int BX, int BY, int BZ, int Chunk>
void launch_tiles(streaming<>, const launch_plan& plan, const params_for<S, T>& p, cudaStream_t stream) {
  static_assert(S::rank >= 2, "tessera::cuda::streaming needs a 2D or 3D shape");
  const dim3 block(BX, BY, BZ), grid = detail::grid_of(plan);
  kernels::streaming_sweep<S, T, BX, BY, Chunk><<<grid, block, 0, stream>>>(p);
  detail::finish_launch("streaming_sweep", streaming<>::name(), shape_name<S>(), plan, block, grid);
}

}  // namespace tessera::cuda
