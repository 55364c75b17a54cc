#pragma once
// `tessera run --problem heat3d`: explicit-Euler diffusion in the unit cube, N^3 interior
// points, h = 1 / (N + 1) per axis, diffusivity 1, a hot off-centre Gaussian (or --input,
// .npy or .vti), the chosen boundary on every face; optional .npy/.vti output, a PNG of
// the middle slice, and validation against the Kokkos reference run on the same initial
// field. Included by run_heat_float.cpp and run_heat_double.cpp only.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <type_traits>

#include <tessera/algorithms/heat.hpp>

#include "outputs.hpp"
#include "policy_names.hpp"
#include "problems.hpp"
#include "progress.hpp"

namespace tessera::app {

template <class T, int Order>
int run_heat3d_order(const run_options& o) {
  constexpr int g = Order / 2;
  View<T, 3, HostSpace> u0;
  if (o.input.ends_with(".vti")) {
    u0 = io::read_vti<T, 3>(o.input, "u0", g);
  } else if (!o.input.empty()) {
    u0 = io::read_npy<T, 3>(o.input, "u0", g);
  } else {
    u0 = View<T, 3, HostSpace>("u0", extents{o.size, o.size, o.size}, g);
    const double h = 1.0 / (o.size + 1);
    for (index_t z = 0; z < o.size; ++z)
      for (index_t y = 0; y < o.size; ++y)
        for (index_t x = 0; x < o.size; ++x) u0(z, y, x) = T(heat3d_initial(z, y, x, h));
  }
  const auto n = u0.extents();
  const array<T, 3> h{T(1.0 / (n[0] + 1)), T(1.0 / (n[1] + 1)), T(1.0 / (n[2] + 1))};
  const double limit = heat_stability_limit<3, Order>(1.0, h);
  const double dt = o.dt ? *o.dt : 0.9 * limit;
  const auto step = heat_step<3, Order>(1.0, dt, h);  // throws above the limit
  const auto bc = boundary_conditions<3>::uniform(boundary_by_name(o.boundary));
  if (const auto bad = find_nonfinite(u0); bad.count > 0)
    throw io::io_error("tessera run: the initial field '" + o.input + "' holds " + std::to_string(bad.count) +
                       " NaN or infinite value(s), the first at interior point " + bad.first +
                       "; heat3d needs a finite field");
  const double u0max = norm_max(u0);

  View<T, 3, HostSpace> result_h("u", u0.layout());
  double seconds = 0;
  std::string ran_with;
  int fused = 0;  // steps per pass where the policy fuses them (0: a sweep a step)
  with_policy(o.policy, [&](auto policy, auto tag) {
    using Space = typename decltype(tag)::type;
    using P = decltype(policy);
    ran_with = std::string(P::name()) + " on " + Space::name;
    View<T, 3, Space> u("u", u0.layout()), scratch("scratch", u0.layout());
    deep_copy(u, u0);
    iterate_options<T, 3, Space> opt;
    opt.boundary = bc;
    if constexpr (fuses_steps<P, typename std::remove_cvref_t<decltype(step)>::shape_type, T, 3, Space>)
      fused = fused_steps(policy, step, u, opt.boundary);
    const progress_bar bar(o.steps);
    if (bar.on()) {
      opt.every = bar.every();
      opt.callback = [&](int k, const View<T, 3, Space>&) { bar.show(k); };
    }
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = iterate(policy, step, u, scratch, o.steps, opt);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    bar.clear();
    deep_copy(result_h, r);
  });

  std::printf("heat3d: %s, %lldx%lldx%lld %s, order %d, %s boundary, dt = %.3e (limit %.3e), %d steps\n",
              ran_with.c_str(), (long long)n[0], (long long)n[1], (long long)n[2], o.precision.c_str(), Order,
              o.boundary.c_str(), dt, limit, o.steps);
  const double rate = double(n.size()) * o.steps / std::max(seconds, 1e-12) * 1e-9;
  if (fused > 1)
    std::printf("  time %.3f s, %.3f GCell-updates/s (up to %d steps fused per pass, boundaries inside the pass)\n",
                seconds, rate, fused);
  else
    std::printf("  time %.3f s, %.3f GCell-updates/s (one sweep a step, ghost fills included)\n", seconds, rate);
  const double umax = norm_max(result_h);
  std::printf("  max |u|: initial %.6g, final %.6g\n", u0max, umax);

  int status = report_nonfinite(result_h);
  if (o.validate) {
    View<T, 3, HostSpace> a("u_ref", u0.layout()), b("scratch_ref", u0.layout()), ref;
    deep_copy(a, u0);
    iterate_options<T, 3, HostSpace> opt;
    opt.boundary = bc;
    const auto reference = with_reference(o.policy, [&](auto p) { ref = iterate(p, step, a, b, o.steps, opt); });
    status = std::max(status, report_validation(compare(result_h, ref), umax, stepping_tolerance<T>(o.steps), reference));
  }
  // Interior point i lies at (i + 1) h: the ghost layer is the boundary at 0 and 1.
  write_outputs(o, result_h, io::grid_geometry<3>::cell_centred_unit_box({h[0], h[1], h[2]}), "temperature");
  return status;
}

template <class T>
int run_heat3d(const run_options& o) {
  return with_heat_order(o.order, [&]<int Order>() { return run_heat3d_order<T, Order>(o); });
}

}  // namespace tessera::app
