#pragma once
// cartesian_domain<Rank>: a global grid split over the ranks of an MPI communicator as a
// Cartesian process grid (MPI_Cart_create). The process grid is the user's (dims), or on
// the axes the user leaves free (0) the one whose halos move the fewest cells
// (fewest_halo_cells_grid: a long grid is cut across its length, not into MPI_Dims_create's
// balanced factors, which it keeps on a tie); each axis is periodic or not. Every rank owns a block: along each
// axis the first (N mod P) ranks take N / P + 1 points, the others N / P, so sizes that do
// not divide evenly are served. The rank's block has global offset `offset()` and local
// extents `local_extents()`; its neighbours along each axis are MPI_Cart_shift's (MPI_PROC_NULL
// on a global boundary of a non-periodic axis). The first domain a process makes shares the
// node's cores among the processes on it (node.hpp: share_node_cores), unless
// OMP_NUM_THREADS says otherwise.
#include <mpi.h>

#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tessera/core/errors.hpp"
#include "tessera/core/extents.hpp"
#include "tessera/mpi/mpi_error.hpp"
#include "tessera/mpi/node.hpp"

namespace tessera::mpi {

/// The cells one exchange of ghost width 1 sends across all interfaces of process grid
/// `dims` over a grid of `global` points (one direction; both directions move twice as
/// many): each interface between two blocks along axis a carries the grid's whole
/// cross-section across a, and a periodic axis of more than one process has one interface
/// more, where it wraps.
template <int Rank>
long double halo_cells(const extents<Rank>& global, const std::type_identity_t<std::array<bool, Rank>>& periodic,
                       const std::type_identity_t<std::array<int, Rank>>& dims) {
  long double cells = 0;
  for (int a = 0; a < Rank; ++a) {
    const int interfaces = dims[a] > 1 && periodic[a] ? dims[a] : dims[a] - 1;
    long double section = 1;
    for (int b = 0; b < Rank; ++b)
      if (b != a) section *= static_cast<long double>(global[b]);
    cells += interfaces * section;
  }
  return cells;
}

/// The process grid of `processes` whose halos move the fewest cells (halo_cells): axes
/// `fixed` gives (> 0) are kept, the free ones (0) take any factors whose product fits,
/// every block keeps at least one point an axis. A tie keeps `preferred` (MPI_Dims_create's
/// balanced grid, which cartesian_domain passes) where it fits and is among the best;
/// `preferred` is also the answer when no grid fits (cartesian_domain then refuses it by name).
template <int Rank>
std::array<int, Rank> fewest_halo_cells_grid(const extents<Rank>& global, int processes,
                                             const std::type_identity_t<std::array<bool, Rank>>& periodic,
                                             const std::type_identity_t<std::array<int, Rank>>& fixed,
                                             const std::type_identity_t<std::array<int, Rank>>& preferred) {
  std::array<int, Rank> best = preferred, dims{};
  long double best_cells = halo_cells<Rank>(global, periodic, preferred);
  // false while best is a preferred grid that does not fit (a block left empty, a fixed
  // axis changed, another number of processes)
  bool best_fits = true;
  long long product = 1;
  for (int a = 0; a < Rank; ++a) {
    best_fits = best_fits && preferred[a] >= 1 && global[a] >= preferred[a] && (fixed[a] == 0 || fixed[a] == preferred[a]);
    product *= preferred[a];
  }
  best_fits = best_fits && product == processes;
  // axes in order; `left` processes remain for the axes from a on
  auto visit = [&](auto&& self, int a, int left) -> void {
    if (a == Rank) {
      if (left != 1) return;
      const long double cells = halo_cells<Rank>(global, periodic, dims);
      if (!best_fits || cells < best_cells) best = dims, best_cells = cells, best_fits = true;
      return;
    }
    for (int f = 1; f <= left; ++f) {
      if (left % f != 0 || (fixed[a] > 0 && f != fixed[a]) || global[a] < f) continue;
      dims[a] = f;
      self(self, a + 1, left / f);
    }
  };
  if (processes >= 1) visit(visit, 0, processes);
  return best;
}

template <int Rank>
class cartesian_domain {
 public:
  cartesian_domain() = default;
  /// global: the whole grid's interior extents; periodic: per axis; dims: processes per
  /// axis (0: chosen, see fewest_halo_cells_grid; the product must be the communicator's size).
  /// Throws invalid_argument_error, naming the axis, when an axis has fewer points than
  /// processes.
  cartesian_domain(MPI_Comm comm, const extents<Rank>& global, std::array<bool, Rank> periodic = {},
                   std::array<int, Rank> dims = {})
      : global_(global), periodic_(periodic) {
    int size = 0;
    detail::check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
    std::array<int, Rank> d = dims;  // the grid: dims, then its free axes (0) chosen
    int p[Rank];
    for (int a = 0; a < Rank; ++a) p[a] = periodic[a] ? 1 : 0;
    int product = 1;
    bool free_axes = false;
    for (int a = 0; a < Rank; ++a) {
      if (d[a] < 0) throw invalid_argument_error("tessera::mpi::cartesian_domain: dims must be >= 0 (0: chosen)");
      free_axes = free_axes || d[a] == 0;
      product *= d[a] > 0 ? d[a] : 1;
    }
    if ((!free_axes && product != size) || (free_axes && size % product != 0))
      throw invalid_argument_error("tessera::mpi::cartesian_domain: a process grid of " + dims_text(d.data()) +
                                   " does not fit " + std::to_string(size) + " processes");
    detail::check(MPI_Dims_create(size, Rank, d.data()), "MPI_Dims_create");  // the balanced grid
    if (free_axes) d = fewest_halo_cells_grid(global, size, periodic, dims, d);
    MPI_Comm cart = MPI_COMM_NULL;
    detail::check(MPI_Cart_create(comm, Rank, d.data(), p, /*reorder=*/0, &cart), "MPI_Cart_create");
    comm_ = std::shared_ptr<MPI_Comm>(new MPI_Comm(cart), [](MPI_Comm* c) {
      int finalized = 0;
      MPI_Finalized(&finalized);
      if (!finalized && *c != MPI_COMM_NULL) MPI_Comm_free(c);
      delete c;
    });
    detail::check(MPI_Comm_rank(cart, &rank_), "MPI_Comm_rank");
    static const bool shared = (share_node_cores(comm), true);  // once a process, collective like this constructor
    (void)shared;
    int c[Rank];
    detail::check(MPI_Cart_coords(cart, rank_, Rank, c), "MPI_Cart_coords");
    for (int a = 0; a < Rank; ++a) {
      dims_[a] = d[a];
      coords_[a] = c[a];
      if (global[a] < d[a])
        throw invalid_argument_error("tessera::mpi::cartesian_domain: axis " + std::to_string(a) + " has " +
                                     std::to_string(global[a]) + " points for " + std::to_string(d[a]) +
                                     " processes (global " + global.to_string() + ", process grid " + dims_text(d.data()) +
                                     "); every process needs at least one point: use fewer processes along it");
      starts_[a].resize(static_cast<std::size_t>(d[a]) + 1);
      for (int k = 0; k < d[a]; ++k) starts_[a][static_cast<std::size_t>(k)] = block_along(global[a], d[a], k).first;
      starts_[a][static_cast<std::size_t>(d[a])] = global[a];
      const auto [first, count] = block_along(global[a], d[a], c[a]);
      offset_[a] = first;
      local_[a] = count;
      detail::check(MPI_Cart_shift(cart, a, 1, &low_[a], &high_[a]), "MPI_Cart_shift");
    }
  }

