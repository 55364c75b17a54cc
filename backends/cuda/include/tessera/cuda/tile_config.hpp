#pragma once
// Resolves a CUDA policy's template arguments (0 = default) into the concrete block and
// chunk sizes for a grid of a given rank, as compile-time constants the kernels use.
//
// Kernels see every grid as 3D with "virtual axes" (z, y, x) = (0, 1, 2): a rank-R grid
// occupies the last R of them and the missing slow axes have extent 1 and offset 0. So
// block (bx, by, bz) is (x, y, z) threads as in CUDA's dim3.
#include "tessera/core/shape.hpp"
#include "tessera/cuda/policy.hpp"

namespace tessera::cuda {

template <class Policy, int Rank>
struct tile_config {
  static_assert(sizeof(Policy) == 0, "tessera::cuda::tile_config: not a CUDA tile policy");
};

namespace detail {
constexpr int or_default(int v, int d) { return v > 0 ? v : d; }
}  // namespace detail

template <int BX, int BY, int BZ, int Rank>
struct tile_config<naive<BX, BY, BZ>, Rank> {
  static constexpr int x = detail::or_default(BX, 32), y = detail::or_default(BY, 8),
                       z = detail::or_default(BZ, 1);
  // Fold unused slow axes into the ones the rank has, so the thread count stays.
  static constexpr int bx = Rank == 1 ? x * y * z : x;
  static constexpr int by = Rank == 1 ? 1 : Rank == 2 ? y * z : y;
  static constexpr int bz = Rank == 3 ? z : 1;
  static constexpr int chunk = 1;
};

template <int TX, int TY, int TZ, int Rank>
struct tile_config<tiled<TX, TY, TZ>, Rank> {
  static constexpr int bx = detail::or_default(TX, Rank == 1 ? 1024 : Rank == 2 ? 32 : 8);
  static constexpr int by = Rank == 1 ? 1 : detail::or_default(TY, Rank == 2 ? 32 : 8);
  static constexpr int bz = Rank == 3 ? detail::or_default(TZ, 8) : 1;
  static constexpr int chunk = 1;
};

template <int TX, int TY, int Chunk, int Rank>
struct tile_config<coarsened<TX, TY, Chunk>, Rank> {
  static constexpr int bx = detail::or_default(TX, Rank == 3 ? 32 : 256);
  static constexpr int by = Rank == 3 ? detail::or_default(TY, 32) : 1;
  static constexpr int bz = 1;
  static constexpr int chunk = detail::or_default(Chunk, Rank == 1 ? 8 : 32);
};

/// Register tiling marches like coarsening, with the same tiles (1D is refused by its plan).
template <int TX, int TY, int Chunk, int Rank>
struct tile_config<register_tiled<TX, TY, Chunk>, Rank> : tile_config<coarsened<TX, TY, Chunk>, Rank> {};

template <int BX, int BY, int Chunk, int Rank>
struct tile_config<streaming<BX, BY, Chunk>, Rank> {
  static constexpr int bx = detail::or_default(BX, Rank == 3 ? 32 : 256);
  static constexpr int by = Rank == 3 ? detail::or_default(BY, 8) : 1;
  static constexpr int bz = 1;
  static constexpr int chunk = detail::or_default(Chunk, 64);
};

/// bz carries the rows (2D: columns) per thread; the launch block itself is bx x by x 1.
/// chunk 0 means "chosen by the plan".
template <int BX, int BY, int RY, int Chunk, int Rank>
struct tile_config<shared_streaming<BX, BY, RY, Chunk>, Rank> {
  static constexpr int bx = detail::or_default(BX, 128);
  static constexpr int by = Rank == 3 ? detail::or_default(BY, 4) : 1;
  static constexpr int bz = detail::or_default(RY, 4);
  static constexpr int chunk = Chunk > 0 ? Chunk : 0;
};

/// As shared_streaming, bz carries the rows (2D: columns) per thread. The launcher's
/// fourth slot (chunk) carries the pipeline depth, the kernel's only other compile-time
/// parameter; the planes per block (`planes`, 0 = chosen by the plan) are a launch
/// argument. Stages 0 is resolved per shape by kernel_config below.
template <int BX, int BY, int RY, int Stages, int Chunk, int Rank>
struct tile_config<pipelined<BX, BY, RY, Stages, Chunk>, Rank> {
  static constexpr int bx = detail::or_default(BX, 128);
  static constexpr int by = Rank == 3 ? detail::or_default(BY, 4) : 1;
  static constexpr int bz = detail::or_default(RY, 4);
  static constexpr int stages = Stages;
  static constexpr int chunk = stages;
  static constexpr int planes = Chunk > 0 ? Chunk : 0;
};

/// The compile-time configuration the kernel of Policy is built with for shape S: the
/// policy's tile_config, with what depends on the shape resolved. Launchers, plans and
/// TESSERA_CUDA_INSTANTIATE all go through it, so they agree.
template <class Policy, class S>
struct kernel_config : tile_config<Policy, S::rank> {};

/// pipelined's defaults that depend on the shape (measured: perf/RESULTS.md):
/// - depth: 2 planes in flight for 3D stars (with the short chunks below: 7-point 0.92
///   and fp64 0.954-0.957 of copy vs 0.91 and 0.946-0.948 with 1, two runs, perf/RESULTS.md
///   run 7; at long chunks 1 was better) and for shapes reaching further along the
///   marching axis (their ring is larger and a block's step longer), 1 for the 27-point
///   box, 4 rows in 2D (a row is a small copy);
/// - tile: a 3D shape with points off the axis on the planes next to the centre (the
///   27-point box) reads 3 x 3 rows per output, so its threads take 8 rows each (128 x 2
///   threads, the same 128 x 16 tile): adjacent outputs share more of those rows (box
///   0.88 of copy vs 0.85 with 4 rows). Stars keep 4 rows (7-point even, fp64 7-point
///   0.84 vs 0.91 with 8), and so do shapes reaching further along z: beside a deeper
///   ring, 256-thread blocks leave SMs short of threads (25-point star: 0.66 vs 0.72);
/// - planes per block: 3D stars reaching one or two planes along z are `short_chunks`
///   shapes, and make_plan gives them 4 or 8 planes per block where an SM holds two
///   blocks or more (plan.hpp says why and what was measured).
template <int BX, int BY, int RY, int Stages, int Chunk, class S>
struct kernel_config<pipelined<BX, BY, RY, Stages, Chunk>, S> : tile_config<pipelined<BX, BY, RY, Stages, Chunk>, S::rank> {
  using base = tile_config<pipelined<BX, BY, RY, Stages, Chunk>, S::rank>;
  static constexpr int march_width = shape_traits<S>::reach_hi[0] - shape_traits<S>::reach_lo[0] + 1;
  static constexpr bool tall_rows = S::rank == 3 && BY == 0 && RY == 0 && march_width <= 3 &&
                                    !shape_traits<S>::slow_axis_neighbours_on_axis;
  static constexpr int by = tall_rows ? 2 : base::by;
  static constexpr int bz = tall_rows ? 8 : base::bz;
  static constexpr bool short_chunks = S::rank == 3 && shape_traits<S>::slow_axis_neighbours_on_axis && march_width <= 5;
  static constexpr int stages = Stages > 0 ? Stages : S::rank == 2 ? 4 : short_chunks || march_width > 3 ? 2 : 1;
  static constexpr int chunk = stages;
};

/// vector_streaming: bx is the warp (32 lanes), by the warps per block; the launcher's
/// fourth slot (chunk) carries the planes in flight per lane (Depth); the planes per block
/// (`planes`, 0 = chosen by the plan) are a launch argument.
template <int BY, int Chunk, int Depth, int Rank>
struct tile_config<vector_streaming<BY, Chunk, Depth>, Rank> {
  static constexpr int bx = 32;
  static constexpr int by = detail::or_default(BY, 8);  // kernel_config: 4 for wide 3D shapes
  static constexpr int bz = 1;
  static constexpr int chunk = detail::or_default(Depth, 1);
  static constexpr int planes = Chunk > 0 ? Chunk : 0;
};

/// True for 3D shapes whose points off the z = 0 plane all lie on the column (0, 0):
/// stars. vector_streaming accumulates those reaching 3 or more planes along z
/// (kernels/vector_accumulate.cuh); the rest use its window kernel.
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

/// vector_streaming's rows per block by shape: 3D shapes reaching more than one row
/// either way along y (13- and 25-point stars, wider boxes) hold many registers, and
/// 128-thread blocks fill an SM in finer steps: 4 rows (25-point 0.74 of copy vs 0.62 at
/// 8, 13-point 0.88 vs 0.83); the rest 8 (7-point 0.94 vs 0.93 at 4). perf/RESULTS.md run 7.
template <int BY, int Chunk, int Depth, class S>
struct kernel_config<vector_streaming<BY, Chunk, Depth>, S> : tile_config<vector_streaming<BY, Chunk, Depth>, S::rank> {
  static constexpr bool wide_y =
      S::rank == 3 && (shape_traits<S>::reach_hi[1] > 1 || shape_traits<S>::reach_lo[1] < -1);
  static constexpr int by = BY > 0 ? BY : wide_y ? 4 : 8;
  /// Rows a warp holds: 2 (of 64 floats or 32 doubles) where vector_streaming
  /// accumulates, so a block of 4 warps covers 8 rows and reads half the rows beyond it
  /// per output row (25-point fp32 0.83-0.85 of copy vs 0.80 at 1; RESULTS run 8); else 1.
  static constexpr int rows_per_warp = accumulates_by_column<S> ? 2 : 1;
};

}  // namespace tessera::cuda
