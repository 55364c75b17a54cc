#pragma once
// cuda::register_tiled: as coarsened, but only the current plane is in shared memory
// (where the in-plane neighbours are read); the z-neighbours (2D: y-neighbours) of each
// thread's column live in its registers — reach_hi - reach_lo + 1 values, shifted one
// step per plane. Shared memory drops from (2r + 1) planes to one, so larger tiles and
// more blocks fit. Serves shapes whose off-plane points all lie on the marching axis.
//
// 3D shapes with points off that axis on other planes (boxes) take a second kernel, the
// register tile of outputs: each thread keeps the partial sums of its rows x cols outputs
// for each of the W output planes an input plane feeds (W = the z reach + 1), adds a
// plane's terms to all of them as it arrives and stores the one it completes. A box of
// radius r then costs one shared-memory load per vector of a row for (2r + 1) x cols FMAs
// (the 125-point box in float: 12 16-byte loads per 1,000 FMAs), so the kernel runs at the
// FMA pipes' rate where the textbook kernels spend an instruction on a load per FMA.
#include "tessera/cuda/point_function_streaming.hpp"
#include "tessera/cuda/strategies/coarsened.hpp"

namespace tessera::cuda {

namespace detail {
/// Whether register_tiled runs shape S with its register tile of outputs (3D shapes with
/// points off the marching axis on other planes) rather than its column kernel.
template <class S>
inline constexpr bool register_box_path = S::rank == 3 && !shape_traits<S>::slow_axis_neighbours_on_axis;

/// How the register tile of outputs lays out a thread's work and its shared memory, for
/// shape S and type T: `rows` x `cols` outputs a thread (rows along y, cols neighbouring
/// columns along x); the input plane's rows read as vectors of `vector` values (16 bytes
/// at most), each buffer row padded to a multiple of a vector; `buffers` input planes in a
/// ring. The partial sums take W x rows x cols registers (two each for a double). Where the
/// x reach is 4 or more (the 125-point box), 2 rows of 4 columns (4-byte types) or of 2
/// (8-byte ones): a row's 8 or 6 values come in two 16-byte loads or three, for 40 or 20
/// FMAs, and the block holds 128 or 256 threads; narrower shapes keep 8 rows (4 for 8-byte
/// types) of one column, whose loads are already few against their FMAs.
template <class S, class T>
struct register_box_layout {
  static constexpr bool wide = virtual_reach<S>::width(2) >= 4;
  static constexpr int cols = !wide ? 1 : sizeof(T) <= 4 ? 4 : 2;
  static constexpr int rows = wide ? 2 : sizeof(T) <= 4 ? 8 : 4;
  static constexpr int vector = std::min(cols, elements_per_16_bytes<T>);
  static_assert(cols % vector == 0, "register_box_layout: a thread's columns are whole vectors");
  static constexpr int buffers = 4;
  /// Values a buffer row holds on a tile of out_x outputs: the input row padded to whole
  /// vectors.
  static constexpr int pitch(int out_x) { return (out_x + virtual_reach<S>::width(2) + vector - 1) / vector * vector; }
  /// Values one buffer holds on an out_x x out_y tile of outputs: the padded rows of the
  /// input plane with its halo.
  static constexpr int buffer_elements(int out_x, int out_y) { return pitch(out_x) * (out_y + virtual_reach<S>::width(1)); }
};

/// Static shared memory of the register tile on an out_x x out_y tile of outputs: the
/// ring of input planes with their halo (and its barriers). The plan refuses above 48 KiB,
/// and the kernel asserts the same bound at compile time.
template <class S, class T>
constexpr std::size_t register_box_shared_bytes(int out_x, int out_y) {
  using layout = register_box_layout<S, T>;
  return static_cast<std::size_t>(layout::buffers) *
         (static_cast<std::size_t>(layout::buffer_elements(out_x, out_y)) * sizeof(T) + 8u);
}

/// Planes a block of the register tile marches, from 8 to 64: the fewest planes of FMAs on
/// the busiest SM, ceil(blocks / (SMs x blocks an SM holds)) waves x (chunk + W - 1) planes
/// (a chunk also computes the W - 1 planes before its first output), the shorter chunk on
/// a tie. Longer chunks than 64 leave waves too coarse to balance the SMs.
inline int register_box_chunk(long long tiles, long long nz, int reach_planes, int multiprocessors, int per_sm) {
  const long long slots = static_cast<long long>(multiprocessors) * std::max(1, per_sm);
  int best = 8;
  long long best_cost = -1;
  for (int c = 8; c <= 64; c *= 2) {
    const long long blocks = tiles * ceil_div(nz, static_cast<long long>(c));
    const long long cost = ceil_div(blocks, slots) * (std::min<long long>(c, nz) + reach_planes - 1);
    if (best_cost < 0 || cost < best_cost) best = c, best_cost = cost;
    if (c >= nz) break;
  }
  return best;
}
}  // namespace detail

/// Register tiling: as coarsened, but only the current z-plane (2D: row) is in shared
/// memory; each thread keeps its own column of z-neighbours in registers. Shapes whose
/// off-plane points lie on the z axis (stars), rank >= 2, on coarsened's tiles and
/// defaults. 3D shapes with points on other planes (boxes): a register tile of outputs,
/// TileX x TileY outputs a block (default 32 x 32), each thread rows x cols of them
/// (detail::register_box_layout: 2 x 4 in float and 2 x 2 in double for the 125-point box,
/// 8 x 1 and 4 x 1 for the 27-point one), Chunk planes a block (0: chosen by the plan); each
/// thread keeps partial sums of its outputs for every plane a new input plane feeds, and
/// the input planes with their halo arrive in a ring of shared-memory buffers.
template <int TileX = 0, int TileY = 0, int Chunk = 0>
struct register_tiled : device_policy {
  static std::string name() { return "cuda:register-tiled"; }
  using strategy = register_tiled<>;
  /// cuda::automatic runs it where the tuning table says (3D boxes of radius 2: the FMAs,
  /// not the memory, bound them, and it issues a shared-memory load for 28 FMAs or more).
  static constexpr bool automatic_candidate = true;

