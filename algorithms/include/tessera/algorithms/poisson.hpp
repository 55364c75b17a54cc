#pragma once
// Poisson's equation Laplacian(u) = f with the 2nd-order stencil, by Jacobi iteration:
//   u <- (sum of the 2*Rank neighbours) / (2*Rank) - h^2 / (2*Rank) * f    (uniform h)
// i.e. one apply_with_source per iteration. The ghost layer carries the boundary
// condition (fill_ghosts before every sweep). Every `check_every` iterations the residual
// max |Lap_h(u) - f| is measured (compare on the device for CUDA views); the iteration
// stops when it falls to tol * max|f| or after max_iterations. `converged` says only that
// the residual fell that far: how close u is to the continuous solution is the caller's
// to judge (tessera run --problem poisson2d compares with the discretisation error).
#include <functional>
#include <cmath>

#include "tessera/algorithms/boundary_fill.hpp"
#include "tessera/algorithms/compare.hpp"
#include "tessera/algorithms/reduce.hpp"
#include "tessera/algorithms/source_term.hpp"
#include "tessera/core/errors.hpp"
#include "tessera/core/fd.hpp"
#include "tessera/core/detail/format.hpp"

namespace tessera {

struct jacobi_result {
  int iterations = 0;
  double residual = 0;      // max |Lap_h(u) - f| at the end
  double rhs_max = 0;       // max |f|
  bool converged = false;
};

template <execution_policy Policy, class T, int Rank, class Space>
jacobi_result jacobi_poisson(const Policy& policy, const View<T, Rank, Space>& f, View<T, Rank, Space>& u,
                             View<T, Rank, Space>& scratch, T h, const boundary_conditions<Rank>& bc, double tol,
                             int max_iterations, int check_every = 50,
                             const std::function<void(int iterations, double residual)>& progress = {}) {
  const std::string who = "tessera::jacobi_poisson(" + Policy::name() + ")";
  detail::refuse_fixed_faces<Rank>(who, bc);
  detail::require_allocated(f, who, "right-hand side f");
  detail::require_allocated(u, who, "solution u");
  detail::require_allocated(scratch, who, "scratch view");
  if (check_every <= 0)
    throw invalid_argument_error(who + ": check_every = " + std::to_string(check_every) +
                                 " must be at least 1 (the iterations between two residual checks)");
  if (max_iterations < 0)
    throw invalid_argument_error(who + ": max_iterations = " + std::to_string(max_iterations) + " is negative");
  if (!(tol > 0) || !std::isfinite(tol))
    throw invalid_argument_error(who + ": tol = " + detail::sci(tol) + " must be a finite number > 0");
  if (!(h > T(0)) || !std::isfinite(static_cast<double>(h)))
    throw invalid_argument_error(who + ": h = " + detail::sci(static_cast<double>(h)) + " must be a finite spacing > 0");
  if (const auto bad = find_nonfinite(f); bad.count > 0)
    throw invalid_argument_error(who + ": right-hand side " + f.describe() + " holds " + std::to_string(bad.count) +
                                 " NaN or infinite value(s), the first at " + bad.first);
  // Jacobi sweep: centre 0, every neighbour 1/(2 Rank)
  stencil<star<Rank, 1>, T> sweep_st;
  for (int k = 1; k < sweep_st.size; ++k) sweep_st[k] = T(1) / T(2 * Rank);
  const T alpha = -h * h / T(2 * Rank);
  const auto lap = fd::laplacian<Rank, 2>(h);
  View<T, Rank, Space> lap_u(u.label() + "_laplacian", u.layout());
  jacobi_result r;
  r.rhs_max = norm_max(f);
  auto residual = [&] {
    fill_ghosts(u, bc);
    apply(policy, lap, u, lap_u);
    return compare(lap_u, f).max_abs_error;
  };
  r.residual = residual();
  while (r.iterations < max_iterations && r.residual > tol * r.rhs_max) {
    const int batch = std::min(check_every, max_iterations - r.iterations);
    for (int k = 0; k < batch; ++k) {
      fill_ghosts(u, bc);
      apply_with_source(policy, sweep_st, u, alpha, f, scratch);
      std::swap(u, scratch);
    }
    r.iterations += batch;
    r.residual = residual();
    if (progress) progress(r.iterations, r.residual);
  }
  r.converged = r.residual <= tol * r.rhs_max;
  return r;
}

}  // namespace tessera
