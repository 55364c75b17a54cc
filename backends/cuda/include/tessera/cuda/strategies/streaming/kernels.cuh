#pragma once
// cuda::streaming's kernel (nvcc only): one output column a thread, the column's reach along
// the slowest axis held in registers, every other neighbour a load served by L1/L2.
#include "tessera/cuda/strategies/streaming.hpp"
#include "tessera/cuda/kernels/marching.cuh"
#include "tessera/cuda/point_function_streaming.cuh"

namespace tessera::cuda::kernels {

/// S: the shape; T: the element type; BlockX x BlockY: the block, one output column per
/// thread; Chunk: planes the block marches.
template <class S, class T, int BlockX, int BlockY, int Chunk>
__global__ void __launch_bounds__(BlockX * BlockY) streaming_sweep(const params_for<S, T> p) {
  detail::begin_after_previous_grid();  // first: the sweep before may still run
  using vs = detail::vshape<S>;
  using mg = marching<S>;
  constexpr int march = mg::march, planes = mg::planes, march_lo = vs::lo(march), march_hi = vs::hi(march);
  const index_t gx = static_cast<index_t>(blockIdx.x) * BlockX + threadIdx.x;
  const index_t gy = mg::has_y ? static_cast<index_t>(blockIdx.y) * BlockY + threadIdx.y : 0;
  if (gx >= p.n[2] || (mg::has_y && gy >= p.n[1])) return;  // no barrier below: leave early
  const index_t m0 = static_cast<index_t>(mg::has_y ? blockIdx.z : blockIdx.y) * Chunk;
  const index_t m_end = min(m0 + Chunk, p.n[march]);
  const index_t ms = p.in_stride[march], oms = p.out_stride[march];
  const index_t ys = mg::has_y ? p.in_stride[1] : 0;
  const T* __restrict__ col = p.in + gy * ys + gx;
  T* __restrict__ out_col = p.out + (mg::has_y ? gy * p.out_stride[1] : 0) + gx;

  // window[j] = input at plane m + LO + j of this column; window[-LO] is the centre.
  T window[planes];
#pragma unroll
  for (int q = 0; q < planes - 1; ++q) window[q] = col[(m0 + march_lo + q) * ms];

#pragma unroll 2
  for (index_t m = m0; m < m_end; ++m) {
    const T* __restrict__ pm = col + m * ms;
    window[planes - 1] = pm[march_hi * ms];
    T acc = 0;
    tessera::detail::static_for<vs::size>([&](auto k) {
      constexpr int K = decltype(k)::value;
      constexpr int dm = mg::dm(K), dy = mg::dy(K), dx = mg::dx(K);
      if constexpr (dy == 0 && dx == 0)
        acc += p.template term<K>(window[dm - march_lo]);
      else
        acc += p.template term<K>(__ldg(pm + dm * ms + dy * ys + dx));
    });
    out_col[m * oms] = acc;
#pragma unroll
    for (int q = 0; q < planes - 1; ++q) window[q] = window[q + 1];
  }
}

}  // namespace tessera::cuda::kernels

namespace tessera::cuda {

template <class S, class T, class Tile>
void launch_sweep(streaming<>, sweep_of<S, T, Tile>, const launch_plan& plan, const params_for<S, T>& p,
                  cudaStream_t stream) {
  detail::launch_kernel_after_previous(&kernels::streaming_sweep<S, T, Tile::block_x, Tile::block_y, Tile::chunk>,
                        "streaming_sweep", streaming<>::name(), shape_name<S>(), plan, dim3(Tile::block_x, Tile::block_y, 1), 0,
                        stream, p);
}

}  // namespace tessera::cuda
