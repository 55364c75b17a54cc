#pragma once
// cuda::streaming: beyond the textbook. A block owns a tile of output columns — no halo
// threads, no shared memory, no __syncthreads — and marches a short chunk of planes along
// the slowest axis (z in 3D, y in 2D). A plane a thread read stays in its SM's L1 for the
// next points of its column (and the in-plane neighbours are lines adjacent threads just
// brought in); before each point the thread asks L2 for the plane one step beyond its
// reach, so a step's new bytes are in flight besides its loads. Stencils and point
// functions run the same mainloop (marching_points, point_function_streaming.hpp), a
// stencil as its point function: it ran every stencil measured faster than the kernel
// that kept the column's reach in registers (tessera-bench --family). Serves every shape
// of rank 2 and 3.
#include "tessera/cuda/point_function_streaming.hpp"
#include "tessera/cuda/strategy.hpp"

namespace tessera::cuda {

/// streaming's compiled configuration: the policy's arguments (0: the default for the
/// element type); the block and chunk for elements T on a grid of rank Rank are `columns`.
template <int BlockX, int BlockY, int Chunk>
struct streaming_tile {
  template <class T, int Rank>
  using columns = detail::point_streaming_tile<T, Rank, BlockX, BlockY, Chunk>;
};

/// z-streaming (2D: y-streaming): a block of BlockX x BlockY threads owns as many output
/// columns (2D: BlockX columns of a row; BlockY is ignored) and marches Chunk planes along
/// the slowest axis, reading through L1 and prefetching the plane ahead into L2. Defaults
/// (0), the fastest measured: a 256-thread block whose rows span 256 bytes (64 x 4 floats,
/// 32 x 8 doubles; 256 along a 2D row) marching 32 bytes' worth of planes (8 of floats, 4
/// of doubles) (point_streaming_tile).
template <int BlockX = 0, int BlockY = 0, int Chunk = 0>
struct streaming : marching_policy<streaming<BlockX, BlockY, Chunk>> {
  static std::string name() { return "cuda:streaming"; }
  using strategy = streaming<>;
  static constexpr bool automatic_candidate = true;
  /// cuda::automatic runs point functions in 2D and 3D here: the fastest on every one measured.
  static constexpr bool automatic_point_default = true;

  template <class S>
  using tile = streaming_tile<BlockX, BlockY, Chunk>;

  /// Point functions and stencils alike: columns marching through L1.
  template <class T, int Rank>
  using point_mainloop = detail::marching_points<streaming<>, typename tile<star<Rank, 1>>::template columns<T, Rank>>;

  /// 2D and 3D grids (marching_policy refuses 1D).
  template <class S, class T>
  static launch_plan plan_march(const extents<S::rank>& e, const device_limits& lim) {
    return detail::point_column_plan<typename tile<S>::template columns<T, S::rank>>(detail::plan_label<strategy>(), e,
                                                                                     lim);
  }
};

}  // namespace tessera::cuda
