#pragma once
// `tessera run --problem poisson2d | poisson3d`: Laplacian(u) = f on the unit square / cube,
// the same --boundary on every face, f manufactured from an exact u whose discrete solution
// is known exactly (a discrete eigenmode of the 2nd-order Laplacian), so the run can print
// the discretisation error beside its own:
//   dirichlet  points at (i + 1) h, h = 1 / (N + 1), walls on the ghost layer;  u = prod sin(pi x)
//   neumann    points at (i + 1/2) h, h = 1 / N, faces halfway to the ghosts;   u = prod cos(pi x)
//   periodic   points at i h, h = 1 / N;                                        u = prod sin(2 pi x)
// (the last two are singular: f has mean zero and u is returned with mean zero).
// Solvers (--solver): multigrid (default; --cycle, --smoother, --fmg, --max-cycles), cg
// (multigrid-preconditioned; --max-iterations) and jacobi (Dirichlet only; --max-iterations).
// Converged means the residual reached --tol x max |f| (or the precision's floor, which a
// float run reaches first) and max |u - exact| is within poisson_accuracy_factor of the
// discretisation error; the run says which, and exits 1 otherwise.
// Included by run_poisson_<precision>_<rank>d.cpp and run_poisson_solve.hpp only.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include <tessera/algorithms/cg.hpp>
#include <tessera/algorithms/multigrid.hpp>

#include "outputs.hpp"
#include "policy_names.hpp"
#include "progress.hpp"

namespace tessera::app {

/// The manufactured problem of a boundary kind: spacing, positions and the exact mode.
struct poisson_mode {
  double h = 0, first = 0, k = 0;  // x_i = (first + i) h, u = prod wave(k x)
  bool cosine = false;
  static poisson_mode of(const std::string& boundary, int n) {
    if (boundary == "neumann") return {1.0 / n, 0.5, std::numbers::pi, true};
    if (boundary == "periodic") return {1.0 / n, 0.0, 2 * std::numbers::pi, false};
    return {1.0 / (n + 1), 1.0, std::numbers::pi, false};
  }
  double at(index_t i) const { return cosine ? std::cos(k * (first + i) * h) : std::sin(k * (first + i) * h); }
  /// The discrete solution is (Rank k^2 / lambda_h) u: lambda_h the mode's eigenvalue of the
  /// 2nd-order Laplacian, Rank (4 / h^2) sin^2(k h / 2).
  double discrete_factor(int rank) const {
    const double s = std::sin(k * h / 2);
    return (rank * k * k) / (rank * 4 / (h * h) * s * s);
  }
};

inline multigrid_options multigrid_options_of(const run_options& o) {
  multigrid_options m;
  m.tol = o.tol.value_or(1e-10);
  m.max_cycles = o.max_cycles.value_or(poisson_default_max_cycles);
  m.cycle = o.cycle == "W" ? mg_cycle::w : o.cycle == "F" ? mg_cycle::f : mg_cycle::v;
  m.smoother = o.smoother == "jacobi"      ? mg_smoother::jacobi
               : o.smoother == "chebyshev" ? mg_smoother::chebyshev
                                           : mg_smoother::red_black_gauss_seidel;
  m.full_multigrid = o.fmg;
  return m;
}

/// What a solve reports, whichever solver ran.
struct poisson_solve {
  int steps = 0;  // cycles or iterations
  std::vector<double> residuals;
  double factor = 0, reference = 0, floor = 0, seconds = 0;
  bool converged = false;
  std::string stop_reason, described;

