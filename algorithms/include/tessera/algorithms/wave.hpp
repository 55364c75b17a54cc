#pragma once
// The wave equation u_tt = c^2 Laplacian(u) by leapfrog:
//   u^{n+1} = (2 + c^2 dt^2 Lap_h) u^n - u^{n-1}
// one apply_with_source per step (source = the previous level, alpha = -1), three
// buffers rotated. Stable while c dt sqrt(sum_d 4/h_d^2) <= 2 (2nd order); wave_step
// refuses a larger dt and names the limit.
#include <functional>
#include <cmath>
#include <string>

#include "tessera/algorithms/boundary_fill.hpp"
#include "tessera/algorithms/heat.hpp"
#include "tessera/algorithms/source_term.hpp"

namespace tessera {

/// The leapfrog stencil 2 + (c dt)^2 Lap_h (2nd order).
template <int Rank, class T>
stencil<star<Rank, 1>, T> wave_step(double c, double dt, const array<T, Rank>& h) {
  double rho = 0;
  for (int d = 0; d < Rank; ++d) rho += 4.0 / (double(h[d]) * h[d]);
  const double limit = 2.0 / (c * std::sqrt(rho));
  if (!(c > 0) || !(dt > 0) || dt > limit)
    throw invalid_argument_error("tessera::wave_step: dt = " + detail::sci(dt) + " with c = " + detail::sci(c) +
                                 (dt > limit ? " is above the leapfrog stability limit dt <= " + detail::sci(limit)
                                             : std::string(": both must be positive")));
  auto st = fd::laplacian<Rank, 2>(h);
  for (auto& k : st.coeffs) k = static_cast<T>(k * c * c * dt * dt);
  st.coeffs[0] += T(2);
  return st;
}

/// Runs `steps` leapfrog steps from (prev, cur) = (u^{n-1}, u^n), using `next` as the
/// third buffer; returns the view holding the newest level (the handles rotate).
/// `progress(k)`, when given, is called after every `every`-th step k (every >= 1; steps
/// >= 0, both checked by name).
template <execution_policy Policy, class S, class T, int Rank, class Space>
View<T, Rank, Space> leapfrog(const Policy& policy, const stencil<S, T>& st, View<T, Rank, Space> prev,
                              View<T, Rank, Space> cur, View<T, Rank, Space> next, int steps,
                              const boundary_conditions<Rank>& bc,
                              const std::function<void(int step)>& progress = {}, int every = 1) {
  const std::string who = "tessera::leapfrog(" + Policy::name() + ")";
  detail::refuse_fixed_faces<Rank>(who, bc);
  detail::require_allocated(prev, who, "previous level");
  detail::require_allocated(cur, who, "current level");
  detail::require_allocated(next, who, "third buffer");
  if (steps < 0) throw invalid_argument_error(who + ": steps = " + std::to_string(steps) + " is negative");
  if (progress && every < 1)
    throw invalid_argument_error(who + ": every = " + std::to_string(every) +
                                 " must be at least 1 (the steps between two progress calls)");
  for (int k = 0; k < steps; ++k) {
    fill_ghosts(cur, bc);
    apply_with_source(policy, st, cur, T(-1), prev, next);
    View<T, Rank, Space> old = prev;
    prev = cur;
    cur = next;
    next = old;
    if (progress && (k + 1) % every == 0) progress(k + 1);
  }
  fill_ghosts(cur, bc);
  return cur;
}

}  // namespace tessera
