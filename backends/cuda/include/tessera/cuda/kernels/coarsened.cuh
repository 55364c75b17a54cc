#pragma once
// coarsened: thread coarsening with 2.5D slicing. A block of the xy input tile (2D: the
// x input tile) marches Chunk output planes along z (2D: rows along y). The planes the
// shape reaches along z — reach_lo .. reach_hi, 2r + 1 for a star — stay in shared memory
// as a ring: each step loads one new plane and the oldest slot is reused, so every input
// element is loaded from global memory once per block (plus the xy halo). With the
// block limited to 2D, the tile can be 32 x 32 where the 3D tiled kernel had 8 x 8 x 8.
// 1D coarsening (each thread computes Chunk outputs of a shared segment) is in tiled.cuh.
#include "tessera/cuda/kernels/tiled.cuh"

namespace tessera::cuda {
namespace kernels {

/// The marching geometry shared with register_tiled: M is the marched virtual axis
/// (0 = z for 3D grids, 1 = y for 2D), HasY whether the plane has a y extent.
template <class S>
struct marching {
  using vs = detail::vshape<S>;
  static constexpr int M = 3 - S::rank;
  static constexpr bool has_y = S::rank == 3;
  static constexpr int planes = vs::width(M) + 1;
  static constexpr int dm(int k) { return vs::off(k, M); }
  static constexpr int dy(int k) { return has_y ? vs::off(k, 1) : 0; }
  static constexpr int dx(int k) { return vs::off(k, 2); }
};

/// Where one thread of a marching block sits: its column (x, and y in 3D) in the input
/// tile, the slice [m0, m_end) of the marched axis the block covers, and whether the
/// thread loads (its column lies inside the input's reach) and computes (an inner thread
/// of the tile whose output lies inside the grid).
struct column {
  int tx, ty;
  index_t m0, m_end;       // outputs along the marched axis
  index_t in_plane, out_plane;  // offset of the column within a plane
  index_t ms_in, ms_out;   // stride of the marched axis
  bool loads, computes;
};

template <class S, int BX, int BY, int Chunk, class Params>
__device__ column locate_column(const Params& p) {
  using vs = detail::vshape<S>;
  using mg = marching<S>;
  constexpr int OX = BX - vs::width(2), OY = mg::has_y ? BY - vs::width(1) : 1;
  column c;
  c.tx = threadIdx.x;
  c.ty = mg::has_y ? threadIdx.y : 0;
  const index_t gx = static_cast<index_t>(blockIdx.x) * OX + vs::lo(2) + c.tx;
  const index_t gy = mg::has_y ? static_cast<index_t>(blockIdx.y) * OY + vs::lo(1) + c.ty : 0;
  c.m0 = static_cast<index_t>(mg::has_y ? blockIdx.z : blockIdx.y) * Chunk;
  c.m_end = min(c.m0 + Chunk, p.n[mg::M]);
  c.loads = gx < p.n[2] + vs::hi(2) && (!mg::has_y || gy < p.n[1] + vs::hi(1));
  c.in_plane = (mg::has_y ? gy * p.in_stride[1] : 0) + gx;
  c.out_plane = (mg::has_y ? gy * p.out_stride[1] : 0) + gx;
  c.ms_in = p.in_stride[mg::M];
  c.ms_out = p.out_stride[mg::M];
  c.computes = c.tx + vs::lo(2) >= 0 && c.tx + vs::lo(2) < OX && gx < p.n[2] &&
               (!mg::has_y || (c.ty + vs::lo(1) >= 0 && c.ty + vs::lo(1) < OY && gy < p.n[1]));
  return c;
}

template <class S, class T, int BX, int BY, int Chunk>
__global__ void __launch_bounds__(BX * BY) coarsened_sweep(const params_for<S, T> p) {
  using vs = detail::vshape<S>;
  using mg = marching<S>;
  constexpr int M = mg::M, P = mg::planes;
  extern __shared__ unsigned char tessera_shared[];
  T* ring = reinterpret_cast<T*>(tessera_shared);  // [P][BY][BX]
  const column c = locate_column<S, BX, BY, Chunk>(p);
  const int tx = c.tx, ty = c.ty, me = ty * BX + tx;
  const index_t m0 = c.m0, m_end = c.m_end, in_plane = c.in_plane, ms_in = c.ms_in;
  const bool plane_ok = c.loads;

  // Prime the ring with planes m0 + lo .. m0 + hi - 1; slot q holds plane m0 + lo + q (mod P).
#pragma unroll
  for (int q = 0; q < P - 1; ++q)
    ring[q * BX * BY + me] = plane_ok ? p.in[(m0 + vs::lo(M) + q) * ms_in + in_plane] : T(0);

  for (index_t m = m0; m < m_end; ++m) {
    const int i = static_cast<int>(m - m0);
    ring[((i + P - 1) % P) * BX * BY + me] = plane_ok ? p.in[(m + vs::hi(M)) * ms_in + in_plane] : T(0);
    __syncthreads();
    if (c.computes) {
      T acc = 0;
      tessera::detail::static_for<vs::size>([&](auto k) {
        constexpr int K = decltype(k)::value;
        const int slot = (i + mg::dm(K) - vs::lo(M)) % P;
        acc += p.c[K] * ring[slot * BX * BY + (ty + mg::dy(K)) * BX + tx + mg::dx(K)];
      });
      p.out[m * c.ms_out + c.out_plane] = acc;
    }
    __syncthreads();  // the next step overwrites the oldest slot
  }
}

}  // namespace kernels

template <class S, class T, int BX, int BY, int BZ, int Chunk>
void launch_tiles(coarsened<>, const launch_plan& plan, const params_for<S, T>& p, cudaStream_t stream) {
  const dim3 block(BX, BY, BZ), grid = detail::grid_of(plan);
  const std::string name = coarsened<>::name();
  if constexpr (S::rank == 1) {
    const void* k = reinterpret_cast<const void*>(&kernels::segment_sweep_1d<S, T, BX, Chunk>);
    if (plan.needs_shared_opt_in) detail::allow_shared_bytes(k, plan.shared_bytes, name);
    kernels::segment_sweep_1d<S, T, BX, Chunk><<<grid, block, plan.shared_bytes, stream>>>(p);
    detail::finish_launch("segment_sweep_1d", name, shape_name<S>(), plan, block, grid);
  } else {
    const void* k = reinterpret_cast<const void*>(&kernels::coarsened_sweep<S, T, BX, BY, Chunk>);
    if (plan.needs_shared_opt_in) detail::allow_shared_bytes(k, plan.shared_bytes, name);
    kernels::coarsened_sweep<S, T, BX, BY, Chunk><<<grid, block, plan.shared_bytes, stream>>>(p);
    detail::finish_launch("coarsened_sweep", name, shape_name<S>(), plan, block, grid);
  }
}

}  // namespace tessera::cuda
