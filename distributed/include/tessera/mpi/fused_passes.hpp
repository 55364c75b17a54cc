#pragma once
// Temporal blocking across ranks: several time steps between two halo exchanges.
//
// A rank whose halos are k r cells deep (r the stencil's radius) can take k steps between
// two exchanges. It sweeps its block grown by (k - 1) r cells into the halos on every face
// it shares with a neighbour, as a box whose own ghost layer (the halos' outermost r
// cells) a fused pass reads as fixed (boundary::fixed: edge_rules.hpp), with a policy that fuses
// k steps in one pass (cuda::temporal_blocking, host::parallel with `fuse`, automatic
// where its fusion table says so). The fixed layer should have changed after the first
// step and did not, so after step s the cells within (s - 1) r of the grown box's edge
// are wrong; after k steps those are exactly the cells grown into the halos, and the block
// itself holds what k fills and sweeps give (to rounding: the pass's own arithmetic, as on
// one process). The halo cells the pass wrote are refilled by the next exchange. On the
// global faces the box does not grow and the caller's conditions hold inside the pass as
// on one process (periodic axes always have neighbours: MPI's grid wraps them).
//
// The price: the grown cells are computed redundantly ((k - 1) r a face), and each
// exchange moves k times the cells, in one message a face neighbour instead of k.
// fused_passes runs the passes with a caller's fill (host or device exchange) and pass
// (sweep_steps on the grown boxes); mpi::iterate (iterate.hpp, device_iterate.hpp) takes
// this path where steps_between_exchanges says a pass may fuse 2 steps or more.
#include <mpi.h>

#include <algorithm>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "tessera/algorithms/iterate.hpp"
#include "tessera/core/boundary.hpp"
#include "tessera/core/detail/edge_rules.hpp"
#include "tessera/core/stencil.hpp"
#include "tessera/mpi/distributed_view.hpp"

