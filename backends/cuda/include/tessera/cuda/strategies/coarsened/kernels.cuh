#pragma once
// cuda::coarsened's kernels (nvcc only): 2.5D slicing, a ring of the planes the shape
// reaches in shared memory, rotated as the block marches (1D: segment_sweep_1d with
// several outputs a thread).
#include "tessera/cuda/strategies/coarsened.hpp"
#include "tessera/cuda/kernels/marching.cuh"
#include "tessera/cuda/strategies/coarsened/segment_1d.cuh"
#include "tessera/cuda/point_function_ring.cuh"
#include "tessera/cuda/point_function_tiled.cuh"

namespace tessera::cuda::kernels {

/// S: the shape; T: the element type; TileX x TileY: the xy input tile (halo included) and
/// the block; Chunk: output planes the block marches.
template <class S, class T, int TileX, int TileY, int Chunk>
__global__ void __launch_bounds__(TileX * TileY) coarsened_sweep(const params_for<S, T> p) {
  detail::begin_after_previous_grid();  // first: the sweep before may still run
  using vs = detail::vshape<S>;
  using mg = marching<S>;
  constexpr int march = mg::march, planes = mg::planes;
  extern __shared__ unsigned char tessera_shared[];
  T* ring = reinterpret_cast<T*>(tessera_shared);  // [P][TileY][TileX]
  const column c = locate_column<S, TileX, TileY, Chunk>(p);
  const int tx = c.tx, ty = c.ty, me = ty * TileX + tx;
  const index_t m0 = c.m0, m_end = c.m_end, in_plane = c.in_plane, ms_in = c.ms_in;
  const bool plane_ok = c.loads;
  constexpr int plane_cells = TileX * TileY;

  // Prime the ring with planes m0 + lo .. m0 + hi - 1; slot q holds plane m0 + lo + q (mod P).
#pragma unroll
  for (int q = 0; q < planes - 1; ++q)
    ring[q * plane_cells + me] = plane_ok ? p.in[(m0 + vs::lo(march) + q) * ms_in + in_plane] : T(0);

  for (index_t m = m0; m < m_end; ++m) {
    const int i = static_cast<int>(m - m0);
    ring[((i + planes - 1) % planes) * plane_cells + me] =
        plane_ok ? p.in[(m + vs::hi(march)) * ms_in + in_plane] : T(0);
    __syncthreads();
    if (c.computes) {
      T acc = 0;
      tessera::detail::static_for<vs::size>([&](auto k) {
        constexpr int K = decltype(k)::value;
        const int slot = (i + mg::dm(K) - vs::lo(march)) % planes;
        acc += p.template term<K>(ring[slot * plane_cells + (ty + mg::dy(K)) * TileX + tx + mg::dx(K)]);
      });
      p.out[m * c.ms_out + c.out_plane] = acc;
    }
    __syncthreads();  // the next step overwrites the oldest slot
  }
}

}  // namespace tessera::cuda::kernels

namespace tessera::cuda {

template <class S, class T, class Tile>
void launch_sweep(coarsened<>, sweep_of<S, T, Tile>, const launch_plan& plan, const params_for<S, T>& p,
                  cudaStream_t stream) {
  const dim3 block(Tile::tile_x, Tile::tile_y, 1);
  if constexpr (S::rank == 1)
    detail::launch_kernel_after_previous(&kernels::segment_sweep_1d<S, T, Tile::tile_x, Tile::chunk>, "segment_sweep_1d", coarsened<>::name(),
                          shape_name<S>(), plan, block, plan.shared_bytes, stream, p);
  else
    detail::launch_kernel_after_previous(&kernels::coarsened_sweep<S, T, Tile::tile_x, Tile::tile_y, Tile::chunk>,
                          "coarsened_sweep", coarsened<>::name(), shape_name<S>(), plan, block, plan.shared_bytes, stream, p);
}

}  // namespace tessera::cuda
