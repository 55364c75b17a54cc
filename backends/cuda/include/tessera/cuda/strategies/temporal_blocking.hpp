#pragma once
// cuda::temporal_blocking: several time steps fused in one pass over memory, the way past
// the one-sweep copy floor (AN5D, arXiv 2001.01473; "Revisiting Temporal Blocking Stencil
// Optimizations", EBISU). In 3D a block of TileX x (TileY / Rows) threads owns an input
// tile of TileX x TileY columns, each thread Rows columns stacked along y, and marches
// along z; in 2D each warp owns a strip of TileX columns (TileX / 32 a lane) and marches
// along y on its own, with its in-plane neighbours from warp shuffles, no shared memory and
// no barrier (kernels/temporal_blocking_2d.cuh). Level 0 is the loaded field; level t
// (1..k) is computed one step behind level t - 1. The 3D pass:
//
//   * each thread keeps its own columns' reach along the marched axis, per level, in
//     registers (a queue of reach + 1 planes), so the centre and the marched-axis
//     neighbours of every level cost no shared memory, nor do the y-neighbours that lie
//     among the thread's own rows (Rows > 1: of a star's 4 in-plane neighbours, 2 + 2 /
//     Rows come from shared memory per cell and level, and one barrier serves Rows cells);
//   * each level below k publishes one plane per step in shared memory, double-buffered,
//     where the next level reads the in-plane neighbours: a star its queue's centre plane;
//     a shape with off-axis neighbours in other planes (a box) its newest plane, whose
//     contributions to the outputs it feeds (one a plane of reach) the next level adds to
//     partial sums kept in registers as the plane arrives, so each plane is read from shared
//     memory once, not once per output plane it feeds;
//   * all levels advance in the same step, each from what the level below published in the
//     previous one, so one __syncthreads per step serves every level;
//   * level k is stored, for the inner (TileX - k * reach_x) x (TileY - k * reach_y)
//     columns: the tile overlaps its neighbours by the halo k steps need, and the halo's
//     columns are computed redundantly (at k = 3, 32 x 32: 26 x 26 outputs, 66%);
//   * the step's code has no branch between the levels (a branch would keep the compiler
//     from interleaving their loads and FMAs): level k's stores wait for the step's end,
//     and only a chunk's first and last steps ask which planes are fixed.
//
// Boundary conditions live inside the pass: the level-0 field is read through the edge
// rules (edge_rules.hpp: Dirichlet cells fixed, periodic wrapped, Neumann mirrored), so no
// ghost fill runs between fused steps, nor between passes for periodic and Neumann faces.
//
// Bytes: a pass of k steps reads the tile with its halo once and writes the inner part
// once, ~(1 / f + 1) * sizeof(T) per output and pass (f the inner fraction), instead of
// 2 * k * sizeof(T) for k sweeps.
#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "tessera/core/type_list.hpp"
#include "tessera/cuda/detail/edge_rules.hpp"
#include "tessera/cuda/point_function_streaming.hpp"
#include "tessera/cuda/strategy.hpp"