namespace tessera::mpi {

/// The conditions a fused pass over a grown block runs under: the caller's on the global
/// faces, fixed (the halo read as it is, never a Dirichlet wall whose layers beyond it a
/// pass might reflect) where the block borders a neighbour's halo.
template <int Rank>
boundary_conditions<Rank> pass_conditions(const cartesian_domain<Rank>& dom, const boundary_conditions<Rank>& bc) {
  boundary_conditions<Rank> c = bc;
  for (int d = 0; d < Rank; ++d)
    for (int side = 0; side < 2; ++side)
      if (dom.neighbour(d, side) != MPI_PROC_NULL) c.faces[2 * d + side] = boundary::fixed();
  return c;
}

/// u's block grown by `grow` cells on every face with a neighbour, as a view with a ghost
/// layer `ghost` cells wide (View::box; grow + ghost <= u.ghost()).
template <class T, int Rank, class Space>
View<T, Rank, Space> grown_block(const distributed_view<T, Rank, Space>& u, index_t grow, int ghost) {
  const auto& dom = u.domain();
  array<index_t, Rank> first{};
  extents<Rank> count = u.local().extents();
  for (int d = 0; d < Rank; ++d)
    for (int side = 0; side < 2; ++side)
      if (dom.neighbour(d, side) != MPI_PROC_NULL) {
        count[d] += grow;
        if (side == 0) first[d] = -grow;
      }
  return u.local().box(first, count, ghost);
}

/// The steps `policy` fuses in a pass over v under bc (tessera::fuses_steps: the policy's
/// fused_steps), the fewest over the ranks of `comm`: 1 where the policy does not fuse on
/// v's space, no conditions are given, or some rank's v is empty or fuses one step. The
/// blocks differ in extents (and automatic's choice with them) while the exchanges are
/// collective, so every rank must take the same answer: call it on every rank of comm
/// together (one MPI_Allreduce where the answer is not known at compile time). How deep,
/// in steps, halos must be for mpi::iterate to fuse that many across ranks.
template <class Policy, class S, class T, int Rank, class Space>
int steps_fused_on_every_rank(const Policy& policy, const stencil<S, T>& st, const View<T, Rank, Space>& v,
                              const std::type_identity_t<std::optional<boundary_conditions<Rank>>>& bc,
                              MPI_Comm comm) {
  if constexpr (!fuses_steps<Policy, S, T, Rank, Space>) {
    return 1;
  } else {
    if (!bc) return 1;  // the same on every rank: no collective needed
    // Past a Dirichlet wall a pass may fuse only by computing the cells beyond it
    // (edge_rule::reflect). Over a grown block it would reflect the global walls and read
    // the halo faces as they are (fixed, pass_conditions), which no test across ranks has
    // run on a GPU yet: an exchange a step there, on every rank alike.
    if (reads_beyond_dirichlet_wall(bc, shape_traits<S>::radius)) return 1;
    int mine = v.size() > 0 ? std::max(1, fused_steps(policy, st, v, bc)) : 1;
    int fewest = mine;
    MPI_Allreduce(&mine, &fewest, 1, MPI_INT, MPI_MIN, comm);
    return fewest;
  }
}

/// The most steps mpi::iterate takes between two exchanges with `policy` on u under bc: 1
/// (an exchange a step) where u's halos are shallower than 2 r, else what the policy fuses
/// on the grown block on every rank (steps_fused_on_every_rank), at most u.ghost() / r.
/// Asked under the caller's conditions: whether k steps are exact is a question about the
/// global faces (a Neumann face's mirror, a Dirichlet wall's reach), while the faces the
/// pass reads as fixed hold real halo values, as deep as the stencil reads. Collective
/// where the halos are deep enough: call it on every rank of u's domain together.
template <class Policy, class S, class T, int Rank, class Space>
int steps_between_exchanges(const Policy& policy, const stencil<S, T>& st, const distributed_view<T, Rank, Space>& u,
                            const std::type_identity_t<std::optional<boundary_conditions<Rank>>>& bc) {
  constexpr int r = shape_traits<S>::radius;
  if constexpr (r < 1) {
    return 1;
  } else {
    const int deepest = u.ghost() / r;
    if (deepest < 2) return 1;  // the same on every rank: no collective needed
    const auto grown = grown_block(u, index_t(deepest - 1) * r, r);
    return std::min(deepest, steps_fused_on_every_rank(policy, st, grown, bc, u.domain().comm()));
  }
}

/// `steps` steps of st from u (scratch the other view) as passes of at most k steps: before
/// each, fill(in, conditions) fills in's halos (a collective exchange), then
/// pass(in_box, out_box, s, pass_conditions) runs s fused steps over the grown boxes. The
/// passes are split as tessera::iterate splits them, so that the result lands in the view a
/// sweep a step leaves it in (u after an even number of steps); its halos are filled at
/// the end (the pass wrote intermediate values into them). When every face is Dirichlet
/// and the stencil reads only the walls, both views' global faces are filled once and a
/// pass exchanges only the messages, as a sweep a step does.
template <class S, class T, int Rank, class Space, class Fill, class Pass>
distributed_view<T, Rank, Space> fused_passes(const stencil<S, T>&, const distributed_view<T, Rank, Space>& u,
                                              const distributed_view<T, Rank, Space>& scratch, int steps,
                                              const boundary_conditions<Rank>& bc, int k, Fill&& fill, Pass&& pass) {
  constexpr int r = shape_traits<S>::radius;
  const std::optional<boundary_conditions<Rank>> conditions = bc;
  const std::optional<boundary_conditions<Rank>> within = pass_conditions(u.domain(), bc);
  const bool constant_faces = ghosts_read_are_constant(conditions, r);
  const std::optional<boundary_conditions<Rank>> each_pass = constant_faces ? std::nullopt : conditions;
  distributed_view<T, Rank, Space> in = u, out = scratch;
  if (constant_faces) {
    fill(in, conditions);
    fill(out, conditions);
  }
  int passes = (steps + k - 1) / k;
  if ((steps - passes) % 2 != 0) ++passes;  // <= steps: k >= 2 leaves room
  const index_t grow = index_t(k - 1) * r;
  const View<T, Rank, Space> boxes[2] = {grown_block(u, grow, r), grown_block(scratch, grow, r)};
  for (int i = 0; i < passes; ++i) {
    if (i > 0 || !constant_faces) fill(in, each_pass);  // the first: filled whole just above
    const bool from_u = in.local().data() == u.local().data();
    pass(boxes[from_u ? 0 : 1], boxes[from_u ? 1 : 0], steps / passes + (i < steps % passes ? 1 : 0), within);
    std::swap(in, out);
  }
  fill(in, conditions);
  return in;
}

}  // namespace tessera::mpi