  /// The fields multigrid_result and cg_result share.
  template <class R>
  void take(const R& r) {
    residuals = r.residuals;
    reference = r.reference;
    factor = r.convergence_factor;
    converged = r.converged;
    stop_reason = r.stop_reason;
  }
};

/// A run's manufactured problem, what every solve of it reads.
template <class T, int Rank>
struct poisson_problem {
  const run_options& o;
  const View<T, Rank, HostSpace>& f;  // the right-hand side on the host
  T h;                                // the spacing
  boundary_conditions<Rank> bc;
};

/// Solves the problem with `Policy` on `Space`'s views, the result copied to `out`; a
/// progress bar where `show`. Defined in run_poisson_solve.hpp and instantiated in units of
/// their own, never where the run is (run_poisson.cpp sees this declaration only): the host
/// policies' solves in run_poisson_host_<precision>_<rank>d.cpp, the CUDA policies' in
/// run_poisson_cuda_<precision>_<rank>d.cpp (nvcc: multigrid's sweeps are point functions),
/// so that no unit takes long to compile.
template <class Policy, class Space, class T, int Rank>
poisson_solve solve_poisson(const poisson_problem<T, Rank>& problem, View<T, Rank, HostSpace>& out, bool show);

/// A solve's address, one per policy.
template <class T, int Rank>
using poisson_solve_fn = poisson_solve (*)(const poisson_problem<T, Rank>&, View<T, Rank, HostSpace>&, bool);

template <class T, int Rank>
int run_poisson(const run_options& o) {
  const int n = o.size;
  const auto mode = poisson_mode::of(o.boundary, n);
  const T h = T(mode.h);
  extents<Rank> e{};
  for (int d = 0; d < Rank; ++d) e[d] = n;
  View<T, Rank, HostSpace> f_h("f", e, 1), u_h("u", f_h.layout());
  View<double, Rank, HostSpace> exact("exact", e, 0);
  double peak = 0;
  {
    const auto ex = exact.accessor();
    const auto fa = f_h.accessor();
    for (index_t i = 0; i < e.size(); ++i) {
      index_t rest = i, oe = 0, of = 0;
      double v = 1;
      for (int d = Rank - 1; d >= 0; --d) {
        const index_t c = rest % e[d];
        rest /= e[d];
        v *= mode.at(c);
        oe += c * ex.stride[d];
        of += c * fa.stride[d];
      }
      ex.origin[oe] = v;
      fa.origin[of] = T(-Rank * mode.k * mode.k * v);
      peak = std::max(peak, std::fabs(v));
    }
  }
  const bool single = sizeof(T) == 4;
  const poisson_problem<T, Rank> problem{o, f_h, h, boundary_conditions<Rank>::uniform(boundary_by_name(o.boundary))};

  poisson_solve s;
  std::string ran_with;
  with_policy(o.policy, [&](auto policy, auto tag) {
    ran_with = std::string(decltype(policy)::name()) + " on " + decltype(tag)::type::name;
    s = solve_poisson<decltype(policy), typename decltype(tag)::type>(problem, u_h, true);
  });
  double err = 0;
  {
    const auto ua = u_h.accessor();
    const auto ex = exact.accessor();
    for (index_t i = 0; i < e.size(); ++i) {
      index_t rest = i, ou = 0, oe = 0;
      for (int d = Rank - 1; d >= 0; --d) {
        const index_t c = rest % e[d];
        rest /= e[d];
        ou += c * ua.stride[d];
        oe += c * ex.stride[d];
      }
      const double dlt = std::fabs(double(ua.origin[ou]) - ex.origin[oe]);
      err = dlt > err || dlt != dlt ? dlt : err;  // a NaN shows
    }
  }
  const double discretisation = std::fabs(mode.discrete_factor(Rank) - 1) * peak;
  const double ratio = err / discretisation;
  const bool accurate = ratio <= poisson_accuracy_factor;  // NaN fails
  const double last = s.residuals.empty() ? 0 : s.residuals.back();
  const bool at_floor = !s.converged && s.floor > 0 && last <= s.floor;
  const std::string size = e.to_string();
  std::printf("%s: %s, %s %s, %s boundary, %s\n", o.problem.c_str(), ran_with.c_str(), size.c_str(),
              o.precision.c_str(), o.boundary.c_str(), s.described.c_str());
  if (o.solver != "jacobi") {
    std::printf("  residual per %s (max |f - A u| / max |f|):", o.solver == "cg" ? "iteration" : "cycle");
    for (std::size_t i = 0; i < s.residuals.size(); ++i) {
      if (s.residuals.size() > 14 && i == 6) {
        std::printf(" ...");
        i = s.residuals.size() - 6;
      }
      std::printf(" %.2e", s.residuals[i] / std::max(s.reference, 1e-300));
    }
    std::printf("\n  convergence factor %.3f per %s; stopped: %s\n", s.factor, o.solver == "cg" ? "iteration" : "cycle",
                s.stop_reason.c_str());
  } else {
    std::printf("  residual %.3e (%.1e of max|f|)\n", last, last / std::max(s.reference, 1e-300));
  }
  std::printf("  time %.3f s, %.3g DOF/s (unknowns / time to solution)\n", s.seconds,
              double(e.size()) / std::max(s.seconds, 1e-12));
  std::printf("  max |u - exact| = %.3e, %.3g x the discretisation error %.3e (the discrete problem's own error, "
              "O(h^2), h = %.4g)\n",
              err, ratio, discretisation, double(h));
  int status = 1;
  if (s.converged && accurate) {
    std::printf("  converged: the residual reached --tol and the error is within %.0f x the discretisation error\n",
                poisson_accuracy_factor);
    status = 0;
  } else if (at_floor && accurate) {
    std::printf("  converged to the discretisation error: %s stopped at its reachable residual (%.1e of max|f|, "
                "above --tol %.1e), and the error is within %.0f x the discretisation error\n",
                o.precision.c_str(), s.floor / std::max(s.reference, 1e-300), o.tol.value_or(1e-10),
                poisson_accuracy_factor);
    status = 0;
  } else if (s.converged || at_floor) {
    std::printf("  NOT converged: the residual stopped, but the error is %.3g x the discretisation error (%s)\n", ratio,
                single ? "float's rounding stops short of it on this grid; use --precision double" : "lower --tol");
  } else {
    std::printf("  NOT converged: %s\n", s.stop_reason.c_str());
  }
  status = std::max(status, report_nonfinite(u_h));
  if (o.validate) {
    // Both solves stop within tol of the discrete solution (float: within its floor): they
    // agree to a few times that, relative to max |u|; never more than 1e-2 apart.
    View<T, Rank, HostSpace> ref("u_ref", f_h.layout());
    const auto reference = with_reference(o.policy, [&](auto p) { solve_poisson<decltype(p), HostSpace>(problem, ref, false); });
    const double tol = std::min(4 * o.tol.value_or(1e-10) + (single ? 2e-3 : 1e-12), 1e-2);
    status = std::max(status, report_validation(compare(u_h, ref), norm_max(u_h), tol, reference));
  }
  array<double, Rank> hs{};
  for (int d = 0; d < Rank; ++d) hs[d] = double(h);
  write_outputs(o, u_h, io::grid_geometry<Rank>::cell_centred_unit_box(hs), "u");
  return status;
}

}  // namespace tessera::app
