#pragma once
// tiled: one block per input tile (halo included), loaded cooperatively into shared
// memory, one element per thread; only the inner threads compute. For the 7-point star
// and an 8^3 tile (the block-size limit allows no 16^3), 6^3 outputs per 8^3 loads: the
// intensity reaches 3.25 * (1 - 2/8)^3 = 1.37 flop/byte at best, and the halo threads
// idle during the compute phase.
//
// 1D follows the notes' derivative kernel instead: the block computes its whole tile
// and the reach's halo cells are appended in dynamic shared memory sized at launch
// (extern __shared__); the same kernel with `Chunk` outputs per thread is 1D coarsening.
#include "tessera/cuda/kernels/common.cuh"

namespace tessera::cuda {
namespace kernels {

template <class S, class T, int BX, int BY, int BZ>
__global__ void __launch_bounds__(BX * BY * BZ) tiled_sweep(const params_for<S, T> p) {
  using vs = detail::vshape<S>;
  extern __shared__ unsigned char tessera_shared[];
  T* tile = reinterpret_cast<T*>(tessera_shared);
  constexpr int OX = BX - vs::width(2), OY = BY - vs::width(1), OZ = BZ - vs::width(0);
  const int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
  // Input coordinate this thread loads; for an inner thread also its output coordinate.
  const index_t gx = static_cast<index_t>(blockIdx.x) * OX + vs::lo(2) + tx;
  const index_t gy = static_cast<index_t>(blockIdx.y) * OY + vs::lo(1) + ty;
  const index_t gz = static_cast<index_t>(blockIdx.z) * OZ + vs::lo(0) + tz;
  const bool in_range = gx < p.n[2] + vs::hi(2) && gy < p.n[1] + vs::hi(1) && gz < p.n[0] + vs::hi(0);
  tile[(tz * BY + ty) * BX + tx] = in_range ? p.in[gz * p.in_stride[0] + gy * p.in_stride[1] + gx] : T(0);
  __syncthreads();
  const int ix = tx + vs::lo(2), iy = ty + vs::lo(1), iz = tz + vs::lo(0);
  if (ix < 0 || ix >= OX || iy < 0 || iy >= OY || iz < 0 || iz >= OZ) return;  // halo thread
  if (gx >= p.n[2] || gy >= p.n[1] || gz >= p.n[0]) return;                   // partial tile
  T acc = 0;
  tessera::detail::static_for<vs::size>([&](auto k) {
    constexpr int K = decltype(k)::value;
    acc += p.c[K] * tile[((tz + vs::off(K, 0)) * BY + ty + vs::off(K, 1)) * BX + tx + vs::off(K, 2)];
  });
  p.out[gz * p.out_stride[0] + gy * p.out_stride[1] + gx] = acc;
}

/// 1D: a block of B threads computes B * Chunk consecutive outputs; the segment and its
/// halo (reach_hi - reach_lo cells) are staged in dynamic shared memory.
template <class S, class T, int B, int Chunk>
__global__ void __launch_bounds__(B) segment_sweep_1d(const params_for<S, T> p) {
  using vs = detail::vshape<S>;
  extern __shared__ unsigned char tessera_shared[];
  T* seg = reinterpret_cast<T*>(tessera_shared);
  const index_t x0 = static_cast<index_t>(blockIdx.x) * (B * Chunk);
  const index_t outputs = min(static_cast<index_t>(B * Chunk), p.n[2] - x0);
  const index_t cells = outputs + vs::width(2);
  for (index_t i = threadIdx.x; i < cells; i += B) seg[i] = p.in[x0 + vs::lo(2) + i];
  __syncthreads();
#pragma unroll
  for (int j = 0; j < Chunk; ++j) {
    const int i = j * B + threadIdx.x;  // consecutive threads, consecutive outputs
    if (i >= outputs) break;
    T acc = 0;
    tessera::detail::static_for<vs::size>([&](auto k) {
      constexpr int K = decltype(k)::value;
      acc += p.c[K] * seg[i + vs::off(K, 2) - vs::lo(2)];
    });
    p.out[x0 + i] = acc;
  }
}

}  // namespace kernels

template <class S, class T, int BX, int BY, int BZ, int Chunk>
void launch_tiles(tiled<>, const launch_plan& plan, const params_for<S, T>& p, cudaStream_t stream) {
  const dim3 block(BX, BY, BZ), grid = detail::grid_of(plan);
  const std::string name = tiled<>::name();
  if constexpr (S::rank == 1) {
    const void* k = reinterpret_cast<const void*>(&kernels::segment_sweep_1d<S, T, BX, 1>);
    if (plan.needs_shared_opt_in) detail::allow_shared_bytes(k, plan.shared_bytes, name);
    kernels::segment_sweep_1d<S, T, BX, 1><<<grid, block, plan.shared_bytes, stream>>>(p);
    detail::finish_launch("segment_sweep_1d", name, shape_name<S>(), plan, block, grid);
  } else {
    const void* k = reinterpret_cast<const void*>(&kernels::tiled_sweep<S, T, BX, BY, BZ>);
    if (plan.needs_shared_opt_in) detail::allow_shared_bytes(k, plan.shared_bytes, name);
    kernels::tiled_sweep<S, T, BX, BY, BZ><<<grid, block, plan.shared_bytes, stream>>>(p);
    detail::finish_launch("tiled_sweep", name, shape_name<S>(), plan, block, grid);
  }
}

}  // namespace tessera::cuda
