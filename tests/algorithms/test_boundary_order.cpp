// High-order stencils next to Dirichlet walls keep their order: the layers beyond the wall
// hold the odd reflection of the interior (core/boundary.hpp), so fd::laplacian<3, Order>
// converges at its order on every interior point, the rows beside the walls included, and
// a high-order heat run is more accurate than a second-order one.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "../support/test_support.hpp"

namespace ts = tessera;

namespace {

constexpr double pi = std::numbers::pi;

/// max over every interior point of |Lap_h u - Lap u| for u = v + sin(pi x) sin(pi y)
/// sin(pi z) on n^3 points at (i + 1) h, h = 1 / (n + 1), the walls at 0 and 1 holding v:
/// the ghosts come from fill_ghosts, never from the exact field.
template <int Order>
double laplacian_error_at_walls(int n, double v) {
  const double h = 1.0 / (n + 1);
  ts::View<double, 3> u("u", ts::extents{n, n, n}, Order / 2), lap("lap", u.layout());
  auto s = [&](ts::index_t i) { return std::sin(pi * (i + 1) * h); };
  for (ts::index_t z = 0; z < n; ++z)
    for (ts::index_t y = 0; y < n; ++y)
      for (ts::index_t x = 0; x < n; ++x) u(z, y, x) = v + s(z) * s(y) * s(x);
  ts::fill_ghosts(u, ts::boundary_conditions<3>::uniform(ts::boundary::dirichlet(v)));
  ts::apply(ts::host::parallel{}, ts::fd::laplacian<3, Order>(h), u, lap);
  double err = 0;
  for (ts::index_t z = 0; z < n; ++z)
    for (ts::index_t y = 0; y < n; ++y)
      for (ts::index_t x = 0; x < n; ++x)
        err = std::fmax(err, std::fabs(lap(z, y, x) + 3 * pi * pi * s(z) * s(y) * s(x)));
  return err;
}

template <int Order>
void check_order_at_walls(int n0) {
  const double e1 = laplacian_error_at_walls<Order>(n0, 0.5);
  const double e2 = laplacian_error_at_walls<Order>(2 * n0 + 1, 0.5);
  const double e3 = laplacian_error_at_walls<Order>(4 * n0 + 3, 0.5);
  INFO("order ", Order, ": max errors ", e1, " / ", e2, " / ", e3);
  CHECK(std::isfinite(e3));
  CHECK(std::log2(e1 / e2) >= Order - 0.25);
  CHECK(std::log2(e2 / e3) >= Order - 0.25);
}

}  // namespace

TEST_CASE("Dirichlet walls: fd::laplacian<3, Order> converges at its order next to the walls") {
  check_order_at_walls<2>(15);  // h = 1/16, 1/32, 1/64
  check_order_at_walls<4>(15);
  check_order_at_walls<6>(7);   // coarser: order 8 at h = 1/64 meets rounding
  check_order_at_walls<8>(7);
}

TEST_CASE("Dirichlet walls: a 4th-order heat run is more accurate than a 2nd-order one") {
  // u_t = Lap u in the unit cube, u = 0 on the walls, u0 = sin sin sin: exactly
  // exp(-3 pi^2 t) u0. A small dt (explicit Euler errs by about (3 pi^2)^2 dt t / 2) leaves
  // the spatial error in front.
  const int n = 31;
  const double h = 1.0 / (n + 1);
  const ts::array<double, 3> hs{h, h, h};
  const double dt = 0.005 * std::min(ts::heat_stability_limit<3, 2>(1.0, hs), ts::heat_stability_limit<3, 4>(1.0, hs));
  const int steps = 600;
  const auto bc = ts::boundary_conditions<3>::uniform(ts::boundary::dirichlet(0));
  auto s = [&](ts::index_t i) { return std::sin(pi * (i + 1) * h); };
  auto run = [&](auto step, int ghost) {
    ts::View<double, 3> u("u", ts::extents{n, n, n}, ghost), scratch("scratch", u.layout());
    for (ts::index_t z = 0; z < n; ++z)
      for (ts::index_t y = 0; y < n; ++y)
        for (ts::index_t x = 0; x < n; ++x) u(z, y, x) = s(z) * s(y) * s(x);
    ts::iterate_options<double, 3, ts::HostSpace> opt;
    opt.boundary = bc;
    const auto r = ts::iterate(ts::host::parallel{}, step, u, scratch, steps, opt);
    const double decay = std::exp(-3 * pi * pi * steps * dt);
    double err = 0;
    for (ts::index_t z = 0; z < n; ++z)
      for (ts::index_t y = 0; y < n; ++y)
        for (ts::index_t x = 0; x < n; ++x) err = std::fmax(err, std::fabs(r(z, y, x) - decay * s(z) * s(y) * s(x)));
    return err;
  };
  const double e2 = run(ts::heat_step<3, 2>(1.0, dt, hs), 1);
  const double e4 = run(ts::heat_step<3, 4>(1.0, dt, hs), 2);
  INFO("max error after ", steps, " steps: order 2 ", e2, ", order 4 ", e4);
  CHECK(std::isfinite(e4));
  CHECK(e4 < e2 / 20);
}
