#pragma once
// `tessera run --problem heat3d`: explicit-Euler diffusion in the unit cube, N^3 interior
// points, h = 1 / (N + 1), diffusivity 1, a hot off-centre Gaussian (or --input), the
// chosen boundary on every face; optional .npy/.vti output, a PNG of the middle slice,
// and validation against the Kokkos reference run on the same initial field.
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include <tessera/algorithms/heat.hpp>
#include <tessera/io/npy.hpp>
#include <tessera/io/png.hpp>
#include <tessera/io/vti.hpp>

#include "progress.hpp"
#include "policy_names.hpp"

namespace tessera::app {

struct run_options {
  std::string problem = "heat3d";
  int size = 64;
  int steps = 100;
  bool steps_given = false;
  std::optional<double> tol;  // poisson2d
  int order = 2;
  std::string precision = "double";
  std::string policy = "automatic";
  std::string boundary = "dirichlet";
  std::optional<double> dt;  // default: 0.9 x the stability limit
  std::string input, output, image;
  bool validate = false;
};

/// Writes --output (.npy, else .vti with spacing h and array name `name`) and --image.
template <class T, int Rank>
void write_outputs(const run_options& o, const View<T, Rank, HostSpace>& u, double h, const char* name) {
  if (!o.output.empty()) {
    if (o.output.ends_with(".npy")) io::write_npy(o.output, u);
    else io::write_vti(o.output, u, name, h);
    std::printf("  wrote %s\n", o.output.c_str());
  }
  if (!o.image.empty()) {
    io::write_png(o.image, u);
    const auto& n = u.extents();
    std::printf("  wrote %s (%s%lldx%lld)\n", o.image.c_str(), Rank == 3 ? "middle z-slice, " : "",
                (long long)n[Rank - 1], (long long)n[Rank - 2]);
  }
}

/// Prints the comparison of a run with the Kokkos reference; 0 when it passes (no
/// non-finite value and max |diff| <= tol * scale), else 1.
inline int report_validation(const comparison& c, double scale, double tol) {
  const double scaled = c.max_abs_error / std::max(scale, 1e-300);
  const bool ok = c.nonfinite == 0 && scaled <= tol;
  std::printf("  validation vs kokkos:mdrange on %s: max |diff| %.3e (%.3e of max|u|, tolerance %.1e): %s\n",
              kokkos::execution_space_name().c_str(), c.max_abs_error, scaled, tol, ok ? "pass" : "FAIL");
  return ok ? 0 : 1;
}

inline boundary boundary_by_name(const std::string& b) {
  return b == "periodic" ? boundary::periodic() : b == "neumann" ? boundary::neumann() : boundary::dirichlet(0);
}

/// Runs heat3d; returns the process exit code (0 ok, 1 failed run or validation).
template <class T, int Order>
int run_heat3d(const run_options& o) {
  constexpr int g = Order / 2;
  View<T, 3, HostSpace> u0;
  if (!o.input.empty()) {
    u0 = io::read_npy<T, 3>(o.input, "u0", g);
  } else {
    u0 = View<T, 3, HostSpace>("u0", extents{o.size, o.size, o.size}, g);
    const double h = 1.0 / (o.size + 1);
    for (index_t z = 0; z < o.size; ++z)
      for (index_t y = 0; y < o.size; ++y)
        for (index_t x = 0; x < o.size; ++x) {
          const double px = (x + 1) * h - 0.4, py = (y + 1) * h - 0.55, pz = (z + 1) * h - 0.5;
          u0(z, y, x) = T(std::exp(-(px * px + py * py + pz * pz) / 0.01));
        }
  }
  const auto n = u0.extents();
  const array<T, 3> h{T(1.0 / (n[0] + 1)), T(1.0 / (n[1] + 1)), T(1.0 / (n[2] + 1))};
  const double limit = heat_stability_limit<3, Order>(1.0, h);
  const double dt = o.dt ? *o.dt : 0.9 * limit;
  const auto step = heat_step<3, Order>(1.0, dt, h);  // throws above the limit
  const auto bc = boundary_conditions<3>::uniform(boundary_by_name(o.boundary));

  View<T, 3, HostSpace> result_h("u", u0.layout());
  double seconds = 0;
  std::string ran_with;
  with_policy(o.policy, [&](auto policy, auto tag) {
    using Space = typename decltype(tag)::type;
    ran_with = std::string(decltype(policy)::name()) + " on " + Space::name;
    View<T, 3, Space> u("u", u0.layout()), scratch("scratch", u0.layout());
    deep_copy(u, u0);
    iterate_options<T, 3, Space> opt;
    opt.boundary = bc;
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
  std::printf("  time %.3f s, %.3f GCells/s (sweeps incl. ghost fills)\n", seconds,
              double(n.size()) * o.steps / std::max(seconds, 1e-12) * 1e-9);
  const double umax = norm_max(result_h);
  std::printf("  max |u|: initial 1, final %.6g\n", umax);

  int status = 0;
  if (o.validate) {
    View<T, 3, HostSpace> a("u_ref", u0.layout()), b("scratch_ref", u0.layout());
    deep_copy(a, u0);
    iterate_options<T, 3, HostSpace> opt;
    opt.boundary = bc;
    const auto ref = iterate(kokkos::mdrange{}, step, a, b, o.steps, opt);
    // Rounding differences grow at most linearly with the steps of a stable scheme.
    status = report_validation(compare(result_h, ref), umax, default_tolerance<T>() * std::max(1, o.steps));
  }
  write_outputs(o, result_h, double(h[0]), "temperature");
  return status;
}

template <class T>
int run_poisson2d(const run_options& o);
template <class T>
int run_wave2d(const run_options& o);

inline int run_problem(const run_options& o) {
  if (o.problem == "poisson2d") return o.precision == "float" ? run_poisson2d<float>(o) : run_poisson2d<double>(o);
  if (o.problem == "wave2d") return o.precision == "float" ? run_wave2d<float>(o) : run_wave2d<double>(o);
  auto by_order = [&](auto t) {
    using T = decltype(t);
    switch (o.order) {
      case 2: return run_heat3d<T, 2>(o);
      case 4: return run_heat3d<T, 4>(o);
      case 6: return run_heat3d<T, 6>(o);
      default: return run_heat3d<T, 8>(o);
    }
  };
  return o.precision == "float" ? by_order(float{}) : by_order(double{});
}

}  // namespace tessera::app
