#pragma once
// fill_halos(u, bc): fills the ghost layer of every rank's block of a distributed view so
// that it holds what the ghost layer of one undistributed view would hold after
// fill_ghosts(view, bc): neighbours' interior where the block borders another rank
// (periodic axes wrap through MPI's periodic process grid), the boundary conditions where
// it borders the global boundary. Without bc, global-boundary ghosts are left as they are.
//
// Axes are done in order 0, 1, 2, as fill_ghosts does them: along axis d each rank
// exchanges the slabs of fill_ghosts' boxes (core/boundary.hpp ghost_slab: the axes before
// d over their full, already filled range, the axes after d over the interior) with its
// two neighbours, then fills its global-boundary faces of axis d. Edges and corners thus
// arrive through the face neighbours (a box stencil's diagonal neighbours included), one
// message per face neighbour and axis, and every ghost cell equals the undistributed
// fill's bit for bit.
//
// Transport: host-staged MPI (pack into a host buffer, MPI_Sendrecv, unpack), the one
// that works with every MPI. HostSpace views.
#include <mpi.h>

#include <climits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "tessera/core/boundary.hpp"
#include "tessera/core/errors.hpp"
#include "tessera/host/host.hpp"  // fill_ghost_face(HostSpace, ...), the host backend's customisation point
#include "tessera/mpi/distributed_view.hpp"

namespace tessera::mpi {

namespace detail {
template <class T>
MPI_Datatype datatype() {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "tessera::mpi: float or double fields");
  return std::is_same_v<T, float> ? MPI_FLOAT : MPI_DOUBLE;
}

/// Calls f(offset) for every element of the box [lo, hi) of a rank-Rank accessor, in
/// row-major order (the order pack and unpack agree on).
template <class T, int Rank, class F>
void for_each_in_box(const view_accessor<T, Rank>& a, const index_t* lo, const index_t* hi, F&& f) {
  index_t l[3] = {0, 0, 0}, h[3] = {1, 1, 1}, s[3] = {0, 0, 0};
  for (int e = 0; e < Rank; ++e) l[e + 3 - Rank] = lo[e], h[e + 3 - Rank] = hi[e], s[e + 3 - Rank] = a.stride[e];
  for (index_t i = l[0]; i < h[0]; ++i)
    for (index_t j = l[1]; j < h[1]; ++j)
      for (index_t k = l[2]; k < h[2]; ++k) f(i * s[0] + j * s[1] + k * s[2]);
}

/// What every fill of a distributed view's halos checks first, on every rank alike (so
/// that all ranks refuse together instead of some waiting in an exchange the others
/// left): boundary conditions periodic exactly on the domain's periodic axes, and blocks
/// no thinner than the ghost width along an axis whose halos are copied.
template <int Rank>
void check_halo_fill(const std::string& who, const cartesian_domain<Rank>& dom, index_t g,
                     const std::optional<boundary_conditions<Rank>>& bc) {
  for (int d = 0; d < Rank; ++d) {
    if (bc) {
      const bool lo_p = bc->faces[2 * d].kind == boundary_kind::periodic,
                 hi_p = bc->faces[2 * d + 1].kind == boundary_kind::periodic;
      if (lo_p != dom.periodic(d) || hi_p != dom.periodic(d))
        throw invalid_argument_error(who + ": axis " + std::to_string(d) + " is " +
                                     (dom.periodic(d) ? "periodic in the domain" : "not periodic in the domain") +
                                     " but its boundary conditions say " + to_string(bc->faces[2 * d].kind) + " / " +
                                     to_string(bc->faces[2 * d + 1].kind) +
                                     "; make the domain's periodic axes those with periodic conditions");
    }
    // decided from the thinnest block along the axis: the same answer on every rank
    const index_t thinnest = dom.thinnest_block(d);
    const bool exchanges = dom.dims()[d] > 1 || dom.periodic(d);
    const bool mirrors = bc && (bc->faces[2 * d].kind == boundary_kind::neumann ||
                                bc->faces[2 * d + 1].kind == boundary_kind::neumann);
    if ((exchanges || mirrors) && thinnest < g)
      throw invalid_argument_error(who + ": blocks of " + std::to_string(thinnest) + " point(s) along axis " +
                                   std::to_string(d) + " (global " + dom.global_extents().to_string() + ") are thinner than the ghost width " +
                                   std::to_string(g) + " a halo copies; use fewer processes along that axis or a larger grid");
    // a Dirichlet face reflects its g - 1 layers beyond the wall from the block's interior
    const bool reflects = bc && (bc->faces[2 * d].kind == boundary_kind::dirichlet ||
                                 bc->faces[2 * d + 1].kind == boundary_kind::dirichlet);
    if (reflects && thinnest < g - 1)
      throw invalid_argument_error(who + ": blocks of " + std::to_string(thinnest) + " point(s) along axis " +
                                   std::to_string(d) + " (global " + dom.global_extents().to_string() +
                                   ") are thinner than the " + std::to_string(g - 1) +
                                   " layer(s) a Dirichlet face reflects beyond its wall; use fewer processes along "
                                   "that axis or a larger grid");
  }
}

/// A halo slab's element count, refused above MPI's int count.
inline void check_message_count(const std::string& who, index_t count) {
  if (count > INT_MAX)
    throw unsupported_error(who + ": a halo slab of " + std::to_string(count) +
                            " elements exceeds MPI's int count; use more processes");
}
}  // namespace detail

