// core: finite-difference coefficients (Fornberg) and their order of accuracy.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "../support/test_support.hpp"

namespace ts = tessera;

TEST_CASE("central weights match the textbook tables") {
  const auto d2o2 = ts::fd::central_weights(2, 2);
  CHECK(d2o2[0] == doctest::Approx(1.0));
  CHECK(d2o2[1] == doctest::Approx(-2.0));
  CHECK(d2o2[2] == doctest::Approx(1.0));
  const auto d2o4 = ts::fd::central_weights(2, 4);  // -1/12 4/3 -5/2 4/3 -1/12
  CHECK(d2o4[0] == doctest::Approx(-1.0 / 12));
  CHECK(d2o4[1] == doctest::Approx(4.0 / 3));
  CHECK(d2o4[2] == doctest::Approx(-2.5));
  const auto d1o2 = ts::fd::central_weights(1, 2);  // -1/2 0 1/2
  CHECK(d1o2[0] == doctest::Approx(-0.5));
  CHECK(std::fabs(d1o2[1]) < 1e-15);
  const auto d1o8 = ts::fd::central_weights(1, 8);  // 1/280 -4/105 1/5 -4/5 0 ...
  CHECK(d1o8[0] == doctest::Approx(1.0 / 280));
  CHECK(d1o8[3] == doctest::Approx(-4.0 / 5));
  for (int order : {2, 4, 6, 8}) {
    double sum = 0;
    for (double w : ts::fd::central_weights(2, order)) sum += w;
    CHECK(std::fabs(sum) < 1e-12);  // constants have zero second derivative
  }
}

TEST_CASE("builders place weights on the star's points, scaled by h") {
  const double h = 0.25;
  const auto d2 = ts::fd::second_derivative<3, 2>(1, h);  // along y
  CHECK(d2[0] == doctest::Approx(-2 / (h * h)));
  CHECK(d2[3] == doctest::Approx(1 / (h * h)));  // (0, -1, 0)
  CHECK(d2[4] == doctest::Approx(1 / (h * h)));  // (0, +1, 0)
  CHECK(d2[1] == 0.0);                           // nothing along z
  const auto lap = ts::fd::laplacian<3, 2>(1.0);
  CHECK(lap[0] == doctest::Approx(-6.0));
  for (int k = 1; k < 7; ++k) CHECK(lap[k] == doctest::Approx(1.0));
  CHECK_THROWS_WITH_AS((ts::fd::second_derivative<2, 4>(2, 1.0)), doctest::Contains("axis 2"),
                       ts::invalid_argument_error);
  CHECK_THROWS_AS((ts::fd::laplacian<2, 2>(0.0)), ts::invalid_argument_error);
  CHECK_THROWS_AS(ts::fd::central_weights(2, 3), ts::invalid_argument_error);
}

namespace {
/// Max error of d²/dx² sin(x) on n points of [0, 2π) against -sin(x), computed by a
/// tessera sweep with ghosts holding the exact values (the 1D example of the notes).
template <int Order>
double second_derivative_error(int n) {
  const double h = 2 * std::numbers::pi / n;
  ts::View<double, 1> u("u", ts::extents{n}, Order / 2), d2u("d2u", u.layout());
  for (ts::index_t i = -Order / 2; i < n + Order / 2; ++i) u(i) = std::sin(i * h);
  ts::apply(ts::host::serial{}, ts::fd::second_derivative<1, Order>(0, h), u, d2u);
  double err = 0;
  for (ts::index_t i = 0; i < n; ++i) err = std::fmax(err, std::fabs(d2u(i) + std::sin(i * h)));
  return err;
}

template <int Order>
void check_convergence() {
  // Error ~ C h^Order: halving h divides it by 2^Order. The sizes keep the error well
  // above double rounding (which grows like eps/h²) for every order.
  const int n0 = Order >= 8 ? 12 : 16;
  const double e1 = second_derivative_error<Order>(n0);
  const double e2 = second_derivative_error<Order>(2 * n0);
  const double e3 = second_derivative_error<Order>(4 * n0);
  const double p1 = std::log2(e1 / e2), p2 = std::log2(e2 / e3);
  INFO("order ", Order, ": errors ", e1, " ", e2, " ", e3, " observed orders ", p1, " ", p2);
  CHECK(p1 > Order - 0.3);
  CHECK(p2 > Order - 0.3);
  CHECK(p2 < Order + 0.7);
}
}  // namespace

TEST_CASE("second derivative of sin(x) converges at the declared order") {
  check_convergence<2>();
  check_convergence<4>();
  check_convergence<6>();
  check_convergence<8>();
}

TEST_CASE("first derivative and 2D Laplacian converge at the declared order") {
  auto err = [](int n) {
    const double h = 2 * std::numbers::pi / n;
    ts::View<double, 2> u("u", ts::extents{n, n}, 2), out("lap", u.layout());
    ts::test::for_each_point<2>(u.extents(), 2, [&](auto y, auto x) { u(y, x) = std::sin(x * h) * std::cos(y * h); });
    ts::apply(ts::host::parallel{}, ts::fd::laplacian<2, 4>(h), u, out);
    double e = 0;
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) e = std::fmax(e, std::fabs(out(y, x) + 2 * u(y, x)));
    return e;
  };
  CHECK(std::log2(err(16) / err(32)) > 3.7);

  auto err1 = [](int n) {
    const double h = 2 * std::numbers::pi / n;
    ts::View<double, 1> u("u", ts::extents{n}, 3), du("du", u.layout());
    for (ts::index_t i = -3; i < n + 3; ++i) u(i) = std::sin(i * h);
    ts::apply(ts::host::serial{}, ts::fd::first_derivative<1, 6>(0, h), u, du);
    double e = 0;
    for (ts::index_t i = 0; i < n; ++i) e = std::fmax(e, std::fabs(du(i) - std::cos(i * h)));
    return e;
  };
  CHECK(std::log2(err1(16) / err1(32)) > 5.7);
}
