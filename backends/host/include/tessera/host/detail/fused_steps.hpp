#pragma once
// host::parallel's fused time steps: iterate's customisation points fused_steps and
// sweep_steps (algorithms/iterate.hpp), for 2D and 3D grids under boundary conditions.
//
// A pass of k steps streams the grid's planes along the slowest axis (z in 3D; in 2D the
// "planes" are rows of y) once per block: a block is a slab of z times a strip of y rows,
// and keeps, per level below k, the last 2r + 1 planes (r the shape's radius) of its strip
// (widened by the rows the levels above need) in a ring that fits a core's L2. Level 0 is
// the input read through the edge rules (tessera/core/detail/edge_rules.hpp): in place where they
// map a row to itself under fixed x faces, else copied into the ring (a copy of every row
// was a large part of a pass: perf/RESULTS.md); level t's plane q is
// computed from level t-1's planes q - r .. q + r as soon as the last of them exists, its
// ghost columns filled by the rules (Dirichlet: the input's ghost cells; periodic and
// Neumann: the row's own cells, as fill_ghosts would), and level k's rows are written to
// the output. Planes and rows beyond a z or y face are computed from wrapped or mirrored
// level-0 data (or are the input's, under a fixed face), so a block recomputes only the
// k r planes and rows each side that its neighbours also compute.
//
// Bytes: one read and one write of the field per pass instead of per step, plus the
// blocks' halo rows (the output by streaming stores where the sweep would use them; no
// software prefetch: no placement of one measured faster, perf/RESULTS.md); the rings
// stay in L2 (a full-plane ring, 3.2 MB for 4 steps of a 256^2 fp32 plane, did not: it ran
// from L3 no faster than a sweep a step).
#include <algorithm>
#include <optional>
#include <type_traits>
#include <vector>

