// Poisson's equation in the unit square by Jacobi iteration: Laplacian(u) = f with
// Dirichlet 0 walls and f chosen so that u = sin(pi x) sin(pi y); the error against
// that exact solution falls ~4x each time the grid spacing halves (2nd order).
#include <cmath>
#include <cstdio>
#include <numbers>
#include <tessera/tessera.hpp>
namespace ts = tessera;

double solve(int n) {
  const double h = 1.0 / (n + 1), pi = std::numbers::pi;
  ts::View<double, 2> f("f", ts::extents{n, n}, 1), u("u", f.layout()), scratch("scratch", f.layout());
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) f(y, x) = -2 * pi * pi * std::sin(pi * (x + 1) * h) * std::sin(pi * (y + 1) * h);
  const auto walls = ts::boundary_conditions<2>::uniform(ts::boundary::dirichlet(0.0));
  const auto r = ts::jacobi_poisson(ts::automatic{}, f, u, scratch, h, walls, 1e-10, 100000);
  double err = 0;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x)
      err = std::fmax(err, std::fabs(u(y, x) - std::sin(pi * (x + 1) * h) * std::sin(pi * (y + 1) * h)));
  std::printf("n = %3d: %6d Jacobi iterations, residual %.2e, max error %.3e\n", n, r.iterations, r.residual, err);
  return err;
}

int main() {
  const double e1 = solve(15), e2 = solve(31);
  const double rate = std::log2(e1 / e2);
  std::printf("observed order %.2f: %s\n", rate, rate > 1.8 ? "poisson2d converges at second order" : "FAILED");
  return rate > 1.8 ? 0 : 1;
}
