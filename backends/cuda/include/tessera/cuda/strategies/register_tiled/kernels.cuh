#pragma once
// cuda::register_tiled's kernel (nvcc only): the current plane in shared memory, the planes
// before and after it in each thread's registers.
#include "tessera/cuda/strategies/register_tiled.hpp"
#include "tessera/cuda/kernels/marching.cuh"
#include "tessera/cuda/point_function_streaming.cuh"

namespace tessera::cuda::kernels {

/// S: the shape; T: the element type; TileX x TileY: the xy input tile (halo included) and
/// the block; Chunk: output planes the block marches.
template <class S, class T, int TileX, int TileY, int Chunk>
__global__ void __launch_bounds__(TileX * TileY) register_tiled_sweep(const params_for<S, T> p) {
  detail::begin_after_previous_grid();  // first: the sweep before may still run
  static_assert(shape_traits<S>::slow_axis_neighbours_on_axis && S::rank >= 2,
                "register_tiled_sweep: the shape's off-plane points must lie on the marching axis");
  using vs = detail::vshape<S>;
  using mg = marching<S>;
  constexpr int march = mg::march, planes = mg::planes;
  __shared__ T plane[TileY][TileX];
  const column c = locate_column<S, TileX, TileY, Chunk>(p);
  const int tx = c.tx, ty = c.ty;
  const index_t m0 = c.m0, m_end = c.m_end, in_plane = c.in_plane, ms_in = c.ms_in;
  const bool plane_ok = c.loads;

  // window[j] holds plane m + lo + j of this thread's (y, x); window[-lo] is the centre.
  T window[planes];
#pragma unroll
  for (int q = 0; q < planes - 1; ++q)
    window[q] = plane_ok ? p.in[(m0 + vs::lo(march) + q) * ms_in + in_plane] : T(0);

  for (index_t m = m0; m < m_end; ++m) {
    window[planes - 1] = plane_ok ? p.in[(m + vs::hi(march)) * ms_in + in_plane] : T(0);
    plane[ty][tx] = window[-vs::lo(march)];
    __syncthreads();
    if (c.computes) {
      T acc = 0;
      tessera::detail::static_for<vs::size>([&](auto k) {
        constexpr int K = decltype(k)::value;
        if constexpr (mg::dm(K) == 0)
          acc += p.template term<K>(plane[ty + mg::dy(K)][tx + mg::dx(K)]);
        else
          acc += p.template term<K>(window[mg::dm(K) - vs::lo(march)]);
      });
      p.out[m * c.ms_out + c.out_plane] = acc;
    }
    __syncthreads();  // the next step overwrites the plane
#pragma unroll
    for (int q = 0; q < planes - 1; ++q) window[q] = window[q + 1];
  }
}

}  // namespace tessera::cuda::kernels

namespace tessera::cuda {

template <class S, class T, class Tile>
void launch_sweep(register_tiled<>, sweep_of<S, T, Tile>, const launch_plan& plan, const params_for<S, T>& p,
                  cudaStream_t stream) {
  detail::launch_kernel_after_previous(&kernels::register_tiled_sweep<S, T, Tile::tile_x, Tile::tile_y, Tile::chunk>,
                        "register_tiled_sweep", register_tiled<>::name(), shape_name<S>(), plan, dim3(Tile::tile_x, Tile::tile_y, 1),
                        0, stream, p);
}

}  // namespace tessera::cuda
