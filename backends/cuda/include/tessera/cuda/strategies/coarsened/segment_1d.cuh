#pragma once
// cuda::coarsened's 1D kernel (the notes' derivative kernel, each thread several outputs): a
// block computes a whole segment of outputs, the segment and the reach's halo cells staged
// in dynamic shared memory sized at launch (extern __shared__). nvcc only.
#include "tessera/cuda/kernels/common.cuh"

namespace tessera::cuda::kernels {

/// A block of Threads threads computes Threads * OutputsPerThread consecutive outputs
/// (consecutive threads, consecutive outputs); the segment and its halo (reach_hi -
/// reach_lo cells) are staged in dynamic shared memory.
template <class S, class T, int Threads, int OutputsPerThread>
__global__ void __launch_bounds__(Threads) segment_sweep_1d(const params_for<S, T> p) {
  detail::begin_after_previous_grid();  // first: the sweep before may still run
  using vs = detail::vshape<S>;
  extern __shared__ unsigned char tessera_shared[];
  T* seg = reinterpret_cast<T*>(tessera_shared);
  const index_t x0 = static_cast<index_t>(blockIdx.x) * (Threads * OutputsPerThread);
  const index_t outputs = min(static_cast<index_t>(Threads * OutputsPerThread), p.n[2] - x0);
  const index_t cells = outputs + vs::width(2);
  for (index_t i = threadIdx.x; i < cells; i += Threads) seg[i] = p.in[x0 + vs::lo(2) + i];
  __syncthreads();
#pragma unroll
  for (int j = 0; j < OutputsPerThread; ++j) {
    const int i = j * Threads + threadIdx.x;
    if (i >= outputs) break;
    T acc = 0;
    tessera::detail::static_for<vs::size>([&](auto k) {
      constexpr int K = decltype(k)::value;
      acc += p.template term<K>(seg[i + vs::off(K, 2) - vs::lo(2)]);
    });
    p.out[x0 + i] = acc;
  }
}

}  // namespace tessera::cuda::kernels
