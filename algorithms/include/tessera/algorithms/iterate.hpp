#pragma once
// iterate(policy, stencil, u, scratch, steps, options): `steps` sweeps ping-ponging
// between u and scratch (sweep k reads one and writes the other). Before every sweep the
// input's ghost layer is filled by the boundary conditions, if any are given, and the
// result's ghosts are filled at the end, so the returned field is ready for the next
// step. Returns the view that holds the result: u after an even number of steps,
// scratch after an odd one.
//
// When every face is Dirichlet the ghosts hold constants and no sweep writes a ghost
// cell (apply's contract), so each of the two views is filled once, and again only after
// the callback has had the field (it may have written its ghosts): the per-step fills of
// a Dirichlet problem cost nothing.
//
// This is the place temporal blocking will go (several sweeps fused per kernel when
// the policy supports it); the callback and boundary hooks are its seams.
#include <functional>
#include <optional>
#include <string>

#include "tessera/algorithms/apply.hpp"
#include "tessera/algorithms/boundary_fill.hpp"
#include "tessera/host/automatic.hpp"

namespace tessera {

template <class T, int Rank, class Space>
struct iterate_options {
  /// Ghost fills before each sweep; none: the ghosts keep whatever they hold.
  std::optional<boundary_conditions<Rank>> boundary;
  /// Called after every `every`-th sweep (and never when every <= 0) with the number of
  /// sweeps done and the view holding the current field (ghosts filled if boundary set).
  int every = 0;
  std::function<void(int step, const View<T, Rank, Space>& current)> callback;
};

template <execution_policy Policy, class S, class T, int Rank, class Space>
View<T, Rank, Space> iterate(const Policy& policy, const stencil<S, T>& st, const View<T, Rank, Space>& u,
                             const View<T, Rank, Space>& scratch, int steps,
                             const iterate_options<T, Rank, Space>& opt = {}) {
  detail::require_allocated(u, "tessera::iterate(" + Policy::name() + ")", "field u");
  detail::require_allocated(scratch, "tessera::iterate(" + Policy::name() + ")", "scratch view");
  if (steps < 0)
    throw invalid_argument_error("tessera::iterate: steps = " + std::to_string(steps) +
                                 " is negative; pass the number of sweeps to run (0 returns u)");
  View<T, Rank, Space> cur = u, next = scratch;
  bool constant_ghosts = opt.boundary.has_value();
  if (opt.boundary)
    for (const auto& f : opt.boundary->faces) constant_ghosts = constant_ghosts && f.kind == boundary_kind::dirichlet;
  bool u_filled = false, scratch_filled = false;  // ghosts hold the constant fill
  auto fill = [&](const View<T, Rank, Space>& v) {
    if (!opt.boundary) return;
    if (constant_ghosts) {
      bool& filled = v.data() == u.data() ? u_filled : scratch_filled;
      if (filled) return;
      filled = true;
    }
    fill_ghosts(v, *opt.boundary);
  };
  for (int k = 1; k <= steps; ++k) {
    fill(cur);
    apply(policy, st, cur, next);
    std::swap(cur, next);
    if (opt.every > 0 && opt.callback && k % opt.every == 0 && k < steps) {
      fill(cur);
      opt.callback(k, cur);
      u_filled = scratch_filled = false;  // the callback may have written ghost cells
    }
  }
  fill(cur);
  if (opt.every > 0 && opt.callback && steps > 0 && steps % opt.every == 0) opt.callback(steps, cur);
  synchronize(Space{});  // the space's backend: asynchronous errors surface here
  return cur;
}

}  // namespace tessera
