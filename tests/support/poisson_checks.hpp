#pragma once
// Test bodies for the source term and Jacobi, run per policy on host and CUDA views.
#include <cmath>
#include <numbers>

#include <doctest/doctest.h>

#include "iterate_checks.hpp"

namespace tessera::test {

/// out = stencil(in) + alpha * f against host::serial followed by a plain loop.
template <class Policy, class Space, class T>
void check_source_term() {
  const extents<3> e{13, 11, 17};
  View<T, 3, HostSpace> in_h("in", e, 2), f_h("f", e, 1), ref("ref", e, 2);
  fill_random(in_h, 1);
  fill_random(f_h, 2);
  const auto st = random_stencil<star<3, 2>, T>(3);
  const T alpha = T(-0.375);
  apply(host::serial{}, st, in_h, ref);
  for_each_point<3>(e, 0, [&](auto z, auto y, auto x) { ref(z, y, x) += alpha * f_h(z, y, x); });
  auto in = on_space<T, 3, Space>(in_h, "in_s");
  auto f = on_space<T, 3, Space>(f_h, "f_s");
  View<T, 3, Space> out("out", in_h.layout());
  apply_with_source(Policy{}, st, in, alpha, f, out);
  const auto c = compare(create_mirror_copy(out), ref);
  CHECK(c.nonfinite == 0);
  CHECK(c.max_abs_error <= agreement_tolerance<T>() * (sweep_scale(st, in_h) + std::fabs(alpha)));
  CHECK_THROWS_AS(apply_with_source(Policy{}, st, in, alpha, out, out), aliasing_error);
}

/// Jacobi on the manufactured solution u = sin(pi x) sin(pi y), f = -2 pi^2 u, Dirichlet
/// 0: the discretisation error max|u - exact| falls ~4x when h halves.
template <class Policy, class Space>
double jacobi_error(int n) {
  const double h = 1.0 / (n + 1);
  View<double, 2, HostSpace> f_h("f", extents<2>{n, n}, 1);
  auto exact = [&](index_t y, index_t x) {
    return std::sin(std::numbers::pi * (x + 1) * h) * std::sin(std::numbers::pi * (y + 1) * h);
  };
  for_each_point<2>(f_h.extents(), 0, [&](auto y, auto x) { f_h(y, x) = -2 * std::numbers::pi * std::numbers::pi * exact(y, x); });
  auto f = on_space<double, 2, Space>(f_h, "f_s");
  View<double, 2, Space> u("u", f_h.layout()), scratch("scratch", f_h.layout());
  const auto bc = boundary_conditions<2>::uniform(boundary::dirichlet(0));
  const auto r = jacobi_poisson(Policy{}, f, u, scratch, h, bc, 1e-10, 20000, 100);
  INFO(Policy::name(), " n = ", n, ": ", r.iterations, " iterations, residual ", r.residual);
  CHECK(r.converged);
  const auto uh = create_mirror_copy(u);
  double err = 0;
  for_each_point<2>(f_h.extents(), 0, [&](auto y, auto x) { err = std::fmax(err, std::fabs(uh(y, x) - exact(y, x))); });
  return err;
}

template <class Policy, class Space>
void check_jacobi_order() {
  const double e1 = jacobi_error<Policy, Space>(15), e2 = jacobi_error<Policy, Space>(31);
  INFO("errors ", e1, " -> ", e2);
  CHECK(e1 < 5e-3);
  CHECK(std::log2(e1 / e2) > 1.8);  // second order
}

}  // namespace tessera::test

namespace tessera::test {

/// Leapfrog on the standing mode sin(pi x) sin(pi y) with Dirichlet 0: started from the
/// exact discrete levels u^0 = m, u^1 = cos(theta) m, it stays u^n = cos(n theta) m with
/// cos(theta) = 1 + (c dt)^2 lambda / 2, lambda the discrete Laplacian's eigenvalue.
template <class Policy, class Space>
void check_wave_mode() {
  const int n = 31;
  const double h = 1.0 / (n + 1), c = 1.0, dt = 0.5 * h;
  const double lambda = -2 * 4 / (h * h) * std::pow(std::sin(std::numbers::pi * h / 2), 2);
  const double theta = std::acos(1 + c * c * dt * dt * lambda / 2);
  View<double, 2, HostSpace> m("m", extents<2>{n, n}, 1), u1("u1", extents<2>{n, n}, 1);
  for_each_point<2>(m.extents(), 0, [&](auto y, auto x) {
    m(y, x) = std::sin(std::numbers::pi * (x + 1) * h) * std::sin(std::numbers::pi * (y + 1) * h);
    u1(y, x) = std::cos(theta) * m(y, x);
  });
  auto prev = on_space<double, 2, Space>(m, "u0");
  auto cur = on_space<double, 2, Space>(u1, "u1");
  View<double, 2, Space> next("u2", m.layout());
  const int steps = 60;
  const auto st = wave_step<2>(c, dt, array<double, 2>{h, h});
  const auto r = leapfrog(Policy{}, st, prev, cur, next, steps, boundary_conditions<2>::uniform(boundary::dirichlet(0)));
  const auto rh = create_mirror_copy(r);
  double err = 0;
  for_each_point<2>(m.extents(), 0, [&](auto y, auto x) {
    err = std::fmax(err, std::fabs(rh(y, x) - std::cos((steps + 1) * theta) * m(y, x)));
  });
  INFO(Policy::name(), ": max error ", err, " after ", steps, " steps (cos(n theta) = ", std::cos((steps + 1) * theta), ")");
  CHECK(err < 1e-12);
  CHECK_THROWS_WITH_AS((wave_step<2>(c, 0.8 * h, array<double, 2>{h, h})), doctest::Contains("stability limit"),
                       invalid_argument_error);
}

}  // namespace tessera::test
