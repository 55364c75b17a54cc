#pragma once
// cuda::persistent: iterate's time steps with the whole grid on chip (the idea of PERKS,
// ICS'23). A grid small enough for the SMs' shared memory (an H100's 132 x 227 KiB: about
// 192^3 floats or 146^3 doubles) need not travel to memory between steps at all.
//
// One cooperative block an SM owns a box of the grid: every column x, `box_rows` rows and
// `box_planes` planes, in shared memory with each row's two x-neighbours beyond the faces.
// The box is laid out by what a thread reads together: per plane and thread, its rows in
// chunks of up to 16 bytes ([plane][thread row][chunk][nx + 2][rows a chunk]), so a thread
// loads and stores several rows an instruction at offsets fixed at compile time, and a
// warp's 32 columns are contiguous (no bank conflicts). A step updates the box in place
// and publishes the box's four faces (its first and last row of every plane, its first
// and last plane) to a small face buffer in global memory, one of two by the step's
// parity, and counts the step in a flag of its own; before the next step a box waits only for the boxes whose faces it reads
// (at most four), not for the whole grid, and reads their faces from L2. So the memory
// holds only the faces, and a step costs the shared-memory pass, a few block barriers and
// one exchange of flags with the neighbours (an L2 round trip or two).
//
// A thread owns one column x of RowsPerThread consecutive rows and marches z with the
// planes below, at and above its rows in registers: per plane it loads the plane above and
// the x-neighbours (a chunk of rows each: 6 loads of 16 bytes for 8 floats or 4 doubles),
// and the rows just beyond its own (2). In place: the new values of Group planes wait in
// registers until every thread has read those planes (one block barrier), then overwrite
// them; the planes the next group reads are still old, and a column's own old values
// below come from registers.
//
// Boundary conditions live in the pass as in temporal_blocking (edge_rules.hpp): a fixed
// face's ghosts are read from the input as they are, a periodic or Neumann face's from the
// published face they map to (and the x-neighbours beyond such a face are rewritten with
// the cells they map to as those change).
//
// Bytes: the input once and the output once for a whole pass of up to `Steps` steps, plus
// the faces every step (an L2 round trip, not DRAM's bandwidth): the one-sweep memory floor
// does not bound it. What does: the instructions a cell and step (the 7 multiply-adds, about
// one shared-memory access, and the addressing and publishing around them), the barriers,
// and the SM count. 3D stars of radius 1 (the 7-point) whose grid fits; every
// other case is refused with the reason (use cuda::temporal_blocking).
#include <algorithm>
#include <string>
#include <type_traits>

#include "tessera/cuda/detail/edge_rules.hpp"
#include "tessera/cuda/point_function_streaming.hpp"
#include "tessera/cuda/strategy.hpp"

