#pragma once
// The geometry of kernels that march along the slowest axis (z in 3D, y in 2D): the
// shape's offsets relative to the marched axis, where one thread of a marching block
// (coarsened, register_tiled) sits, and the register queue of planes a thread moves on
// each step (temporal_blocking's passes). nvcc only.
#include "tessera/cuda/kernels/common.cuh"

namespace tessera::cuda::kernels {

/// The marching geometry: march is the marched virtual axis (0 = z for 3D grids, 1 = y
/// for 2D), has_y whether a plane has a y extent, planes the shape's reach along the
/// marched axis plus the centre, dm/dy/dx point k's offsets along the marched axis, y, x.
template <class S>
struct marching {
  using vs = detail::vshape<S>;
  static constexpr int march = 3 - S::rank;
  static constexpr bool has_y = S::rank == 3;
  static constexpr int planes = vs::width(march) + 1;
  static constexpr int dm(int k) { return vs::off(k, march); }
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

/// TileX x TileY: the block (the input tile); Chunk: outputs the block computes along the
/// marched axis.
template <class S, int TileX, int TileY, int Chunk, class Params>
__device__ column locate_column(const Params& p) {
  using vs = detail::vshape<S>;
  using mg = marching<S>;
  // outputs per tile along x and y
  constexpr int out_x = TileX - vs::width(2), out_y = mg::has_y ? TileY - vs::width(1) : 1;
  column c;
  c.tx = threadIdx.x;
  c.ty = mg::has_y ? threadIdx.y : 0;
  const index_t gx = static_cast<index_t>(blockIdx.x) * out_x + vs::lo(2) + c.tx;
  const index_t gy = mg::has_y ? static_cast<index_t>(blockIdx.y) * out_y + vs::lo(1) + c.ty : 0;
  c.m0 = static_cast<index_t>(mg::has_y ? blockIdx.z : blockIdx.y) * Chunk;
  c.m_end = min(c.m0 + Chunk, p.n[mg::march]);
  c.loads = gx < p.n[2] + vs::hi(2) && (!mg::has_y || gy < p.n[1] + vs::hi(1));
  c.in_plane = (mg::has_y ? gy * p.in_stride[1] : 0) + gx;
  c.out_plane = (mg::has_y ? gy * p.out_stride[1] : 0) + gx;
  c.ms_in = p.in_stride[mg::march];
  c.ms_out = p.out_stride[mg::march];
  c.computes = c.tx + vs::lo(2) >= 0 && c.tx + vs::lo(2) < out_x && gx < p.n[2] &&
               (!mg::has_y || (c.ty + vs::lo(1) >= 0 && c.ty + vs::lo(1) < out_y && gy < p.n[1]));
  return c;
}

/// A pass's level queues before its first step: zero (no plane has reached them yet).
template <class T, int K, int W, int N>
__device__ __forceinline__ void clear_queues(T (&queue)[K][W][N]) {
#pragma unroll
  for (int t = 0; t < K; ++t)
#pragma unroll
    for (int j = 0; j < W; ++j)
#pragma unroll
      for (int c = 0; c < N; ++c) queue[t][j][c] = T(0);
}

/// A queue of W rows of N values (a level's reach along the marched axis, N columns a
/// thread) moved on by one row: row j takes row j + 1, row W - 1 takes `newest`. In a loop
/// unrolled by W the moves become register renaming.
template <class T, int W, int N>
__device__ __forceinline__ void push_row(T (&queue)[W][N], const T (&newest)[N]) {
#pragma unroll
  for (int c = 0; c < N; ++c) {
#pragma unroll
    for (int j = 0; j + 1 < W; ++j) queue[j][c] = queue[j + 1][c];
    queue[W - 1][c] = newest[c];
  }
}

}  // namespace tessera::cuda::kernels