namespace tessera::cuda {

/// temporal_blocking's compiled configuration. BoxTile: 3D boxes over views whose rows start
/// on 16-byte boundaries run the register-tile pass (detail::box_tile) instead of this
/// tile's one-column pass; set where the policy names no tile of its own.
template <int Steps, int TileX, int TileY, int Rows = 1, int Strips = 1, bool BoxTile = false>
struct temporal_blocking_tile {
  static_assert(TileY % Rows == 0, "temporal_blocking: the tile's rows must split evenly over its threads");
  static_assert(Steps * Rows <= 64, "temporal_blocking: steps x rows a thread must not exceed 64 (the 3D pass keeps "
                                    "one bit a level and row in a 64-bit mask)");
  static constexpr int steps = Steps;    ///< the most time steps one pass fuses
  static constexpr int tile_x = TileX;   ///< input columns along x, halo included (3D: threads; 2D: a warp's)
  static constexpr int tile_y = TileY;   ///< input rows along y, halo included (3D; 1 in 2D)
  static constexpr int rows = Rows;      ///< rows along y each thread computes (3D; 1 in 2D)
  static constexpr int strips = Strips;  ///< 2D: warps a block, each its own strip of tile_x columns
  static constexpr bool box_tile = BoxTile;  ///< 3D boxes on aligned views: the register-tile pass
};

namespace detail {

/// True when shape S has a point off the marched axis in another plane (a box's corner):
/// then a level reads the newest plane of the level below and keeps partial sums of the
/// outputs it feeds, instead of reading the centre plane alone.
template <class S>
constexpr bool reads_other_planes() {
  constexpr int march = 3 - S::rank;
  for (const auto& pt : S::points) {
    bool in_plane_offset = false;
    for (int d = 0; d < S::rank; ++d) in_plane_offset = in_plane_offset || (d + (3 - S::rank) != march && pt[d] != 0);
    if (pt[march - (3 - S::rank)] != 0 && in_plane_offset) return true;
  }
  return false;
}

/// Planes each level keeps in shared memory: one, double-buffered (a star's centre plane,
/// a box's newest).
inline constexpr int published_buffers = 2;

/// A published plane in shared memory (the 3D pass): the tile with a border of the shape's
/// in-plane reach, so the rim's threads read inside it (values they discard) without a branch.
template <class S, int TileX, int TileY>
struct published_geometry {
  static_assert(S::rank == 3, "temporal_blocking publishes planes in 3D only");
  static constexpr int row = TileX + virtual_reach<S>::width(2);
  static constexpr int rows = TileY + virtual_reach<S>::width(1);
  static constexpr int plane = row * rows;
};

/// The register tile of the 3D box pass (strategies/temporal_blocking/box_tile.cuh): each
/// thread computes `rows` rows of one 16-byte vector of cells at every level, so a plane of
/// the level below is read from shared memory a vector a row (plus the x-neighbours) and
/// every value feeds the FMAs of the rows x vector outputs it reaches; level 0 arrives in a
/// ring of `ring` planes by cp.async. 256 threads cover 32 x 32 cells in fp64 (64 x 32 in
/// fp32): two blocks an SM within 128 registers, the fastest of the tiles the probe of
/// perf/log/run-53.md tried (wider tiles and four rows hold one block an SM). The left halo
/// is rounded up to whole vectors, so every block's loads start on a vector.
template <class S, class T>
struct box_tile {
  using vr = virtual_reach<S>;
  static constexpr int vector = elements_per_16_bytes<T>;
  static constexpr int rows = 2;
  static constexpr int tile_x = sizeof(T) == 4 ? 64 : 32, tile_y = 32;
  static constexpr int threads_x = tile_x / vector, threads = threads_x * (tile_y / rows);
  static constexpr int lx = -vr::lo(2), hx = vr::hi(2), ly = -vr::lo(1), hy = vr::hi(1), lm = -vr::lo(0), hm = vr::hi(0);
  static constexpr int row = tile_x + 2 * vector;  // a shared plane's row: a vector of border a side
  static constexpr int plane_rows = tile_y + ly + hy;
  static constexpr int plane = row * plane_rows;
  static constexpr int ring = 4;  // level-0 planes: ring - 1 in flight while one is read
  /// columns of halo left of a k-step pass's outputs (whole vectors), its outputs a tile
  static constexpr int left(int k) { return (k * lx + vector - 1) / vector * vector; }
  static constexpr int out_x(int k) { return (tile_x - left(k) - k * hx) / vector * vector; }
  static constexpr int out_y(int k) { return tile_y - k * (ly + hy); }
  /// the ring, the published planes and the tile's column map (an int a column)
  static constexpr std::size_t shared_bytes(int k) {
    return static_cast<std::size_t>(ring + 2 * (k - 1)) * plane * sizeof(T) + row * sizeof(int);
  }
  /// Whether a k-step pass of S in T runs here: a 3D box whose x reach fits the vector of
  /// border, whose z reach is at most 1 (the partial sums of wider boxes spill at 128
  /// registers), and whose tile keeps outputs.
  static constexpr bool applies(int k) {
    return S::rank == 3 && reads_other_planes<S>() && lx <= vector && hx <= vector && lm <= 1 &&
           hm <= 1 && k >= 1 && out_x(k) >= vector && out_y(k) >= 1;
  }
};

/// Whether the box pass can read p's input: every row starts on a 16-byte boundary (it
/// copies whole vectors) and a plane's cells are numbered in 32 bits; a default-made p (a
/// residency query) can.
template <class T, class Params>
bool box_pass_reads(const Params& p) {
  constexpr index_t v = elements_per_16_bytes<T>;
  return reinterpret_cast<std::uintptr_t>(p.in) % 16 == 0 && p.in_stride[1] % v == 0 && p.in_stride[0] % v == 0 &&
         p.in_stride[0] < (index_t(1) << 31) - p.in_stride[1];
}

/// Planes a block of a pass of `steps` steps re-reads and recomputes at its chunk's start
/// before its first output: each level lags the one below by the marched reach + 1.
template <class S>
constexpr int fused_pipeline(int steps) {
  return steps * (virtual_reach<S>::width(3 - S::rank) + 1);
}

/// The default number of steps per pass, the fastest measured on an H100 (perf/RESULTS.md):
/// 3D stars of radius 1: 4 (the fusion table says which a case runs), boxes of radius 1 and
/// radius 2: 2, beyond: 1 (a 32 x 32 tile keeps about half its columns as outputs); 2D
/// strips of 128 columns: 8 steps of radius 1 down to 2 of radius 4. More steps recompute
/// more of each tile's halo; fewer move the field more often.
template <class S>
constexpr int default_fused_steps() {
  constexpr int r = shape_traits<S>::radius;
  if constexpr (S::rank == 3) return r == 1 ? (reads_other_planes<S>() ? 2 : 4) : r == 2 ? 2 : 1;
  else return r == 1 ? 8 : r == 2 ? 4 : 2;
}

/// Rows along y a thread computes in 3D: 4, the fastest of 1, 2, 4 and 8 measured
/// (perf/RESULTS.md): a thread's rows share their y-neighbours in registers, and 4 rows a
/// thread at 3 steps still leave two 256-thread blocks an SM (fp32).
template <class S>
constexpr int default_fused_rows() {
  return 4;
}

/// Warps a block of the 2D pass by default (each its own strip: they share nothing): one,
/// so that registers alone bound the warps an SM holds (one warp a block measured at least as
/// fast as four: perf/RESULTS.md).
inline constexpr int default_strips = 1;

/// A pass's chunk, longer where the plan's would run in several waves of blocks while one
/// wave could hold the whole grid: each block re-reads and recomputes steps * (reach + 1)
/// planes at its chunk's start, so the fewer chunks the better, as long as every SM stays
/// busy. `blocks_per_sm`: how many of the pass's blocks an SM holds (its registers decide,
/// so the launch asks the driver: the overload in temporal_blocking/kernels.cuh). `march`: the grid axis that counts
/// chunks (1 in 2D, 2 in 3D); the tiles of a plane are the grid's other axes.
///
/// 2D (unguarded): a 2D pass holds many one-warp blocks an SM, so one wave of long chunks
/// replaces several waves of short ones, and each block's re-read start is paid fewer times.
/// 3D (`guarded`): one wave is faster where the pipeline's start is a large part of the
/// plan's chunk, and slower where it is already small or where one wave leaves some SMs with
/// fewer blocks than others; so it applies only where the pipeline is >= 15% of the plan's
/// chunk and the wave fills >= 90% of the places (the measurements: perf/RESULTS.md). Where
/// the plan's own blocks already fit in one wave that leaves places idle (a 192^3 grid: 192
/// blocks of chunk 64 for 264 places), the one wave of shorter chunks that fills them (256
/// of 48) is taken too: the SMs' second blocks, not the shorter chunks, decide there.
inline launch_plan one_wave_chunk(const launch_plan& plan, int pipeline, long long n_march, int march, bool guarded,
                                  int blocks_per_sm, int multiprocessors) {
  if (guarded && 100LL * pipeline < 15LL * plan.chunk) return plan;
  if (n_march < 1 || plan.chunk < 1) return plan;
  const long long resident = static_cast<long long>(std::max(blocks_per_sm, 0)) * std::max(multiprocessors, 0);
  long long tiles = 1;  // blocks along the axes that are not marched
  for (int a = 0; a < 3; ++a) tiles *= a == march ? 1 : std::max<long long>(1, plan.grid[a]);
  const long long chunks_per_tile = resident / tiles;
  if (chunks_per_tile < 1) return plan;  // the tiles alone fill the GPU
  const long long chunk = std::min(n_march, std::max<long long>(ceil_div(n_march, chunks_per_tile), 4LL * pipeline));
  if (chunk == plan.chunk) return plan;
  if (chunk < plan.chunk && (!guarded || tiles * ceil_div(n_march, plan.chunk) >= resident))
    return plan;  // shorter only in 3D, and only where the plan's blocks fit in one wave
  const long long chunks = ceil_div(n_march, chunk);
  if (guarded && 10 * tiles * chunks < 9 * resident) return plan;
  launch_plan q = plan;
  q.chunk = static_cast<int>(chunk);
  q.out_tile[march] = q.chunk;
  q.grid[march] = chunks;
  return q;
}

}  // namespace detail

/// Temporal blocking: Steps time steps per pass (0: the shape's default, 4 for 3D stars of
/// radius 1, 8 for 2D radius 1). 3D: a TileX x TileY tile of input columns (0: 32 x 32) marching
/// along z, Rows of them along y a thread (0: 4; dividing TileY). 2D: a warp's strip of
/// TileX columns marching along y (0: 128, a multiple of 32 up to 256: TileX / 32 columns a
/// lane, at least the shape's x reach), TileY strips (warps) a block (0: 1). `apply` runs one step
/// per pass; `iterate` fuses up to Steps (sweep_steps.hpp). Ranks 2 and 3, every shape.
template <int Steps = 0, int TileX = 0, int TileY = 0, int Rows = 0>
struct temporal_blocking : device_policy {
  static std::string name() { return "cuda:temporal-blocking"; }
  using strategy = temporal_blocking<>;
  // A single sweep computes the halo columns for nothing: the streaming strategies are
  // faster at one step, so automatic chooses this one for iterate only (sweep_steps.hpp).
  static constexpr bool automatic_candidate = false;
  /// cuda::automatic's fused passes (iterate) run here, as many steps as its fusion table says.
  static constexpr bool automatic_fuses = true;
  /// The other tile the fusion table may name (its tile column, "64x32"): 64 x 32 columns
  /// for 3D stars of radius 1 in fp32. At 4 steps it stores 66% of its columns where 32 x 32
  /// stores 56%, so fewer halo cells are recomputed per stored one, but its 512 threads fill
  /// an SM's registers (one block an SM): faster on grids that give every SM several blocks
  /// (perf/RESULTS.md: 512^3), slower on smaller grids and in fp64.
  using automatic_fusion_tiles = type_list<temporal_blocking<0, 64, 32>>;
  /// The fusion table's name of this policy's tile: "64x32" (rows a thread appended where set).
  static std::string tile_name() {
    return std::to_string(TileX) + "x" + std::to_string(TileY) + (Rows ? "x" + std::to_string(Rows) : "");
  }
  /// The shapes and types cuda::automatic fuses with this policy's tile where the table
  /// names it (tessera_cuda compiles those kernels: kernels/instantiate.cu.in).
  template <class S, class T>
  static constexpr bool automatic_fuses_tile =
      S::rank == 3 && shape_traits<S>::radius == 1 && !detail::reads_other_planes<S>() && std::is_same_v<T, float>;