namespace tessera::cuda {

/// persistent's compiled configuration.
template <int Steps, int RowsPerThread, int Group, int MaxThreads>
struct persistent_tile {
  static constexpr int steps = Steps;                   ///< the most time steps one pass runs
  static constexpr int rows_per_thread = RowsPerThread;  ///< rows a thread owns (4-byte types; 8-byte: half)
  static constexpr int group = Group;                   ///< planes updated between two block barriers
  static constexpr int max_threads = MaxThreads;        ///< threads a block at most (its register budget)
};

namespace detail {

/// Rows a thread owns for element type T: the tile's for 4-byte types, half for 8-byte ones
/// (each value two registers).
template <class Tile, class T>
inline constexpr int persistent_rows = sizeof(T) > 4 ? std::max(1, Tile::rows_per_thread / 2) : Tile::rows_per_thread;

/// Where the face buffer keeps what the boxes publish each step, two of them by parity:
/// first the box's first and last row of every plane (per plane, 2 per box along y, each nx
/// wide), then its first and last plane (2 per box along z, each ny x nx).
struct persistent_faces {
  long long row_faces = 0;    ///< elements of the rows' part of one parity
  long long plane_faces = 0;  ///< elements of the planes' part of one parity
  TESSERA_HD long long per_parity() const { return row_faces + plane_faces; }
};

inline persistent_faces persistent_face_layout(long long nx, long long ny, long long nz, long long boxes_y,
                                               long long boxes_z) {
  return {nz * 2 * boxes_y * nx, 2 * boxes_z * ny * nx};
}

/// What lies beyond one face of one axis for a pass: a fixed cell of the input (its ghost
/// layer at coordinate `at`), or the interior cell `at` the face maps to (periodic, Neumann),
/// which some box publishes every step.
struct persistent_beyond {
  bool fixed = true;
  index_t at = -1;
};

/// The cells beyond each face of extents n (z, y, x) under `rules`: [axis][low, high].
inline void persistent_beyonds(const array<index_t, 3>& n, const edge_rules& rules, persistent_beyond (&out)[3][2]) {
  for (int v = 0; v < 3; ++v)
    for (int side = 0; side < 2; ++side) {
      bool fixed = false;
      out[v][side].at = map_coordinate(side == 0 ? -1 : n[v], n[v], rules, v, fixed);
      out[v][side].fixed = fixed;
    }
}

/// The coordinate a box reads at c along an axis of n points whose face beyond is `b`: c
/// inside the grid, the interior coordinate the face maps to beyond it, or -1 where the face
/// is fixed (the input's ghost layer, which no box publishes). The kernel's face reads and the
/// boxes a box waits for both come from here, so the two cannot drift apart.
TESSERA_HD inline index_t persistent_source(index_t c, index_t n, const persistent_beyond& b) {
  return c < 0 || c >= n ? (b.fixed ? -1 : b.at) : c;
}

/// The boxes whose published faces box (yb, zb) reads in a step, at most four (as indices
/// zb * boxes_y + yb): the boxes beyond its first and last row and its first and last plane,
/// where that face is not fixed, the box the face maps to. Before a step the box waits for
/// these to have published the step before. Safe reuse of the face buffer's two parities
/// needs the relation symmetric (a box read from reads back, or is the box itself): test_plan
/// checks it for every boundary kind.
struct persistent_waits {
  int box[4] = {0, 0, 0, 0};
  int count = 0;
};

TESSERA_HD inline persistent_waits persistent_waits_of(int yb, int zb, int boxes_y, int box_rows, int box_planes,
                                                       index_t ny, index_t nz, const persistent_beyond (&beyond)[3][2]) {
  const index_t y0 = static_cast<index_t>(yb) * box_rows, z0 = static_cast<index_t>(zb) * box_planes;
  const index_t y_end = y0 + box_rows < ny ? y0 + box_rows : ny, z_end = z0 + box_planes < nz ? z0 + box_planes : nz;
  const index_t rows[2] = {persistent_source(y0 - 1, ny, beyond[1][0]), persistent_source(y_end, ny, beyond[1][1])};
  const index_t planes[2] = {persistent_source(z0 - 1, nz, beyond[0][0]),
                             persistent_source(z_end, nz, beyond[0][1])};
  persistent_waits w;
  for (int side = 0; side < 2; ++side) {
    if (rows[side] >= 0) w.box[w.count++] = zb * boxes_y + static_cast<int>(rows[side] / box_rows);
    if (planes[side] >= 0) w.box[w.count++] = static_cast<int>(planes[side] / box_planes) * boxes_y + yb;
  }
  return w;
}

}  // namespace detail

/// Persistent: a whole pass of up to Steps time steps (0: 4096) in one cooperative launch,
/// the grid kept in the SMs' shared memory, one box of it an SM, faces exchanged through L2
/// and a box waiting for its neighbours' flags a step. 3D stars of radius 1 only, on grids
/// that fit (the plan says when not); `apply` runs one step, `iterate` up to Steps a pass (sweep_steps.hpp).
/// RowsPerThread (0: 8 for 4-byte types, half for 8-byte ones) and Group (0: 4 planes
/// between block barriers) trade registers for fewer shared-memory reads and barriers;
/// MaxThreads (0: 384) caps a block's threads, each then holding at most 65536 / MaxThreads
/// registers (more warps an SM to hide latency, fewer registers each).
template <int Steps = 0, int RowsPerThread = 0, int Group = 0, int MaxThreads = 0>
struct persistent : device_policy {
  static std::string name() { return "cuda:persistent"; }
  using strategy = persistent<>;
  static constexpr bool automatic_candidate = false;  // a single sweep gains nothing on chip
  static constexpr bool automatic_fuses = true;       // where the fusion table's row names it

  template <class S>
  using tile = persistent_tile<detail::or_default(Steps, 4096), detail::or_default(RowsPerThread, 8),
                               detail::or_default(Group, 4), detail::or_default(MaxThreads, 384)>;

