// Poisson's equation in the unit cube by multigrid: Laplacian(u) = f with walls held at 0
// and f chosen so that u = sin(pi x) sin(pi y) sin(pi z). A few V-cycles reach the
// discrete solution, whose error against u falls ~4x each time h halves (2nd order).
// The block from the first #include of tessera's multigrid to solve_poisson's end is the
// README's ("Elliptic solves"), checked verbatim by ctest.
#include <cmath>
#include <cstdio>
#include <numbers>
#include <tessera/algorithms/multigrid.hpp>  // multigrid_solve (tessera/algorithms/cg.hpp: cg_solve)
#include <tessera/tessera.hpp>                // and the backends a solve runs on
namespace ts = tessera;

// Laplacian(u) = f in the unit cube, Dirichlet walls with their values in bc; u is the
// initial guess and the answer (ghost width >= 1). Any policy, any memory space.
template <class Policy, class Space>
ts::multigrid_result solve_poisson(Policy policy, const ts::View<double, 3, Space>& f, const ts::View<double, 3, Space>& u,
                                   const ts::boundary_conditions<3>& bc, double h) {
  const auto op = ts::poisson_operator<Space>(ts::fd::laplacian<3, 2>(h));  // or helmholtz_operator(a, b, L),
                                                                            // div_k_grad_operator(a, b, k, h)
  ts::multigrid_options opt;  // V(2,2) cycles, red-black Gauss-Seidel, tol 1e-10
  const auto r = ts::multigrid_solve(policy, op, f, u, bc, opt);
  std::printf("%d cycles, %.3f per cycle, %s\n", r.cycles, r.convergence_factor, r.stop_reason.c_str());
  return r;
}

double solve(int n) {
  const double h = 1.0 / (n + 1), pi = std::numbers::pi;
  auto mode = [&](int i) { return std::sin(pi * (i + 1) * h); };
  ts::View<double, 3> f("f", ts::extents{n, n, n}, 1), u("u", f.layout());
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) f(z, y, x) = -3 * pi * pi * mode(z) * mode(y) * mode(x);
  const auto walls = ts::boundary_conditions<3>::uniform(ts::boundary::dirichlet(0.0));
  const auto r = solve_poisson(ts::host::parallel{}, f, u, walls, h);
  double err = 0;
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) err = std::fmax(err, std::fabs(u(z, y, x) - mode(z) * mode(y) * mode(x)));
  std::printf("n = %3d: %d levels, max error %.3e\n", n, r.levels, err);
  return r.converged && r.cycles <= 12 ? err : NAN;
}

int main() {
  const double e1 = solve(15), e2 = solve(31);
  const double rate = std::log2(e1 / e2);
  std::printf("observed order %.2f: %s\n", rate, rate > 1.8 ? "multigrid solves poisson3d at second order" : "FAILED");
  return rate > 1.8 ? 0 : 1;
}