  template <class S>
  using tile = temporal_blocking_tile<detail::or_default(Steps, detail::default_fused_steps<S>()),
                                      detail::or_default(TileX, S::rank == 3 ? 32 : 128),
                                      S::rank == 3 ? detail::or_default(TileY, 32) : 1,
                                      S::rank == 3 ? detail::or_default(Rows, detail::default_fused_rows<S>()) : 1,
                                      S::rank == 3 ? 1 : detail::or_default(TileY, detail::default_strips),
                                      TileX == 0 && TileY == 0 && Rows == 0>;

  /// Point functions: one step a pass: each thread marches its column through L1 on
  /// this tile, point_chunk planes a block.
  template <class T, int Rank>
  using point_mainloop = detail::marching_points<
      temporal_blocking<>, detail::point_column_tile<tile<star<Rank, 1>>::tile_x, tile<star<Rank, 1>>::tile_y, 1,
                                                     detail::point_chunk<T>>>;

  template <class S>
  static constexpr bool has_kernel = S::rank >= 2;
  /// The 2D pass computes the cells beyond a Dirichlet wall (edge_rule::reflect), so wide
  /// stencils fuse several steps there; the 3D passes read them as fixed (one step a pass).
  template <class S>
  static constexpr bool reflects_walls = S::rank == 2;

