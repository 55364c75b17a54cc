#pragma once
// Moving whole fields between one process and a distributed view (small runs, tests,
// .npy output): scatter_from(global, u) copies each rank's block of a global host view
// (available on every rank) into u's interior; gather(u, root) assembles the global
// interior on `root` (MPI_Gatherv) and returns it there, with u's ghost width, its ghost
// layer zero; other ranks get an unallocated view. all_gather(u) returns it on every rank.
#include <mpi.h>

#include <climits>
#include <string>
#include <vector>

#include "tessera/core/errors.hpp"
#include "tessera/mpi/halo_exchange.hpp"

namespace tessera::mpi {

template <class T, int Rank>
void scatter_from(const View<T, Rank, HostSpace>& global, const distributed_view<T, Rank, HostSpace>& u) {
  if (!(global.extents() == u.global_extents()))
    throw extent_mismatch_error("tessera::mpi::scatter_from: " + global.describe() + " is not the global grid " +
                                u.global_extents().to_string() + " of " + u.local().describe());
  const auto a = u.local().accessor();
  const auto g = global.accessor();
  // the block in the global view is the box [offset, offset + n): the same row-major walk
  // over both boxes visits the same points
  index_t lo[Rank] = {}, hi[Rank], glo[Rank], ghi[Rank];
  for (int e = 0; e < Rank; ++e) hi[e] = a.n[e], glo[e] = u.domain().offset()[e], ghi[e] = glo[e] + a.n[e];
  std::vector<T> block;
  block.reserve(static_cast<std::size_t>(u.local().size()));
  detail::for_each_in_box(g, glo, ghi, [&](index_t o) { block.push_back(g.origin[o]); });
  std::size_t k = 0;
  detail::for_each_in_box(a, lo, hi, [&](index_t o) { a.origin[o] = block[k++]; });
}

namespace detail {
/// gather (root >= 0) and all_gather (root < 0: every rank gets the global view).
template <class T, int Rank>
View<T, Rank, HostSpace> gather_blocks(const distributed_view<T, Rank, HostSpace>& u, int root, const char* who) {
  const auto& dom = u.domain();
  const auto a = u.local().accessor();
  index_t lo[Rank] = {}, hi[Rank];
  for (int e = 0; e < Rank; ++e) hi[e] = a.n[e];
  std::vector<T> mine;
  mine.reserve(static_cast<std::size_t>(u.local().size()));
  detail::for_each_in_box(a, lo, hi, [&](index_t o) { mine.push_back(a.origin[o]); });
  if (mine.size() > static_cast<std::size_t>(INT_MAX))
    throw unsupported_error(std::string(who) + ": a block of " + std::to_string(mine.size()) +
                            " elements exceeds MPI's int count");
  const int size = dom.size();
  const bool everyone = root < 0;
  const bool receives = everyone || dom.rank() == root;
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(size)), displs(static_cast<std::size_t>(size));
  if (everyone)
    tessera::mpi::detail::check(MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, dom.comm()), "MPI_Allgather");
  else
    tessera::mpi::detail::check(MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, root, dom.comm()), "MPI_Gather");
  View<T, Rank, HostSpace> out;
  std::vector<T> all;
  if (receives) {
    long long total = 0;
    for (int r = 0; r < size; ++r) displs[r] = static_cast<int>(total), total += counts[r];
    if (total > INT_MAX) throw unsupported_error(std::string(who) + ": the global grid exceeds MPI's int count");
    all.resize(static_cast<std::size_t>(total));
  }
  if (everyone)
    tessera::mpi::detail::check(MPI_Allgatherv(mine.data(), count, detail::datatype<T>(), all.data(), counts.data(),
                                               displs.data(), detail::datatype<T>(), dom.comm()),
                                "MPI_Allgatherv");
  else
    tessera::mpi::detail::check(MPI_Gatherv(mine.data(), count, detail::datatype<T>(), all.data(), counts.data(),
                                            displs.data(), detail::datatype<T>(), root, dom.comm()),
                                "MPI_Gatherv");
  if (!receives) return out;
  out = View<T, Rank, HostSpace>(u.label() + "_global", u.global_extents(), u.ghost());
  const auto o = out.accessor();
  for (int r = 0; r < size; ++r) {
    // rank r's block: its coordinates in the process grid, then the domain's split
    int c[Rank];
    tessera::mpi::detail::check(MPI_Cart_coords(dom.comm(), r, Rank, c), "MPI_Cart_coords");
    index_t blo[Rank], bhi[Rank];
    for (int e = 0; e < Rank; ++e) {
      const auto [first, n] = dom.block(e, c[e]);
      blo[e] = first;
      bhi[e] = first + n;
    }
    std::size_t k = static_cast<std::size_t>(displs[r]);
    detail::for_each_in_box(o, blo, bhi, [&](index_t off) { o.origin[off] = all[k++]; });
  }
  return out;
}
}  // namespace detail

template <class T, int Rank>
View<T, Rank, HostSpace> gather(const distributed_view<T, Rank, HostSpace>& u, int root = 0) {
  if (root < 0 || root >= u.domain().size())
    throw invalid_argument_error("tessera::mpi::gather: root " + std::to_string(root) + " is not a rank of the " +
                                 std::to_string(u.domain().size()) + " processes");
  return detail::gather_blocks(u, root, "tessera::mpi::gather");
}

/// The global interior on every rank (MPI_Allgatherv): a coarse multigrid level solved
/// alike on every process (multigrid.hpp's agglomeration).
template <class T, int Rank>
View<T, Rank, HostSpace> all_gather(const distributed_view<T, Rank, HostSpace>& u) {
  return detail::gather_blocks(u, -1, "tessera::mpi::all_gather");
}

}  // namespace tessera::mpi