  /// The domain of the next coarser multigrid level when the axes `coarsen` marks coarsen
  /// by vertex (core/grid_transfer.hpp: coarse point I on fine point 2I + 1, n = 2m + 1 fine
  /// points give m): the same processes, neighbours and communicator, each rank's block the
  /// coarse points whose fine point it owns. Where every block of a coarsened axis starts at
  /// an even global point, a block's local coarse point i lies on its local fine point
  /// 2i + 1, the mapping the transfers use on one process, so they run on each block
  /// unchanged. Empty when that does not hold, or an axis marked is periodic, has an even
  /// number of points or fewer than 3, or a coarse block would keep fewer than
  /// `min_block` points. The same answer on every rank (no communication).
  std::optional<cartesian_domain> coarsened_by_vertex(const std::array<bool, Rank>& coarsen, index_t min_block = 2) const {
    cartesian_domain c = *this;
    for (int a = 0; a < Rank; ++a) {
      if (!coarsen[a]) continue;
      const index_t n = global_[a];
      if (periodic_[a] || n < 3 || n % 2 == 0) return std::nullopt;
      auto& s = c.starts_[a];
      for (std::size_t k = 0; k + 1 < s.size(); ++k)
        if (s[k] % 2 != 0) return std::nullopt;
      for (std::size_t k = 0; k + 1 < s.size(); ++k) s[k] /= 2;
      s.back() = (n - 1) / 2;
      for (std::size_t k = 0; k + 1 < s.size(); ++k)
        if (s[k + 1] - s[k] < min_block) return std::nullopt;
      c.global_[a] = (n - 1) / 2;
      c.offset_[a] = s[static_cast<std::size_t>(coords_[a])];
      c.local_[a] = s[static_cast<std::size_t>(coords_[a]) + 1] - c.offset_[a];
    }
    return c;
  }

