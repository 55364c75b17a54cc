#pragma once
// mpi::iterate(policy, stencil, u, scratch, steps, bc): time steps over a distributed
// view. Each step fills the input's halos (neighbours' interiors, boundary conditions on
// the global faces: mpi/halo_exchange.hpp) and sweeps every rank's block with `policy`,
// unchanged from one process; the views alternate as in tessera::iterate, and the one
// holding the result is returned, its halos filled (ready for the next step or a gather
// of ghosts, as tessera::iterate fills the result's ghosts). Every point is computed from the same values as in
// one undistributed run, so the result equals it bit for bit. When every face is
// Dirichlet and the stencil reads only the walls (reach 1: ghosts_read_are_constant), both
// views' global faces are filled once and a step exchanges only the messages (as on
// device views: device_iterate.hpp).
//
// Temporal blocking across ranks (fused_passes.hpp): with a policy that fuses steps
// (host::parallel with `fuse`) and halos k r cells deep (create u with ghost k r, r the
// stencil's radius), a rank exchanges once every k steps and runs them as one fused pass
// over its block grown into the halos; the result then equals the sweep-a-step one to
// rounding rather than bit for bit, and its halos are filled at the end.
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "tessera/algorithms/apply.hpp"
#include "tessera/core/boundary.hpp"
#include "tessera/core/errors.hpp"
#include "tessera/core/policy.hpp"
#include "tessera/core/stencil.hpp"
#include "tessera/mpi/fused_passes.hpp"
#include "tessera/mpi/halo_exchange.hpp"

namespace tessera::mpi {

template <execution_policy Policy, class S, class T, int Rank, class Space>
distributed_view<T, Rank, Space> iterate(const Policy& policy, const stencil<S, T>& st,
                                         const distributed_view<T, Rank, Space>& u,
                                         const distributed_view<T, Rank, Space>& scratch, int steps,
                                         const std::type_identity_t<std::optional<boundary_conditions<Rank>>>& bc = {}) {
  const std::string who = "tessera::mpi::iterate(" + Policy::name() + ")";
  if (steps < 0) throw invalid_argument_error(who + ": steps must be >= 0, got " + std::to_string(steps));
  tessera::detail::refuse_fixed_faces(who, bc);
  if (u.domain().comm() != scratch.domain().comm() || !(u.local().layout() == scratch.local().layout()))
    throw extent_mismatch_error(who + ": " + u.local().describe() + " and " + scratch.local().describe() +
                                " are not blocks of one domain with one layout; create scratch as "
                                "distributed_view(label, u)");
  if constexpr (fuses_steps<Policy, S, T, Rank, Space>) {
    if (const int k = steps > 0 ? steps_between_exchanges(policy, st, u, bc) : 1; k >= 2)
      return fused_passes(
          st, u, scratch, steps, *bc, k, [](const auto& v, const auto& conditions) { fill_halos(v, conditions); },
          [&](const auto& in, const auto& out, int s, const auto& conditions) {
            sweep_steps(policy, st, in, out, s, conditions);
          });
  }
  distributed_view<T, Rank, Space> in = u, out = scratch;
  const bool constant_faces = steps > 0 && ghosts_read_are_constant(bc, shape_traits<S>::radius);
  if (constant_faces) {
    fill_halos(in, bc);
    fill_halos(out, bc);
  }
  const std::optional<boundary_conditions<Rank>> step_bc = constant_faces ? std::nullopt : bc;
  for (int k = 0; k < steps; ++k) {
    fill_halos(in, step_bc);
    apply(policy, st, in.local(), out.local());
    std::swap(in, out);
  }
  fill_halos(in, bc);  // the result's halos, as tessera::iterate fills the result's ghosts
  return in;
}

}  // namespace tessera::mpi
