#pragma once
// `tessera run --problem poisson2d | wave2d`.
//   poisson2d: Laplacian(u) = f in the unit square, Dirichlet 0, f manufactured from
//              u = sin(pi x) sin(pi y); Jacobi to --tol (relative residual; the default
//              is reachable in either precision), at most --max-iterations. Converged
//              means the residual reached --tol and max |u - exact| is within
//              poisson_accuracy_factor of the discretisation error (known exactly here).
//   wave2d:    u_tt = Laplacian(u), leapfrog, a Gaussian pulse at rest; dt defaults to
//              0.9 x the stability limit and a larger one is refused.
// Included by run_2d_float.cpp and run_2d_double.cpp only.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "outputs.hpp"
#include "policy_names.hpp"
#include "progress.hpp"

namespace tessera::app {

template <class T>
int run_poisson2d(const run_options& o) {
  const int n = o.size;
  const T h = T(1.0 / (n + 1));
  View<T, 2, HostSpace> f_h("f", extents{n, n}, 1), u_h("u", f_h.layout());
  auto exact = [&](index_t y, index_t x) {
    return std::sin(std::numbers::pi * (x + 1) * h) * std::sin(std::numbers::pi * (y + 1) * h);
  };
  for (index_t y = 0; y < n; ++y)
    for (index_t x = 0; x < n; ++x) f_h(y, x) = T(-2 * std::numbers::pi * std::numbers::pi * exact(y, x));
  const auto bc = boundary_conditions<2>::uniform(boundary::dirichlet(0));
  const double tol = o.tol ? *o.tol : poisson_default_tolerance(sizeof(T) == 4, n);
  const int max_it = o.max_iterations.value_or(poisson_default_max_iterations);
  jacobi_result r;
  double seconds = 0;
  std::string ran_with;
  auto solve = [&](auto policy, auto tag, View<T, 2, HostSpace>& out) {
    using Space = typename decltype(tag)::type;
    View<T, 2, Space> f("f", f_h.layout()), u("u", f_h.layout()), s("scratch", f_h.layout());
    deep_copy(f, f_h);
    const auto t0 = std::chrono::steady_clock::now();
    // open-ended: the bar counts iterations against the limit and shows the residual
    const progress_bar bar(std::min(max_it, 100000), 2000);
    const auto res = jacobi_poisson(policy, f, u, s, h, bc, tol, max_it, 200, [&](int it, double resid) {
      char buf[48];
      std::snprintf(buf, sizeof buf, "residual %.2e", resid);
      bar.show(it, buf);
    });
    bar.clear();
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    deep_copy(out, u);
    return std::make_pair(res, sec);
  };
  with_policy(o.policy, [&](auto policy, auto tag) {
    ran_with = std::string(decltype(policy)::name()) + " on " + decltype(tag)::type::name;
    std::tie(r, seconds) = solve(policy, tag, u_h);
  });
  double err = 0, peak = 0;
  for (index_t y = 0; y < n; ++y)
    for (index_t x = 0; x < n; ++x) {
      const double d = std::fabs(u_h(y, x) - exact(y, x));
      err = d > err || d != d ? d : err;  // a NaN shows
      peak = std::max(peak, std::fabs(exact(y, x)));
    }
  // The exact solution of the discrete problem is (2 pi^2 / lambda_h) u: lambda_h =
  // (8 / h^2) sin^2(pi h / 2) is the 5-point Laplacian's eigenvalue of this mode. Its
  // distance from u is the discretisation error, the least error any solver can reach.
  const double s = std::sin(std::numbers::pi * double(h) / 2);
  const double lambda_h = 8 / (double(h) * h) * s * s;
  const double discretisation = std::fabs(2 * std::numbers::pi * std::numbers::pi / lambda_h - 1) * peak;
  const double ratio = err / discretisation;
  const bool accurate = ratio <= poisson_accuracy_factor;  // NaN fails
  std::printf("poisson2d: %s, %dx%d %s, Jacobi: %d iterations, residual %.3e (%.1e of max|f|, tol %.1e)%s\n",
              ran_with.c_str(), n, n, o.precision.c_str(), r.iterations, r.residual, r.residual / r.rhs_max, tol,
              r.converged ? "" : ": tolerance NOT reached (raise --max-iterations or --tol)");
  std::printf("  time %.3f s; max |u - exact| = %.3e, %.3g x the discretisation error %.3e (the discrete problem's "
              "own error, O(h^2), h = %.4g)\n",
              seconds, err, ratio, discretisation, double(h));
  if (r.converged && accurate)
    std::printf("  converged: the error is within %.0f x the discretisation error\n", poisson_accuracy_factor);
  else if (r.converged)
    std::printf("  NOT converged: the residual reached its tolerance, but the error is %.3g x the discretisation "
                "error (%s)\n",
                ratio,
                sizeof(T) == 4 && !o.tol ? "float's rounding stops Jacobi short of it on this grid; use --precision double"
                                         : "lower --tol");
  else
    std::printf("  NOT converged\n");
  int status = r.converged && accurate ? 0 : 1;
  status = std::max(status, report_nonfinite(u_h));
  if (o.validate) {
    // Both solves stop within tol of the discrete solution: they agree to twice that (the
    // error of each is at most about residual / lambda_min, and max|f| / lambda_min = max|u|
    // here), plus rounding; never more than 1% apart (float's default tol grows with n).
    View<T, 2, HostSpace> ref("u_ref", f_h.layout());
    const auto reference = with_reference(o.policy, [&](auto p) { solve(p, space_tag<HostSpace>{}, ref); });
    status = std::max(status, report_validation(compare(u_h, ref), norm_max(u_h),
                                                std::min(4 * tol, 1e-2) + stepping_tolerance<T>(100), reference));
  }
  write_outputs(o, u_h, io::grid_geometry<2>::cell_centred_unit_box({double(h), double(h)}), "u");
  return status;
}

template <class T>
int run_wave2d(const run_options& o) {
  const int n = o.size;
  const T h = T(1.0 / (n + 1));
  const double limit = 2.0 / std::sqrt(8.0 / (double(h) * h));
  const double dt = o.dt ? *o.dt : 0.9 * limit;
  const auto st = wave_step<2>(1.0, dt, array<T, 2>{h, h});
  const auto bc = boundary_conditions<2>::uniform(boundary_by_name(o.boundary));
  View<T, 2, HostSpace> u0("u0", extents{n, n}, 1), u_h("u", u0.layout());
  for (index_t y = 0; y < n; ++y)
    for (index_t x = 0; x < n; ++x) {
      const double px = (x + 1) * h - 0.35, py = (y + 1) * h - 0.5;
      u0(y, x) = T(std::exp(-(px * px + py * py) / 0.003));
    }
  auto run = [&](auto policy, auto tag, View<T, 2, HostSpace>& out) {
    using Space = typename decltype(tag)::type;
    View<T, 2, Space> a("u_prev", u0.layout()), b("u_cur", u0.layout()), c("u_next", u0.layout());
    deep_copy(a, u0);
    deep_copy(b, u0);  // at rest: u^1 = u^0
    const auto t0 = std::chrono::steady_clock::now();
    const progress_bar bar(o.steps);
    const auto r = leapfrog(policy, st, a, b, c, o.steps, bc, [&](int k) { bar.show(k); }, bar.every());
    bar.clear();
    deep_copy(out, r);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  double seconds = 0;
  std::string ran_with;
  with_policy(o.policy, [&](auto policy, auto tag) {
    ran_with = std::string(decltype(policy)::name()) + " on " + decltype(tag)::type::name;
    seconds = run(policy, tag, u_h);
  });
  const double umax = norm_max(u_h);
  std::printf("wave2d: %s, %dx%d %s, %s boundary, dt = %.3e (limit %.3e), %d steps\n", ran_with.c_str(), n, n,
              o.precision.c_str(), o.boundary.c_str(), dt, limit, o.steps);
  // The leapfrog is not fused: a step reads two time levels (u^n through the stencil,
  // u^(n-1) at the point), and the fused passes (cuda::temporal_blocking, host::parallel's
  // fused_steps) advance one field whose level t comes from level t - 1 alone. k leapfrog
  // steps a pass need a pass that takes two fields in and hands two back, each level's
  // queue also keeping level t - 2's centre plane: a kernel tessera does not have yet, so
  // wave2d sweeps a step (apply_with_source: three fields moved a step).
  std::printf("  time %.3f s, %.3f GCell-updates/s (one sweep a step: the leapfrog's two time levels are not fused); "
              "max |u| %.4f\n",
              seconds, double(n) * n * o.steps / std::max(seconds, 1e-12) * 1e-9, umax);
  int status = report_nonfinite(u_h);
  if (o.validate) {
    View<T, 2, HostSpace> ref("u_ref", u0.layout());
    const auto reference = with_reference(o.policy, [&](auto p) { run(p, space_tag<HostSpace>{}, ref); });
    status = std::max(status, report_validation(compare(u_h, ref), umax, stepping_tolerance<T>(o.steps), reference));
  }
  write_outputs(o, u_h, io::grid_geometry<2>::cell_centred_unit_box({double(h), double(h)}), "u");
  return status;
}

}  // namespace tessera::app
