#pragma once
// cuda::tiled's kernel (nvcc only): a block stages its input tile, halo included, in shared
// memory, one thread an input cell, and the inner threads compute (1D: segment_sweep_1d).
#include "tessera/cuda/strategies/tiled.hpp"
#include "tessera/cuda/kernels/segment_1d.cuh"
#include "tessera/cuda/point_function_tiled.cuh"

namespace tessera::cuda::kernels {

/// S: the shape; T: the element type; TileX x TileY x TileZ: the input tile (halo
/// included) and the block, one thread per input cell.
template <class S, class T, int TileX, int TileY, int TileZ>
__global__ void __launch_bounds__(TileX * TileY * TileZ) tiled_sweep(const params_for<S, T> p) {
  detail::begin_after_previous_grid();  // first: the sweep before may still run
  using vs = detail::vshape<S>;
  extern __shared__ unsigned char tessera_shared[];
  T* tile = reinterpret_cast<T*>(tessera_shared);
  // outputs per tile along each axis
  constexpr int out_x = TileX - vs::width(2), out_y = TileY - vs::width(1), out_z = TileZ - vs::width(0);
  const int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
  // Input coordinate this thread loads; for an inner thread also its output coordinate.
  const index_t gx = static_cast<index_t>(blockIdx.x) * out_x + vs::lo(2) + tx;
  const index_t gy = static_cast<index_t>(blockIdx.y) * out_y + vs::lo(1) + ty;
  const index_t gz = static_cast<index_t>(blockIdx.z) * out_z + vs::lo(0) + tz;
  const bool in_range = gx < p.n[2] + vs::hi(2) && gy < p.n[1] + vs::hi(1) && gz < p.n[0] + vs::hi(0);
  tile[(tz * TileY + ty) * TileX + tx] = in_range ? p.in[gz * p.in_stride[0] + gy * p.in_stride[1] + gx] : T(0);
  __syncthreads();
  const int ix = tx + vs::lo(2), iy = ty + vs::lo(1), iz = tz + vs::lo(0);
  if (ix < 0 || ix >= out_x || iy < 0 || iy >= out_y || iz < 0 || iz >= out_z) return;  // halo thread
  if (gx >= p.n[2] || gy >= p.n[1] || gz >= p.n[0]) return;                             // partial tile
  T acc = 0;
  tessera::detail::static_for<vs::size>([&](auto k) {
    constexpr int K = decltype(k)::value;
    acc += p.template term<K>(tile[((tz + vs::off(K, 0)) * TileY + ty + vs::off(K, 1)) * TileX + tx + vs::off(K, 2)]);
  });
  p.out[gz * p.out_stride[0] + gy * p.out_stride[1] + gx] = acc;
}

}  // namespace tessera::cuda::kernels

namespace tessera::cuda {

template <class S, class T, class Tile>
void launch_sweep(tiled<>, sweep_of<S, T, Tile>, const launch_plan& plan, const params_for<S, T>& p,
                  cudaStream_t stream) {
  const dim3 block(Tile::tile_x, Tile::tile_y, Tile::tile_z);
  if constexpr (S::rank == 1)
    detail::launch_kernel_after_previous(&kernels::segment_sweep_1d<S, T, Tile::tile_x, 1>, "segment_sweep_1d", tiled<>::name(),
                          shape_name<S>(), plan, block, plan.shared_bytes, stream, p);
  else
    detail::launch_kernel_after_previous(&kernels::tiled_sweep<S, T, Tile::tile_x, Tile::tile_y, Tile::tile_z>, "tiled_sweep",
                          tiled<>::name(), shape_name<S>(), plan, block, plan.shared_bytes, stream, p);
}

}  // namespace tessera::cuda