  /// Point functions: one step a pass, nothing to keep on chip: each thread marches its
  /// column through L1 (streaming's mainloop).
  template <class T, int Rank>
  using point_mainloop = detail::marching_points<
      persistent<>, detail::point_column_tile<32, Rank == 3 ? 8 : 1, 1, detail::point_chunk<T>>>;

  template <class S>
  static constexpr bool has_kernel = std::is_same_v<S, star<3, 1>>;

  /// One pass of `steps` steps: a box an SM (at most one block an SM, all resident at once).
  template <class S, class T>
  static launch_plan plan_steps(const extents<S::rank>& e, const device_limits& lim, int steps) {
    using t = tile<S>;
    launch_plan p;
    p.strategy = detail::plan_label<strategy>();
    if constexpr (!has_kernel<S>) {
      p.reason = "persistent keeps 3D stars of radius 1 (the 7-point) on chip; " + shape_name<S>() +
                 " is not one: use cuda::temporal_blocking";
      return p;
    } else {
      if (!lim.cooperative_launch) {
        p.reason = lim.name + " does not support cooperative launches (cudaDevAttrCooperativeLaunch), which "
                   "persistent needs (its boxes wait on each other, so all must be resident): use cuda::temporal_blocking";
        return p;
      }
      if (steps < 1 || steps > t::steps) {
        p.reason = "a pass runs 1 to " + std::to_string(t::steps) + " steps (the compiled tile), not " +
                   std::to_string(steps) + "; run more with cuda::persistent<" + std::to_string(std::max(steps, 1)) + ">";
        return p;
      }
      const long long nz = e[0], ny = e[1], nx = e[2];
      constexpr int rows = detail::persistent_rows<t, T>;
      const long long row_threads = detail::ceil_div(nx, 32LL) * 32;  // a warp covers 32 columns of one row
      const int boxes_most = lim.multiprocessors;                      // one block an SM, all resident
      const std::string grid = e.to_string() + " " + (sizeof(T) > 4 ? "doubles" : "floats");
      if (row_threads > t::max_threads) {
        p.reason = "a row of " + grid + " has " + std::to_string(nx) + " columns; persistent gives a thread each and "
                   "holds at most " + std::to_string(t::max_threads) + " a block: use cuda::temporal_blocking";
        return p;
      }
      // Rows a box: as many threads' rows as the block holds (no more than the grid has),
      // then the fewest planes a box that keep the boxes within one an SM; fewer rows a
      // box where that box would not fit in shared memory.
      const int most_groups =
          static_cast<int>(std::min<long long>(t::max_threads / row_threads, detail::ceil_div(ny, (long long)rows)));
      for (int groups = most_groups; groups >= 1; --groups) {
        const long long box_rows = static_cast<long long>(groups) * rows;
        const long long boxes_y = detail::ceil_div(ny, box_rows);
        if (boxes_y > boxes_most) break;  // fewer rows only makes more boxes
        const long long boxes_z_most = boxes_most / boxes_y;
        long long box_planes = detail::ceil_div(nz, boxes_z_most);
        box_planes = detail::ceil_div(nz, detail::ceil_div(nz, box_planes));  // the planes spread evenly
        const std::size_t shared = static_cast<std::size_t>(box_planes * box_rows * (nx + 2)) * sizeof(T);
        if (shared > lim.shared_per_block_optin) continue;
        p.block[0] = static_cast<int>(row_threads), p.block[1] = groups, p.block[2] = 1;
        p.shared_bytes = shared;
        p.out_tile[0] = static_cast<int>(nx), p.out_tile[1] = static_cast<int>(box_rows),
        p.out_tile[2] = static_cast<int>(box_planes);
        p.chunk = static_cast<int>(box_planes);
        return detail::covered(p, e, lim);
      }
      p.reason = grid + " does not fit on chip: persistent keeps the whole grid in the shared memory of " +
                 std::to_string(boxes_most) + " SMs (" + detail::kib(lim.shared_per_block_optin) +
                 " each, one box an SM, each row with its 2 x-neighbours): use cuda::temporal_blocking";
      return p;
    }
  }

  template <class S, class T>
  static launch_plan plan(const extents<S::rank>& e, const device_limits& lim) {
    return plan_steps<S, T>(e, lim, 1);
  }
};

}  // namespace tessera::cuda
