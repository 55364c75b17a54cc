#pragma once
// naive: one thread per output point, every read from global memory (the caches do what
// reuse there is). For the 7-point star: 7 loads + 1 store of 4 bytes per 13 flops, an
// arithmetic intensity of 13 / 28 = 0.46 flop/byte when nothing is cached.
#include "tessera/cuda/kernels/common.cuh"

namespace tessera::cuda {
namespace kernels {

template <class S, class T, int BX, int BY, int BZ>
__global__ void __launch_bounds__(BX * BY * BZ) naive_sweep(const params_for<S, T> p) {
  using vs = detail::vshape<S>;
  const index_t x = static_cast<index_t>(blockIdx.x) * BX + threadIdx.x;
  const index_t y = static_cast<index_t>(blockIdx.y) * BY + threadIdx.y;
  const index_t z = static_cast<index_t>(blockIdx.z) * BZ + threadIdx.z;
  if (x >= p.n[2] || y >= p.n[1] || z >= p.n[0]) return;
  const T* in = p.in + z * p.in_stride[0] + y * p.in_stride[1] + x;
  T acc = 0;
  tessera::detail::static_for<vs::size>([&](auto k) {
    constexpr int K = decltype(k)::value;
    acc += p.c[K] * in[vs::off(K, 0) * p.in_stride[0] + vs::off(K, 1) * p.in_stride[1] + vs::off(K, 2)];
  });
  p.out[z * p.out_stride[0] + y * p.out_stride[1] + x] = acc;
}

}  // namespace kernels

template <class S, class T, int BX, int BY, int BZ, int Chunk>
void launch_tiles(naive<>, const launch_plan& plan, const params_for<S, T>& p, cudaStream_t stream) {
  const dim3 block(BX, BY, BZ), grid = detail::grid_of(plan);
  kernels::naive_sweep<S, T, BX, BY, BZ><<<grid, block, 0, stream>>>(p);
  detail::finish_launch("naive_sweep", naive<>::name(), shape_name<S>(), plan, block, grid);
}

}  // namespace tessera::cuda