template <class T, int Rank, class Space>
void fill_halos(const distributed_view<T, Rank, Space>& u,
                const std::type_identity_t<std::optional<boundary_conditions<Rank>>>& bc = {}) {
  static_assert(Space::host_accessible, "tessera::mpi::fill_halos: host-staged exchange of HostSpace views");
  const auto& dom = u.domain();
  const auto a = u.local().accessor();
  const index_t g = u.ghost();
  if (g == 0) return;
  const std::string who = "tessera::mpi::fill_halos(" + u.local().describe() + ", rank " + std::to_string(dom.rank()) +
                          " of process grid " + dom.describe_grid() + ")";
  detail::check_halo_fill(who, dom, g, bc);
  for (int d = 0; d < Rank; ++d) {
    // the two slabs sent (low: the first g layers, high: the last g) and the two received
    index_t lo[Rank], hi[Rank];
    for (int e = 0; e < Rank; ++e) lo[e] = e < d ? -g : 0, hi[e] = e < d ? a.n[e] + g : a.n[e];
    index_t count = 1;
    for (int e = 0; e < Rank; ++e) count *= e == d ? g : hi[e] - lo[e];
    detail::check_message_count(who, count);
    std::vector<T> send(static_cast<std::size_t>(count)), recv(static_cast<std::size_t>(count));
    for (int side = 0; side < 2; ++side) {
      // send my side `side` layers to that neighbour; receive the opposite neighbour's
      // layers into my ghosts on the opposite side
      index_t slo[Rank], shi[Rank], rlo[Rank], rhi[Rank];
      for (int e = 0; e < Rank; ++e) slo[e] = rlo[e] = lo[e], shi[e] = rhi[e] = hi[e];
      slo[d] = side == 0 ? 0 : a.n[d] - g;
      shi[d] = slo[d] + g;
      rlo[d] = side == 0 ? a.n[d] : -g;
      rhi[d] = rlo[d] + g;
      const int to = dom.neighbour(d, side), from = dom.neighbour(d, 1 - side);
      if (to == MPI_PROC_NULL && from == MPI_PROC_NULL) continue;
      std::size_t k = 0;
      if (to != MPI_PROC_NULL) detail::for_each_in_box(a, slo, shi, [&](index_t off) { send[k++] = a.origin[off]; });
      const int tag = 2 * d + side;
      tessera::mpi::detail::check(MPI_Sendrecv(send.data(), static_cast<int>(count), detail::datatype<T>(), to, tag,
                                               recv.data(), static_cast<int>(count), detail::datatype<T>(), from, tag,
                                               dom.comm(), MPI_STATUS_IGNORE),
                                  "MPI_Sendrecv (halo exchange)");
      k = 0;
      if (from != MPI_PROC_NULL) detail::for_each_in_box(a, rlo, rhi, [&](index_t off) { a.origin[off] = recv[k++]; });
    }
    if (bc)
      for (int side = 0; side < 2; ++side)
        if (dom.neighbour(d, side) == MPI_PROC_NULL) fill_ghost_face(HostSpace{}, a, bc->faces[2 * d + side], d, side);
  }
}

}  // namespace tessera::mpi