#include "tessera/core/boundary.hpp"
#include "tessera/core/detail/edge_rules.hpp"
#include "tessera/core/errors.hpp"
#include "tessera/core/detail/static_for.hpp"
#include "tessera/core/stencil.hpp"
#include "tessera/core/view.hpp"
#include "tessera/host/parallel.hpp"  // its row kernel and store choice (it includes this file last)
#include "tessera/host/policy.hpp"

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace tessera::host {

/// How many steps a pass of host::parallel fuses for this stencil under these conditions:
/// the policy's `fuse`, or 0 (a sweep a step) where it is 0 or 1, in 1D, without boundary
/// conditions (each view keeps its own ghosts, which alternate between the views step by
/// step) and under a Neumann face the coefficients do not mirror.
template <class S, class T>
int fused_steps(const parallel& policy, const stencil<S, T>& st, const extents<S::rank>&,
                const std::type_identity_t<std::optional<boundary_conditions<S::rank>>>& bc) {
  team_size(policy);  // refuses a fuse or a team out of range, by name
  if constexpr (S::rank == 1) {
    return 0;
  } else {
    return policy.fuse > 1 && several_steps_exact(st, bc) ? policy.fuse : 0;
  }
}

template <class S, class T, int Rank>
int fused_steps(const parallel& p, const stencil<S, T>& st, const View<T, Rank, HostSpace>& u,
                const std::optional<boundary_conditions<Rank>>& bc) {
  return fused_steps(p, st, u.extents(), bc);
}

namespace detail {

/// One pass over a block of the grid: the slab [z0, z1) of the marched axis times the
/// strip [y0, y1) of rows (3D; 2D has one row a plane). A level's plane keeps only the rows
/// it needs, the strip widened by (k - t) r rows each side at level t, so the block's rings
/// stay in a core's L2; rows beyond a y face are computed (wrapped or mirrored) or are the
/// input's (fixed), as the CUDA kernel treats every axis.
template <class S, class T, int Rank>
class fused_block {
 public:
  static constexpr int r = shape_traits<S>::radius;
  static constexpr int W = 2 * r + 1;  // planes of a level's ring
  static constexpr int vz = 3 - Rank;  // the marched axis among the rules' virtual axes (z, y, x)
  static constexpr int npts = stencil<S, T>::size;

  fused_block(const stencil<S, T>& st, const View<T, Rank, HostSpace>& in, const View<T, Rank, HostSpace>& out,
              int k, const edge_rules& rules, std::vector<T>& ring, index_t y0, index_t y1, bool streaming)
      : st_(st), in_(in.accessor()), out_(out.accessor()), k_(k), rules_(rules), ring_(ring), y0_(y0), y1_(y1),
        streaming_(streaming) {
    nz_ = in_.n[0];
    ny_ = Rank == 3 ? in_.n[1] : 1;
    nx_ = in_.n[Rank - 1];
    // Rows start (x = 0) on a cache line: a vector of the row kernel then crosses a line only
    // where its points shift along x (unaligned rows of nx + 2r made the row kernel slower:
    // perf/RESULTS.md). A row's left ghosts sit at the end of the row before it.
    constexpr index_t L = line_elements<T>;
    pitch_ = (nx_ + 2 * r + L - 1) / L * L;
    halo_ = Rank == 3 ? index_t(k_) * r : 0;
    rows_ = (y1_ - y0_) + 2 * halo_;
    plane_ = rows_ * pitch_;
    ring_.resize(static_cast<std::size_t>(k_) * W * plane_ + 2 * L);  // + the first row's ghosts, alignment
    base_ = ring_.data() + r + elements_to_line(ring_.data() + r);
    // Ghost columns of a computed row: the same sources in every row.
    int c = 0;
    for (index_t j = 1; j <= r; ++j)
      for (const index_t x : {-j, nx_ - 1 + j}) {
        bool fixed = false;
        ghost_src_[c] = map_x(x, fixed), ghost_x_[c] = x, ghost_fixed_[c] = fixed, ++c;
      }
    // Level 0 is the input itself, not a copy in the ring, wherever the copy would equal
    // the input's own row, ghost columns included: planes and rows the edge rules map to
    // themselves, under fixed faces along x (else the ghost columns are wrapped or mirrored).
    own_interval(nz_, [&](index_t i) { bool f = false; return map_z(i, f); }, own_z_);
    if constexpr (Rank == 3) own_interval(ny_, [&](index_t i) { bool f = false; return map_y(i, f); }, own_y_);
    bool fixed_lo = false, fixed_hi = false;
    from_input_ = map_x(-r, fixed_lo) == -r && map_x(nx_ - 1 + r, fixed_hi) == nx_ - 1 + r && fixed_lo && fixed_hi;
    tessera::detail::static_for<npts>([&](auto kk) {
      constexpr int K = decltype(kk)::value;
      constexpr int dz = S::points[K][0], dy = Rank == 3 ? S::points[K][1] : 0, dx = S::points[K][Rank - 1];
      input_shift_[K] = dz * in_.stride[0] + dy * (Rank == 3 ? in_.stride[1] : 0) + dx;
    });
  }

  void run(index_t z0, index_t z1) {
    for (index_t p = z0 - index_t(k_) * r; p < z1 + index_t(k_) * r; ++p) {
      load_level0(p);
      for (int t = 1; t <= k_; ++t) {
        const index_t q = p - index_t(t) * r;
        if (q < z0 - index_t(k_ - t) * r) continue;  // before what level k needs
        const index_t ya = t == k_ ? y0_ : y0_ - reach(t), yb = t == k_ ? y1_ : y1_ + reach(t);
        if (fixed_plane(q)) {  // beyond a fixed face: the input's plane at every level
          if (t < k_) load_input_rows(q, t, ya, yb);
          continue;
        }
        compute_rows(t, q, ya, yb);
      }
    }
    if (streaming_) stream_fence();
  }

 private:
  static index_t row_offset(const view_accessor<T, Rank>& a, index_t y) { return Rank == 3 ? y * a.stride[1] : 0; }
  index_t reach(int t) const { return Rank == 3 ? index_t(k_ - t) * r : 0; }
  static index_t slot_of(index_t q) { return ((q % W) + W) % W; }

  /// Row y (x = 0) of level t's plane q in the ring.
  T* row(int t, index_t q, index_t y) {
    return base_ + (static_cast<std::size_t>(t) * W + slot_of(q)) * plane_ + (y - (y0_ - halo_)) * pitch_;
  }

  bool fixed_plane(index_t q) const { return beyond_fixed_face(q, nz_, rules_, vz); }
  index_t map_z(index_t q, bool& fixed) const {
    return map_coordinate(q, nz_, rules_, vz, fixed);
  }
  index_t map_y(index_t y, bool& fixed) const {
    return Rank == 3 ? map_coordinate(y, ny_, rules_, 1, fixed) : 0;
  }
  index_t map_x(index_t x, bool& fixed) const {
    return map_coordinate(x, nx_, rules_, 2, fixed);
  }

  /// Whether the edge rules map every plane in [q - w, q + w] (rows [y - w, y + w]) to
  /// itself: there the input's plane (row) is level 0's.
  bool planes_own(index_t q, index_t w) const { return own_z_[0] + w <= q && q + w < own_z_[1]; }
  bool rows_own(index_t y, index_t w) const { return Rank == 2 || (own_y_[0] + w <= y && y + w < own_y_[1]); }
  /// The cells of an axis (n interior) that map(i) sends to themselves: [0, n), widened by
  /// the ghost layers beside a fixed face (beyond them the face clamps, so the loops end).
  template <class Map>
  static void own_interval(index_t n, Map map, index_t* range) {
    range[0] = 0, range[1] = n;
    while (map(range[0] - 1) == range[0] - 1) --range[0];
    while (map(range[1]) == range[1]) ++range[1];
  }
  /// Level 1 reads row y of plane q's points from the input (else from level 0's ring).
  bool level1_from_input(index_t q, index_t y) const { return from_input_ && planes_own(q, r) && rows_own(y, r); }

  /// Level 0's plane p: into the ring, only the rows that some level-1 row reads from the
  /// ring (those within r planes and r rows of one that is not read from the input).
  void load_level0(index_t p) {
    bool unused = false;
    const index_t mz = map_z(p, unused);
    const bool whole = !from_input_ || !planes_own(p, 2 * r);
    for (index_t y = y0_ - halo_; y < y1_ + halo_; ++y)
      if (whole || !rows_own(y, 2 * r)) load_input_row(mz, y, row(0, p, y));
  }

  /// Rows [ya, yb) of plane q, or a fixed plane's or row's at any level: the input through
  /// the edge rules, ghost columns included.
  void load_input_rows(index_t q, int t, index_t ya, index_t yb) {
    bool unused = false;
    const index_t mz = map_z(q, unused);
    for (index_t y = ya; y < yb; ++y) load_input_row(mz, y, row(t, q, y));
  }
  void load_input_row(index_t mz, index_t y, T* dst) const {
    bool unused = false;
    const T* src = in_.origin + mz * in_.stride[0] + row_offset(in_, map_y(y, unused));
    std::copy(src, src + nx_, dst);
    for (int c = 0; c < 2 * r; ++c) dst[ghost_x_[c]] = src[ghost_src_[c]];  // the rules' x sources
  }

  /// Level t's rows [ya, yb) of plane q from level t - 1 (level k: into the output), each
  /// by host::parallel's row kernel with its points' offsets: the same for every row of a
  /// level's plane in the ring (its rows are evenly pitched), the input's strides where
  /// level 1 reads the input.
  void compute_rows(int t, index_t q, index_t ya, index_t yb) {
    bool unused = false;
    const index_t mz = map_z(q, unused);
    const index_t slot = slot_of(q);
    index_t ring_shift[npts];
    tessera::detail::static_for<npts>([&](auto kk) {
      constexpr int K = decltype(kk)::value;
      constexpr int dz = S::points[K][0], dy = Rank == 3 ? S::points[K][1] : 0, dx = S::points[K][Rank - 1];
      ring_shift[K] = (slot_of(q + dz) - slot) * plane_ + dy * pitch_ + dx;
    });
    const bool last = t == k_;
    // the rows' pointers advance by a pitch a row (the ring's and the output's)
    T* o = last ? out_.origin + q * out_.stride[0] + row_offset(out_, ya) : row(t, q, ya);
    const index_t o_pitch = last ? (Rank == 3 ? out_.stride[1] : 0) : pitch_;
    const T* centre = row(t - 1, q, ya);
    for (index_t y = ya; y < yb; ++y, o += o_pitch, centre += pitch_) {
      // the input's row y of plane mz, where it is one (the rules map y to itself): level 1
      // reads it in place, and its ghost cells are those of fixed x faces
      const T* const in_row = rows_own(y, 0) ? in_.origin + mz * in_.stride[0] + row_offset(in_, y) : nullptr;
      if (Rank == 3 && (y < 0 || y >= ny_)) {
        bool fixed_row = false;
        map_y(y, fixed_row);
        if (fixed_row) {  // beyond a fixed y face (never an output row): the input's row
          load_input_row(mz, y, o);
          continue;
        }
      }
      if (t == 1 && level1_from_input(q, y)) {
        sweep_row_as(last && streaming_, st_, in_row, o, input_shift_, nx_);  // mz == q here
      } else {
        sweep_row_as(last && streaming_, st_, centre, o, ring_shift, nx_);
      }
      if (last) continue;
      // ghost columns: the input's beyond a fixed x face, else the row's own cell
      const T* src = in_row;
      for (int c = 0; c < 2 * r; ++c) {
        if (ghost_fixed_[c]) {
          if (!src) src = in_.origin + mz * in_.stride[0] + row_offset(in_, map_y(y, unused));
          o[ghost_x_[c]] = src[ghost_src_[c]];
        } else {
          o[ghost_x_[c]] = o[ghost_src_[c]];
        }
      }
    }
  }

  const stencil<S, T>& st_;
  view_accessor<T, Rank> in_, out_;
  int k_;
  edge_rules rules_;
  std::vector<T>& ring_;
  T* base_ = nullptr;  // level 0's first plane slot, row y0 - halo, x = 0: on a cache line
  index_t y0_, y1_;
  index_t nz_ = 0, ny_ = 0, nx_ = 0, pitch_ = 0, halo_ = 0, rows_ = 0, plane_ = 0;
  bool streaming_ = false;  // level k's rows leave by streaming stores (a large output)
  // the ghost columns of a computed row (x), each from column src of the row or, where
  // fixed, of the input's row
  index_t ghost_x_[2 * r], ghost_src_[2 * r];
  bool ghost_fixed_[2 * r];
  bool from_input_ = false;  // level 0 is read from the input where the rules map to itself
  index_t own_z_[2] = {0, 0}, own_y_[2] = {0, 0};  // the planes and rows the rules map to themselves
  index_t input_shift_[npts];  // the points' offsets in the input
};

/// Rows of a block's strip: as many as keep its rings (k levels x (2r + 1) planes of the
/// strip plus its halo) within ~768 KiB, meant as a core's L2 with room for the rows
/// streaming through; at least 8. (On the 2-core build VM, 512 KiB a core, smaller budgets
/// ran alike within its run-to-run noise: perf/RESULTS.md.)
template <class S, class T>
index_t strip_rows(index_t nx, int k) {
  constexpr int r = shape_traits<S>::radius;
  const index_t row_bytes = (nx + 2 * r) * static_cast<index_t>(sizeof(T)) * k * (2 * r + 1);
  return std::max<index_t>(8, (768 * 1024) / std::max<index_t>(1, row_bytes) - 2 * index_t(k) * r);
}

}  // namespace detail

/// One pass of `steps` fused steps from in to out under bc (iterate's contract: out's
/// interior = `steps` times (fill in's ghosts, sweep), to rounding; out's ghosts are not
/// written, in is not written). Threads split the marched axis into slabs.
template <class S, class T, int Rank>
void sweep_steps(const parallel& policy, const stencil<S, T>& st, const View<T, Rank, HostSpace>& in,
                 const View<T, Rank, HostSpace>& out, int steps, const std::optional<boundary_conditions<Rank>>& bc) {
  if constexpr (Rank < 2) {
    throw unsupported_error("tessera::iterate(host:parallel) on " + in.describe() +
                            ": fused steps need a 2D or 3D grid (fused_steps answers 0 in 1D: sweep a step at a time)");
  } else {
    if (steps > 1 && reads_beyond_dirichlet_wall(bc, shape_traits<S>::radius))
      throw unsupported_error("tessera::iterate(host:parallel) on " + in.describe() + ": fusing " +
                              std::to_string(steps) + " steps under a Dirichlet face needs a stencil of reach 1; this " +
                              "one reads " + std::to_string(shape_traits<S>::radius) +
                              " cells out, past the wall, where a fill writes each step's reflection of the interior, " +
                              "so fuse one step per pass (fused_steps says how many)");
    const edge_rules rules = make_edge_rules<Rank>(bc, in.ghost());
    const index_t nz = in.extents()[0], ny = Rank == 3 ? in.extents()[1] : 1;
    // as many strips as rows of strip_rows need, of equal height (128 rows in strips of 118
    // and 10 recomputed the short one's halo rows as often as the long one's)
    const index_t most = Rank == 3 ? std::min(ny, detail::strip_rows<S, T>(in.extents()[Rank - 1], steps)) : 1;
    const index_t strip = (ny + (ny + most - 1) / most - 1) / ((ny + most - 1) / most);
    const index_t strips = (ny + strip - 1) / strip;  // none empty
    const bool streaming = streams_output(policy, out);  // as the sweep would write `out`
    const int threads = team_size(policy);
    // slabs of at least 4 k r planes, so the recomputed halo stays below a quarter
    const index_t slabs =
        std::max<index_t>(1, std::min<index_t>(threads, nz / (4 * steps * shape_traits<S>::radius)));
#pragma omp parallel num_threads(threads)
    {
      thread_local std::vector<T> ring;  // reused by the thread's later blocks and passes
      // blocks handed out as threads come free: on a shared machine two cores run at
      // different speeds, and a static split left the faster waiting at the pass's end
      // (dynamic measured faster: perf/RESULTS.md)
#pragma omp for schedule(dynamic, 1)
      for (index_t b = 0; b < slabs * strips; ++b) {
        const index_t slab = b / strips, s = b % strips;
        const index_t z0 = nz * slab / slabs, z1 = nz * (slab + 1) / slabs;
        const index_t y0 = s * strip, y1 = std::min(ny, y0 + strip);
        detail::fused_block<S, T, Rank>(st, in, out, steps, rules, ring, y0, y1, streaming).run(z0, z1);
      }
    }
  }
}

}  // namespace tessera::host