  /// The block of the process at coordinate c of p along an axis of n points: its first
  /// point and its count (the first n mod p processes take one point more). Every rank's
  /// block, this one's and (for gather) the others', comes from here.
  static std::pair<index_t, index_t> block_along(index_t n, int p, int c) {
    const index_t base = n / p, extra = n % p;
    return {c * base + (c < extra ? c : extra), base + (c < extra ? 1 : 0)};
  }
  /// Along `axis`, the first point and the count of the block of the processes at
  /// coordinate c (block_along's split, or a coarsened domain's: coarsened_by_vertex).
  std::pair<index_t, index_t> block(int axis, int c) const {
    const auto& s = starts_[static_cast<std::size_t>(axis)];
    return {s[static_cast<std::size_t>(c)], s[static_cast<std::size_t>(c) + 1] - s[static_cast<std::size_t>(c)]};
  }
  /// The fewest points any block has along `axis`.
  index_t thinnest_block(int axis) const {
    index_t t = global_[axis];
    for (int c = 0; c < dims_[axis]; ++c) t = std::min(t, block(axis, c).second);
    return t;
  }

  MPI_Comm comm() const { return *comm_; }
  int rank() const { return rank_; }
  int size() const {
    int s = 1;
    for (int a = 0; a < Rank; ++a) s *= dims_[a];
    return s;
  }
  const extents<Rank>& global_extents() const { return global_; }
  const extents<Rank>& local_extents() const { return local_; }
  /// Global coordinates of this rank's interior point (0, ..., 0).
  const std::array<index_t, Rank>& offset() const { return offset_; }
  const std::array<int, Rank>& dims() const { return dims_; }
  const std::array<int, Rank>& coords() const { return coords_; }
  bool periodic(int axis) const { return periodic_[axis]; }
  /// The neighbour rank on the low (side 0) or high (side 1) side of axis a, or
  /// MPI_PROC_NULL where that side is a global boundary of a non-periodic axis.
  int neighbour(int axis, int side) const { return side == 0 ? low_[axis] : high_[axis]; }
  /// True when that side of this rank's block is a face of the global grid.
  bool on_global_boundary(int axis, int side) const {
    return side == 0 ? coords_[axis] == 0 : coords_[axis] == dims_[axis] - 1;
  }
  /// "2x2x1"
  std::string describe_grid() const {
    int d[Rank];
    for (int a = 0; a < Rank; ++a) d[a] = dims_[a];
    return dims_text(d);
  }

 private:
  static std::string dims_text(const int* d) {
    std::string s;
    for (int a = 0; a < Rank; ++a) {
      if (a) s += 'x';
      s += std::to_string(d[a]);
    }
    return s;
  }
  extents<Rank> global_{}, local_{};
  std::array<bool, Rank> periodic_{};
  std::array<int, Rank> dims_{}, coords_{}, low_{}, high_{};
  std::array<index_t, Rank> offset_{};
  std::array<std::vector<index_t>, Rank> starts_{};  // per axis: each coordinate's first point, then the extent
  std::shared_ptr<MPI_Comm> comm_;
  int rank_ = 0;
};

/// A process grid that lets a distributed device step overlap its halo exchange with the
/// sweep (overlap_boxes.hpp): the grid that moves the fewest halo cells (halo_cells) among
/// those that leave the last axis whole (the boxes swept keep whole rows) and give every
/// block at least 4 * ghost cells along each split axis (so the cells swept while the
/// halos travel outnumber the 2 * ghost swept after them); a tie goes to the grid with more
/// processes along the earlier axes (a slab first: its messages are whole planes). All
/// zeros when none fits, which lets cartesian_domain choose (fewest_halo_cells_grid). For a
/// cube on 4 processes it is 2x2x1 (two interfaces a rank) rather than the slab 4x1x1
/// (three). Pass the result as cartesian_domain's dims.
template <int Rank>
std::array<int, Rank> overlapping_process_grid(const extents<Rank>& global, int processes, int ghost,
                                               const std::type_identity_t<std::array<bool, Rank>>& periodic = {}) {
  std::array<int, Rank> best{}, dims{};
  if (Rank < 2 || processes < 2 || ghost < 1) return best;
  long double best_cells = 0;
  bool found = false;
  dims[Rank - 1] = 1;
  // axes 0 .. Rank-2 in order, the larger factor first: the first grid of the fewest cells wins
  auto visit = [&](auto&& self, int a, int left) -> void {
    if (a == Rank - 1) {
      if (left != 1) return;
      const long double cells = halo_cells<Rank>(global, periodic, dims);
      if (!found || cells < best_cells) best = dims, best_cells = cells, found = true;
      return;
    }
    for (int f = left; f >= 1; --f) {
      if (left % f != 0 || (f > 1 && global[a] / f < 4 * index_t(ghost))) continue;
      dims[a] = f;
      self(self, a + 1, left / f);
    }
  };
  visit(visit, 0, processes);
  return found ? best : std::array<int, Rank>{};
}

}  // namespace tessera::mpi
