#pragma once
// register_tiled: as coarsened, but only the current plane is in shared memory (where
// the in-plane neighbours are read); the z-neighbours (2D: y-neighbours) of each thread's
// column live in its registers — reach_hi - reach_lo + 1 values, shifted one step per
// plane. Shared memory drops from (2r + 1) planes to one, so larger tiles and more
// blocks fit. Serves shapes whose off-plane points all lie on the marching axis.
#include "tessera/cuda/kernels/coarsened.cuh"

namespace tessera::cuda {
namespace kernels {

template <class S, class T, int BX, int BY, int Chunk>
__global__ void __launch_bounds__(BX * BY) register_tiled_sweep(const params_for<S, T> p) {
  static_assert(shape_traits<S>::slow_axis_neighbours_on_axis && S::rank >= 2,
                "register_tiled_sweep: the shape's off-plane points must lie on the marching axis");
  using vs = detail::vshape<S>;
  using mg = marching<S>;
  constexpr int M = mg::M, P = mg::planes;
  __shared__ T plane[BY][BX];
  const column c = locate_column<S, BX, BY, Chunk>(p);
  const int tx = c.tx, ty = c.ty;
  const index_t m0 = c.m0, m_end = c.m_end, in_plane = c.in_plane, ms_in = c.ms_in;
  const bool plane_ok = c.loads;

  // window[j] holds plane m + lo + j of this thread's (y, x); window[-lo] is the centre.
  T window[P];
#pragma unroll
  for (int q = 0; q < P - 1; ++q)
    window[q] = plane_ok ? p.in[(m0 + vs::lo(M) + q) * ms_in + in_plane] : T(0);

  for (index_t m = m0; m < m_end; ++m) {
    window[P - 1] = plane_ok ? p.in[(m + vs::hi(M)) * ms_in + in_plane] : T(0);
    plane[ty][tx] = window[-vs::lo(M)];
    __syncthreads();
    if (c.computes) {
      T acc = 0;
      tessera::detail::static_for<vs::size>([&](auto k) {
        constexpr int K = decltype(k)::value;
        if constexpr (mg::dm(K) == 0)
          acc += p.c[K] * plane[ty + mg::dy(K)][tx + mg::dx(K)];
        else
          acc += p.c[K] * window[mg::dm(K) - vs::lo(M)];
      });
      p.out[m * c.ms_out + c.out_plane] = acc;
    }
    __syncthreads();  // the next step overwrites the plane
#pragma unroll
    for (int q = 0; q < P - 1; ++q) window[q] = window[q + 1];
  }
}

}  // namespace kernels

template <class S, class T, int BX, int BY, int BZ, int Chunk>
void launch_tiles(register_tiled<>, const launch_plan& plan, const params_for<S, T>& p, cudaStream_t stream) {
  static_assert(has_kernel_v<register_tiled<>, S>,
                "tessera::cuda::register_tiled has no kernel for this shape (see its plan's reason)");
  const dim3 block(BX, BY, BZ), grid = detail::grid_of(plan);
  kernels::register_tiled_sweep<S, T, BX, BY, Chunk><<<grid, block, 0, stream>>>(p);
  detail::finish_launch("register_tiled_sweep", register_tiled<>::name(), shape_name<S>(), plan, block, grid);
}

}  // namespace tessera::cuda