  /// One pass of `steps` fused steps (1 <= steps <= tile<S>::steps): the box pass's plan
  /// where it applies (the launch plans the one-column pass instead for views whose rows
  /// are not 16-byte aligned), else the one-column pass's.
  template <class S, class T>
  static launch_plan plan_steps(const extents<S::rank>& e, const device_limits& lim, int steps) {
    using t = tile<S>;
    if constexpr (S::rank == 3 && t::box_tile) {
      const launch_plan columns = plan_columns<S, T, t>(e, lim, steps);  // its refusals stand
      if (columns.ok() && detail::box_tile<S, T>::applies(steps)) return plan_box_tile<S, T>(columns, e, lim, steps);
      return columns;
    } else {
      return plan_columns<S, T, t>(e, lim, steps);
    }
  }

  /// The box pass's plan (detail::box_tile): 256 threads a block, chunks of 64 planes,
  /// shorter while the grid would not give every SM twice the blocks it holds.
  template <class S, class T>
  static launch_plan plan_box_tile(launch_plan p, const extents<S::rank>& e, const device_limits& lim, int steps) {
    using g = detail::box_tile<S, T>;
    p.block[0] = g::threads_x, p.block[1] = g::tile_y / g::rows, p.block[2] = 1;
    p.shared_bytes = g::shared_bytes(steps);
    const long long tiles = detail::plane_tiles(e, g::out_x(steps), g::out_y(steps));
    const long long n_march = detail::virtual_extent(e, 0);
    const int pipeline = steps * (g::lm + g::hm + 1);
    const int blocks_per_sm = p.resident_per_sm = detail::resident_blocks(p, lim, 128);
    long long chunk = 64;
    while (chunk / 2 >= 4 * pipeline && tiles * detail::ceil_div(n_march, chunk) < 2LL * lim.multiprocessors * blocks_per_sm)
      chunk /= 2;
    chunk = std::min(chunk, std::max<long long>(1, n_march));
    return detail::marched(p, e, g::out_x(steps), g::out_y(steps), static_cast<int>(chunk), lim);
  }