  /// Stars: coarsened's tile (the input tile, halo included). Boxes: the output tile, and
  /// Chunk 0 (the plan chooses) unless given.
  template <class S>
  using tile = std::conditional_t<detail::register_box_path<S>,
                                  marching_tile<detail::or_default(TileX, 32), detail::or_default(TileY, 32), Chunk>,
                                  typename coarsened<TileX, TileY, Chunk>::template tile<S>>;

  /// Only shapes of rank 2 and 3 whose off-plane points lie on the marching axis.
  /// Point functions: a window is a pointer, which registers cannot serve, so each
  /// thread marches its column with the planes it read in L1, on this tile and chunk.
  template <class T, int Rank>
  using point_mainloop =
      detail::marching_points<register_tiled<>, detail::point_column_tile<tile<star<Rank, 1>>::tile_x,
                                                                          tile<star<Rank, 1>>::tile_y, 1,
                                                                          tile<star<Rank, 1>>::chunk>>;

  template <class S>
  static constexpr bool has_kernel =
      S::rank >= 2 && (shape_traits<S>::slow_axis_neighbours_on_axis || detail::register_box_path<S>);

  template <class S, class T>
  static launch_plan plan(const extents<S::rank>& e, const device_limits& lim) {
    if constexpr (S::rank == 1) {
      launch_plan p;
      p.strategy = detail::plan_label<strategy>();
      p.reason = "register tiling marches along the slowest axis of a 2D or 3D grid and keeps its "
                 "neighbours in registers; a 1D grid has no such axis: use cuda::tiled or "
                 "cuda::coarsened";
      return p;
    } else if constexpr (detail::register_box_path<S>) {
      return plan_box<S, T>(e, lim);
    } else if constexpr (!shape_traits<S>::slow_axis_neighbours_on_axis) {
      launch_plan p;
      p.strategy = detail::plan_label<strategy>();
      p.reason = "register tiling keeps only the y-neighbours on the marching axis in registers (offsets (d, 0)), "
                 "but " + shape_name<S>() +
                 " has points off both that axis and the centre row (a 2D box or skewed shape "
                 "needs whole neighbour rows): use cuda::coarsened, which keeps those rows "
                 "in shared memory";
      return p;
    } else {
      return detail::plan_marching<S, T, tile<S>>("register_tiled", e, 1, lim);
    }
  }

 private:
  /// The register tile of outputs (3D shapes with points on other planes).
  template <class S, class T>
  static launch_plan plan_box(const extents<3>& e, const device_limits& lim) {
    using r = detail::virtual_reach<S>;
    using layout = detail::register_box_layout<S, T>;
    constexpr int out_x = tile<S>::tile_x, out_y = tile<S>::tile_y;
    launch_plan p;
    p.strategy = detail::plan_label<strategy>();
    if (out_y % layout::rows != 0 || out_x % layout::cols != 0) {
      p.reason = "register tiling of " + shape_name<S>() + " gives each thread " + std::to_string(layout::rows) +
                 " rows of " + std::to_string(layout::cols) + " columns of outputs (" + std::to_string(sizeof(T)) +
                 "-byte values), but the tile is " + std::to_string(out_x) + " x " + std::to_string(out_y) +
                 ": use a TileX that is a multiple of " + std::to_string(layout::cols) +
                 " and a TileY that is a multiple of " + std::to_string(layout::rows);
      return p;
    }
    p.block[0] = out_x / layout::cols, p.block[1] = out_y / layout::rows, p.block[2] = 1;
    if (p.threads() > lim.max_threads_per_block) {
      p.reason = "register tiling of " + shape_name<S>() + " on a " + std::to_string(out_x) + " x " +
                 std::to_string(out_y) + " tile needs " + std::to_string(p.threads()) + " threads a block (" +
                 std::to_string(layout::rows * layout::cols) + " outputs a thread), above the device's " +
                 std::to_string(lim.max_threads_per_block) + ": use a smaller tile";
      return p;
    }
    // static shared memory (shared_bytes counts dynamic shared memory only)
    constexpr std::size_t ring_bytes = detail::register_box_shared_bytes<S, T>(out_x, out_y);
    if (ring_bytes > 48u * 1024u) {
      p.reason = "register tiling of " + shape_name<S>() + " on a " + std::to_string(out_x) + " x " +
                 std::to_string(out_y) + " tile keeps " + std::to_string(layout::buffers) + " input planes of " +
                 std::to_string(ring_bytes / layout::buffers) +
                 " bytes in static shared memory, above 48 KiB together: use a smaller tile";
      return p;
    }
    p.reason = detail::plane_too_large<S>(e, "register_tiled");
    if (!p.ok()) return p;
    // the chunk depends on the blocks an SM holds: an estimate here, the driver's answer
    // for the kernel when the launch plans again (with_driver_residency)
    const int per_sm = p.resident_per_sm = detail::resident_blocks(p, lim, 128);
    const long long tiles = detail::plane_tiles(e, out_x, out_y);
    const int chunk = Chunk > 0 ? Chunk
                                : detail::register_box_chunk(tiles, e[0], r::width(0) + 1, lim.multiprocessors, per_sm);
    return detail::marched(p, e, out_x, out_y, chunk, lim);
  }
};

}  // namespace tessera::cuda
