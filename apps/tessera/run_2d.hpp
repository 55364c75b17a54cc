#pragma once
// `tessera run --problem wave2d` (poisson2d/3d: run_poisson.hpp).
//   wave2d:    u_tt = Laplacian(u), leapfrog, a Gaussian pulse at rest; dt defaults to
//              0.9 x the stability limit and a larger one is refused.
// Included by run_2d_float.cpp and run_2d_double.cpp only.
#include <chrono>
#include <cmath>
#include <cstdio>

#include "outputs.hpp"
#include "policy_names.hpp"
#include "progress.hpp"

namespace tessera::app {

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
