// Diffusion of a hot spot in the unit cube: explicit Euler steps with Dirichlet walls
// through tessera::iterate, on the GPU when one is present; checks that heat only
// leaves (the maximum decays) and that the result matches the Kokkos reference.
#include <cmath>
#include <cstdio>
#include <tessera/algorithms/heat.hpp>
#include <tessera/tessera.hpp>
namespace ts = tessera;

template <class Space>
double run(const ts::View<double, 3>& u0, const ts::stencil<ts::star<3, 1>, double>& step, int steps,
           ts::View<double, 3>& out) {
  ts::View<double, 3, Space> u("u", u0.layout()), scratch("scratch", u0.layout());
  ts::deep_copy(u, u0);
  ts::iterate_options<double, 3, Space> opt;
  opt.boundary = ts::boundary_conditions<3>::uniform(ts::boundary::dirichlet(0.0));
  ts::deep_copy(out, ts::iterate(ts::automatic{}, step, u, scratch, steps, opt));
  return ts::norm_max(out);
}

int main() {
  const int n = 48, steps = 200;
  const double h = 1.0 / (n + 1);
  ts::View<double, 3> u0("u0", ts::extents{n, n, n}, 1), out("out", u0.layout()), ref("ref", u0.layout());
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const double dx = (x + 1) * h - 0.5, dy = (y + 1) * h - 0.5, dz = (z + 1) * h - 0.5;
        u0(z, y, x) = std::exp(-(dx * dx + dy * dy + dz * dz) / 0.005);
      }
  const ts::array<double, 3> hs{h, h, h};
  const auto step = ts::heat_step<3, 2>(1.0, 0.9 * ts::heat_stability_limit<3, 2>(1.0, hs), hs);
  double peak = 0;
#if TESSERA_ENABLE_CUDA
  if (ts::cuda::device_count() > 0) peak = run<ts::CudaSpace>(u0, step, steps, out);
  else
#endif
    peak = run<ts::HostSpace>(u0, step, steps, out);
  run<ts::HostSpace>(u0, step, steps, ref);  // host::parallel
  ts::View<double, 3> a("a", u0.layout()), b("b", u0.layout());
  ts::deep_copy(a, u0);
  ts::iterate_options<double, 3, ts::HostSpace> opt;
  opt.boundary = ts::boundary_conditions<3>::uniform(ts::boundary::dirichlet(0.0));
  const auto kokkos = ts::iterate(ts::kokkos::mdrange{}, step, a, b, steps, opt);
  const double diff = ts::compare(out, kokkos).max_abs_error;
  std::printf("heat3d: %d^3, %d steps: peak 1 -> %.4f, max |diff| vs Kokkos %.2e\n", n, steps, peak, diff);
  const bool ok = peak < 1 && peak > 0 && diff < 1e-10;
  std::printf("%s\n", ok ? "heat3d: diffusion matches the Kokkos reference" : "heat3d: FAILED");
  return ok ? 0 : 1;
}