  /// The one-column pass's plan on tile t.
  template <class S, class T, class t>
  static launch_plan plan_columns(const extents<S::rank>& e, const device_limits& lim, int steps) {
    using vr = detail::virtual_reach<S>;
    launch_plan p;
    p.strategy = detail::plan_label<strategy>();
    if constexpr (S::rank == 1) {
      return detail::refuse_1d_marching(p);
    } else {
      if (steps < 1 || steps > t::steps) {
        p.reason = "a pass fuses 1 to " + std::to_string(t::steps) + " steps of " + shape_name<S>() +
                   " (the compiled tile), not " + std::to_string(steps) +
                   "; fuse more with cuda::temporal_blocking<" + std::to_string(std::max(steps, 1)) + ">";
        return p;
      }
      constexpr int march = 3 - S::rank;
      if (detail::virtual_extent(e, march) >= (1LL << 30)) {
        p.reason = "the marched axis of " + e.to_string() + " has 2^30 or more planes; temporal_blocking numbers them in "
                   "32 bits: use cuda::streaming";
        return p;
      }
      const int out_x = t::tile_x - steps * vr::width(2);
      const int out_y = S::rank == 3 ? t::tile_y - steps * vr::width(1) : 1;
      if (out_x < 1 || out_y < 1) {
        p.reason = "a " + std::to_string(t::tile_x) + "x" + std::to_string(t::tile_y) + " tile fusing " +
                   std::to_string(steps) + " steps of " + shape_name<S>() + " spends every column on the " +
                   std::to_string(steps) + "-step halo and has no output left; fuse fewer steps or use a wider tile";
        return p;
      }
      if constexpr (S::rank == 3) {
        p.block[0] = t::tile_x, p.block[1] = t::tile_y / t::rows, p.block[2] = 1;
        p.shared_bytes = static_cast<std::size_t>(steps) * detail::published_buffers *
                         detail::published_geometry<S, t::tile_x, t::tile_y>::plane * sizeof(T);
      } else {
        // 2D: warps of 32 lanes, each warp its own strip of tile_x columns, no shared memory
        p.block[0] = 32, p.block[1] = t::strips, p.block[2] = 1;
      }
      // The chunk along the marched axis: long, because a block re-reads and recomputes
      // steps * (reach + 1) planes at its start; shortened while the grid would leave SMs
      // idle (two waves of the blocks the SMs hold at once), never below 4x that overhead.
      const int strips_per_block = t::strips;
      const long long tiles = detail::plane_tiles(e, out_x * strips_per_block, out_y);
      const long long n_march = detail::virtual_extent(e, march);
      const int pipeline = detail::fused_pipeline<S>(steps);
      // Blocks an SM: what its threads and shared memory allow (2D: a quarter of its threads;
      // the warp pass holds ~140-170 registers a lane), not the fewer its registers leave:
      // aiming at those makes the chunks longer and the passes slower (perf/RESULTS.md,
      // "Blocks an SM holds"), so the plan does not ask the driver (resident_per_sm stays 0).
      // The launch does, where one wave of blocks could hold the grid (one_wave_chunk).
      const int blocks_per_sm = S::rank == 3 ? detail::resident_blocks_by_bounds(p, lim)
                                             : std::max(1, lim.max_threads_per_multiprocessor / 4 / p.threads());
      const long long longest = S::rank == 3 ? 128 : 256;
      long long chunk = longest;
      while (chunk / 2 >= 4 * pipeline &&
             tiles * detail::ceil_div(n_march, chunk) < 2LL * lim.multiprocessors * blocks_per_sm)
        chunk /= 2;
      // A 3D grid that fills the SMs at 128 planes a block takes equal chunks of at most 192
      // instead: each block re-reads its pipeline over a longer chunk, while longer ones
      // leave too few blocks to even out the slower blocks at the faces (perf/RESULTS.md)
      if (S::rank == 3 && chunk == longest && n_march > 192) chunk = detail::ceil_div(n_march, detail::ceil_div(n_march, 192));
      chunk = std::min(chunk, std::max<long long>(1, n_march));
      return detail::marched(p, e, out_x * strips_per_block, out_y, static_cast<int>(chunk), lim);
    }
  }

  template <class S, class T>
  static launch_plan plan(const extents<S::rank>& e, const device_limits& lim) {
    return plan_steps<S, T>(e, lim, 1);
  }
};

}  // namespace tessera::cuda
