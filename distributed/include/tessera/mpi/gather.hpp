#pragma once
// Moving whole fields between one process and a distributed view (small runs, tests,
// .npy output): scatter_from(global, u) copies each rank's block of a global host view
// (available on every rank) into u's interior; gather(u, root) assembles the global
// interior on `root` (MPI_Gatherv) and returns it there, with u's ghost width, its ghost
// layer zero; other ranks get an unallocated view.
#include <mpi.h>

#include <climits>
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

template <class T, int Rank>
View<T, Rank, HostSpace> gather(const distributed_view<T, Rank, HostSpace>& u, int root = 0) {
  const auto& dom = u.domain();
  const auto a = u.local().accessor();
  index_t lo[Rank] = {}, hi[Rank];
  for (int e = 0; e < Rank; ++e) hi[e] = a.n[e];
  std::vector<T> mine;
  mine.reserve(static_cast<std::size_t>(u.local().size()));
  detail::for_each_in_box(a, lo, hi, [&](index_t o) { mine.push_back(a.origin[o]); });
  if (mine.size() > static_cast<std::size_t>(INT_MAX))
    throw unsupported_error("tessera::mpi::gather: a block of " + std::to_string(mine.size()) +
                            " elements exceeds MPI's int count");
  const int size = dom.size();
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(size)), displs(static_cast<std::size_t>(size));
  tessera::mpi::detail::check(MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, root, dom.comm()), "MPI_Gather");
  View<T, Rank, HostSpace> out;
  std::vector<T> all;
  if (dom.rank() == root) {
    long long total = 0;
    for (int r = 0; r < size; ++r) displs[r] = static_cast<int>(total), total += counts[r];
    if (total > INT_MAX) throw unsupported_error("tessera::mpi::gather: the global grid exceeds MPI's int count");
    all.resize(static_cast<std::size_t>(total));
  }
  tessera::mpi::detail::check(MPI_Gatherv(mine.data(), count, detail::datatype<T>(), all.data(), counts.data(),
                                          displs.data(), detail::datatype<T>(), root, dom.comm()),
                              "MPI_Gatherv");
  if (dom.rank() != root) return out;
  out = View<T, Rank, HostSpace>(u.label() + "_global", u.global_extents(), u.ghost());
  const auto o = out.accessor();
  const auto& n = u.global_extents();
  for (int r = 0; r < size; ++r) {
    // rank r's block: its coordinates in the process grid, then the domain's split
    int c[Rank];
    tessera::mpi::detail::check(MPI_Cart_coords(dom.comm(), r, Rank, c), "MPI_Cart_coords");
    index_t blo[Rank], bhi[Rank];
    for (int e = 0; e < Rank; ++e) {
      const auto [first, count] = cartesian_domain<Rank>::block_along(n[e], dom.dims()[e], c[e]);
      blo[e] = first;
      bhi[e] = first + count;
    }
    std::size_t k = static_cast<std::size_t>(displs[r]);
    detail::for_each_in_box(o, blo, bhi, [&](index_t off) { o.origin[off] = all[k++]; });
  }
  return out;
}

}  // namespace tessera::mpi
