#pragma once
// cuda::streaming: beyond the textbook. A block owns a BlockX x BlockY tile of output
// columns — no halo threads, no shared memory, no __syncthreads — and marches Chunk planes
// along the slowest axis (z in 3D, y in 2D). Each thread keeps its own column's reach
// along that axis (reach_lo .. reach_hi) in registers and loads one new input value per
// step, so the column loads stream every input byte from DRAM about once. Every other
// neighbour (in-plane, or a box's off-axis points) is a load of a line an adjacent thread
// has just brought in, served by L1/L2. Unlike register tiling it serves every shape.
#include "tessera/cuda/point_function_streaming.hpp"
#include "tessera/cuda/strategy.hpp"

namespace tessera::cuda {

/// streaming's compiled configuration.
template <int BlockX, int BlockY, int Chunk>
struct streaming_tile {
  static constexpr int block_x = BlockX;  ///< threads (= output columns) along x
  static constexpr int block_y = BlockY;  ///< along y, 3D only (1 in 2D)
  static constexpr int chunk = Chunk;     ///< planes (2D: rows) each block marches
};

/// z-streaming (2D: y-streaming): a BlockX x BlockY block owns a BlockX x BlockY tile of
/// output columns (no halo threads) and marches Chunk planes along the slowest axis. Each
/// thread keeps its own column's neighbours along that axis in registers, loading one new
/// input value per step; every other neighbour is a load that hits L1/L2, because adjacent
/// threads load the same lines. Serves every shape of rank 2 and 3. Defaults (0): 32 x 8,
/// Chunk 64 (3D); 256 x 1, Chunk 64 (2D).
template <int BlockX = 0, int BlockY = 0, int Chunk = 0>
struct streaming : device_policy {
  static std::string name() { return "cuda:streaming"; }
  using strategy = streaming<>;
  static constexpr bool automatic_candidate = true;
  /// cuda::automatic runs point functions in 2D and 3D here: the fastest on every one measured.
  static constexpr bool automatic_point_default = true;

  template <class S>
  using tile = streaming_tile<detail::or_default(BlockX, S::rank == 3 ? 32 : 256),
                              S::rank == 3 ? detail::or_default(BlockY, 8) : 1, detail::or_default(Chunk, 64)>;

  /// Point functions: one column a thread marching through L1, defaults of its own
  /// (point_streaming_tile).
  template <class T, int Rank>
  using point_mainloop =
      detail::marching_points<streaming<>, detail::point_streaming_tile<T, Rank, BlockX, BlockY, Chunk>>;

  template <class S>
  static constexpr bool has_kernel = S::rank >= 2;

  template <class S, class T>
  static launch_plan plan(const extents<S::rank>& e, const device_limits& lim) {
    using t = tile<S>;
    launch_plan p;
    p.strategy = "streaming";
    if constexpr (S::rank == 1) {
      return detail::refuse_1d_marching(p);
    } else {
      p.block[0] = t::block_x, p.block[1] = t::block_y, p.block[2] = 1;
      return detail::marched(p, e, t::block_x, t::block_y, t::chunk, lim);
    }
  }

  template <class S, class T, class Tile>
  static void launch(const launch_plan& plan, const params_for<S, T>& p, cudaStream_t stream);
};

}  // namespace tessera::cuda

#if defined(__CUDACC__)
#include "tessera/cuda/kernels/marching.cuh"

namespace tessera::cuda {
namespace kernels {

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

}  // namespace kernels

template <int BlockX, int BlockY, int Chunk>
template <class S, class T, class Tile>
void streaming<BlockX, BlockY, Chunk>::launch(const launch_plan& plan, const params_for<S, T>& p, cudaStream_t stream) {
  detail::launch_kernel_after_previous(&kernels::streaming_sweep<S, T, Tile::block_x, Tile::block_y, Tile::chunk>,
                        "streaming_sweep", name(), shape_name<S>(), plan, dim3(Tile::block_x, Tile::block_y, 1), 0,
                        stream, p);
}

}  // namespace tessera::cuda
#endif
