#pragma once
// Point functions (core/point_function.hpp) over distributed views:
//
//   mpi::apply(policy, fn, mpi::inputs(u, k, ...), mpi::outputs(a, ...), bc)
//   mpi::apply(policy, fn, mpi::inputs(u, k, ...), out, bc)
//
// fills the halos of every input the function reads beyond the point (its reach > 0:
// neighbours' interiors, `bc` on the global faces; mpi/halo_exchange.hpp), then runs the
// function on every rank's block with `policy`, exactly as tessera::apply on one process.
// Inputs of reach 0 (a coefficient read at the point) exchange nothing. Every point is
// computed from the same values as in one undistributed run, so the result equals it bit
// for bit. One set of boundary conditions serves every input; where fields need their
// own (u Dirichlet, k Neumann), call fill_halos(field, its_bc) for each and then
// tessera::apply(policy, fn, group.local(), ...) on the blocks.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <type_traits>

#include "tessera/algorithms/apply_point_function.hpp"
#include "tessera/core/boundary.hpp"
#include "tessera/core/errors.hpp"
#include "tessera/core/fields.hpp"
#include "tessera/core/point_function.hpp"
#include "tessera/core/policy.hpp"
#include "tessera/core/detail/static_for.hpp"
#include "tessera/mpi/distributed_view.hpp"
#include "tessera/mpi/halo_exchange.hpp"

namespace tessera::mpi {

/// The distributed counterpart of tessera::inputs / outputs: N fields of one domain.
template <bool Output, class T, int Rank, class Space, std::size_t N>
struct distributed_fields {
  std::array<distributed_view<T, Rank, Space>, N> views;
  const distributed_view<T, Rank, Space>& operator[](std::size_t i) const { return views[i]; }
  /// This rank's blocks, as tessera::inputs(...) / outputs(...).
  field_group<Output, T, Rank, Space, N> local() const {
    field_group<Output, T, Rank, Space, N> g;
    for (std::size_t i = 0; i < N; ++i) g.views[i] = views[i].local();
    return g;
  }
};

namespace detail {
template <bool Output, class T, int Rank, class Space, class... Views>
distributed_fields<Output, T, Rank, Space, 1 + sizeof...(Views)> distributed_group(const distributed_view<T, Rank, Space>& first,
                                                                                  const Views&... rest) {
  static_assert((std::is_same_v<Views, distributed_view<T, Rank, Space>> && ...),
                "tessera::mpi::inputs / outputs: every field must be a distributed_view of the first one's type, rank "
                "and space");
  return {{first, rest...}};
}
}  // namespace detail

template <class T, int Rank, class Space, class... Views>
distributed_fields<false, T, Rank, Space, 1 + sizeof...(Views)> inputs(const distributed_view<T, Rank, Space>& first,
                                                                      const Views&... rest) {
  return detail::distributed_group<false>(first, rest...);
}

template <class T, int Rank, class Space, class... Views>
distributed_fields<true, T, Rank, Space, 1 + sizeof...(Views)> outputs(const distributed_view<T, Rank, Space>& first,
                                                                      const Views&... rest) {
  return detail::distributed_group<true>(first, rest...);
}

namespace detail {
/// "" when v is a block of `like`'s domain (same communicator, global extents, block), else why not.
template <class T, int Rank, class Space>
std::string other_domain(const distributed_view<T, Rank, Space>& v, const distributed_view<T, Rank, Space>& like) {
  int same = 0;
  MPI_Comm_compare(v.domain().comm(), like.domain().comm(), &same);
  if ((same == MPI_IDENT || same == MPI_CONGRUENT) && v.global_extents() == like.global_extents() &&
      v.domain().offset() == like.domain().offset() && v.domain().local_extents() == like.domain().local_extents())
    return {};
  return v.local().describe() + " is not a block of the domain of " + like.local().describe() + " (global " +
         like.global_extents().to_string() + ", process grid " + like.domain().describe_grid() +
         "); create every field of one sweep on one cartesian_domain";
}

/// Throws extent_mismatch_error on every rank alike unless every field is a block of the
/// first input's domain on every rank.
template <class T, int Rank, class Space, std::size_t NI, std::size_t NO>
void check_one_domain(const std::string& who, const distributed_fields<false, T, Rank, Space, NI>& in,
                      const distributed_fields<true, T, Rank, Space, NO>& out) {
  std::string why;
  for (const auto& v : in.views)
    if (why.empty()) why = detail::other_domain(v, in[0]);
  for (const auto& v : out.views)
    if (why.empty()) why = detail::other_domain(v, in[0]);
  // agreed on every rank (a block may match on one rank and not on another): no rank
  // goes on to exchange halos with a rank that threw
  int ok = why.empty() ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, in[0].domain().comm());
  if (!ok)
    throw extent_mismatch_error(who + ": " + (why.empty() ? "the fields are blocks of different domains on another rank"
                                                          : why));
}
}  // namespace detail

/// On host views (device views: device_point_function.hpp).
template <execution_policy Policy, point_function_type F, class T, int Rank, class Space, std::size_t NI,
          std::size_t NO>
  requires(Space::host_accessible)
void apply(const Policy& policy, const F& fn, const distributed_fields<false, T, Rank, Space, NI>& in,
           const distributed_fields<true, T, Rank, Space, NO>& out,
           const std::type_identity_t<std::optional<boundary_conditions<Rank>>>& bc = {}) {
  const std::string who = "tessera::mpi::apply(" + Policy::name() + ", point function)";
  detail::check_one_domain(who, in, out);
  // Every rank takes the same branches: the reach is a compile-time property of fn, and
  // fill_halos refuses thin blocks on every rank alike.
  tessera::detail::static_for<static_cast<int>(NI)>([&](auto i) {
    if constexpr (F::reach_type::radius[decltype(i)::value] > 0) fill_halos(in[decltype(i)::value], bc);
  });
  tessera::apply(policy, fn, in.local(), out.local());
}

template <execution_policy Policy, point_function_type F, class T, int Rank, class Space, std::size_t NI>
  requires(Space::host_accessible)
void apply(const Policy& policy, const F& fn, const distributed_fields<false, T, Rank, Space, NI>& in,
           const distributed_view<T, Rank, Space>& out,
           const std::type_identity_t<std::optional<boundary_conditions<Rank>>>& bc = {}) {
  apply(policy, fn, in, outputs(out), bc);
}

}  // namespace tessera::mpi
