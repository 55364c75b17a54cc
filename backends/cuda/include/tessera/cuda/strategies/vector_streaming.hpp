#pragma once
// cuda::vector_streaming: z-streaming (2D: y-streaming) in 16-byte vectors, no shared
// memory. Two kernels (strategies/vector_streaming/): the window kernel for every shape
// but the 3D stars reaching 3 or more planes along z, which accumulate instead.
//
// Why: the time of a streaming sweep on an H100 depends on where in memory the whole
// device is reading at once, not only on how many bytes it moves. A block that marches a
// long chunk of planes keeps its own place in z; with hundreds of blocks resident the
// device reads from hundreds of planes at once, and the planes a chunk shares with the
// chunk below are read twice from DRAM (by blocks that ran a chunk's time apart). With
// short chunks (4 planes) launched plane-major, every resident block works on a few
// neighbouring planes: the shared planes hit in L2 and DRAM streams through a narrow
// window, as a copy does (perf/RESULTS.md, "vector_streaming's kernels").
#include "tessera/cuda/point_function_streaming.hpp"
#include "tessera/cuda/strategy.hpp"

namespace tessera::cuda {

/// vector_streaming's compiled configuration (the planes per block are chosen at launch).
template <int Warps, int Depth, int RowsPerWarp>
struct vector_streaming_tile {
  static constexpr int warps = Warps;                ///< warps per block (3D: rows; 2D: x-segments of a row)
  static constexpr int depth = Depth;                ///< planes in flight per lane
  static constexpr int rows_per_warp = RowsPerWarp;  ///< rows a warp holds (2 where accumulated)
};

/// True for 3D shapes whose points off the z = 0 plane all lie on the column (0, 0):
/// stars. vector_streaming accumulates those reaching 3 or more planes along z
/// (vector_streaming/accumulate.cuh); the rest use its window kernel.
template <class S>
inline constexpr bool accumulates_by_column = [] {
  if constexpr (S::rank != 3) {
    return false;
  } else {
    for (const auto& q : S::points)
      if (q[0] != 0 && (q[1] != 0 || q[2] != 0)) return false;
    return shape_traits<S>::reach_lo[0] <= -3 && shape_traits<S>::reach_hi[0] >= 3;
  }
}();

namespace detail {
/// vector_streaming's planes per block: short, so the resident blocks work on a few
/// neighbouring planes (chunk edges hit in L2, DRAM reads a narrow window), and longer
/// than the halo the shape reaches along the marching axis (`width` planes), which each
/// chunk loads again: 7-point 4, 13-point 6; accumulated shapes 8 (perf/RESULTS.md,
/// "vector_streaming's kernels").
inline int vector_streaming_chunk(int width, bool accumulated) { return accumulated ? 8 : std::max(4, width + 2); }
}  // namespace detail

/// Streaming in 16-byte vectors, nothing in shared memory: a lane owns one vector of
/// outputs (4 floats, 2 doubles) of a row, a warp 32 vectors of that row, and marches
/// Chunk planes along the slowest axis. The centre vectors of the planes the shape
/// reaches along that axis stay in registers (each step loads the plane Depth steps
/// before it is read: Depth planes in flight per lane), the x-neighbours come from the
/// neighbouring lanes by warp shuffles, the rows at other y offsets are 16-byte loads
/// that hit L1 (the neighbouring warps' rows). 3D stars reaching 3 or more planes along z
/// (19-, 25-point) are summed by accumulation instead: a step reads one plane and adds it
/// to the partial sums of the outputs it reaches, a warp holds 2 rows of 16 vectors.
/// Chunks are short (the plan's default: 4 planes for a reach of one plane either way, 6
/// for two, 8 where accumulated). Warps = warps per block (3D: Warps rows, 2 Warps where
/// accumulated; 2D: Warps x-segments of one row). Needs views whose rows are 16-byte
/// aligned (every View built from extents is); rank 2 and 3, every shape. Defaults (0):
/// Warps 4 for 3D shapes reaching more than one row either way along y (they hold many
/// registers, and 128-thread blocks fill an SM in finer steps), else 8; Depth 1; Chunk
/// by the plan.
template <int Warps = 0, int Chunk = 0, int Depth = 0>
struct vector_streaming : marching_policy<vector_streaming<Warps, Chunk, Depth>> {
  static std::string name() { return "cuda:vector-streaming"; }
  using strategy = vector_streaming<>;
  static constexpr bool automatic_candidate = true;

  template <class S>
  struct resolve {
    static constexpr bool wide_y =
        S::rank == 3 && (shape_traits<S>::reach_hi[1] > 1 || shape_traits<S>::reach_lo[1] < -1);
    using type = vector_streaming_tile<(Warps > 0 ? Warps : wide_y ? 4 : 8), detail::or_default(Depth, 1),
                                       accumulates_by_column<S> ? 2 : 1>;
  };
  template <class S>
  using tile = typename resolve<S>::type;
  /// Planes each block marches; 0: chosen by the plan.
  static constexpr int planes_per_block = Chunk > 0 ? Chunk : 0;

  /// Point functions: a 16-byte vector's worth of columns a lane, 32 columns apart,
  /// marching through L1 (point_vector_tile).
  template <class T, int Rank>
  using point_mainloop = detail::marching_points<vector_streaming<>, detail::point_vector_tile<T, Rank, Warps, Chunk>>;

  /// 2D and 3D grids (marching_policy refuses 1D).
  template <class S, class T>
  static launch_plan plan_march(const extents<S::rank>& e, const device_limits& lim) {
    using t = tile<S>;
    launch_plan p;
    p.strategy = detail::plan_label<strategy>();
    using r = detail::virtual_reach<S>;
    // elements of a row a warp owns (a warp holds t::rows_per_warp rows)
    constexpr int lanes_x = 32 / t::rows_per_warp * detail::elements_per_16_bytes<T>;
    constexpr int march = 3 - S::rank;
    p.block[0] = 32, p.block[1] = t::warps, p.block[2] = 1;
    const int chunk = planes_per_block > 0
                          ? planes_per_block
                          : detail::vector_streaming_chunk(r::width(march), accumulates_by_column<S>);
    // 3D: a warp's rows stacked along y; 2D: the warps side by side along the row
    return detail::marched(p, e, S::rank == 3 ? lanes_x : lanes_x * t::warps, t::warps * t::rows_per_warp, chunk,
                           lim);
  }

  /// vector_streaming reads and writes 16-byte vectors: every row's interior of `in` and
  /// `out` must start on a 16-byte boundary.
  template <class T, int Rank, class Space>
  static std::string view_requirement(const View<T, Rank, Space>& in, const View<T, Rank, Space>& out) {
    const std::string why = "vector_streaming reads and writes rows in 16-byte vectors";
    const auto r = detail::rows_on_16_bytes(in, why, "cuda::shared_streaming");
    return r.empty() ? detail::rows_on_16_bytes(out, why, "cuda::shared_streaming") : r;
  }
};

}  // namespace tessera::cuda
