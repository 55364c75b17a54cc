// iterate and boundary fills on the host policies.
#include <doctest/doctest.h>

#include "../support/iterate_checks.hpp"

namespace ts = tessera;
using namespace ts::test;

#define TESSERA_HOST_POLICIES ts::host::serial, ts::host::parallel, ts::kokkos::mdrange

TEST_CASE_TEMPLATE("iterate: 3D heat, Dirichlet faces, decays at the discrete eigenvalue", P, TESSERA_HOST_POLICIES) {
  check_heat_dirichlet<P, ts::HostSpace, double>();
  check_heat_dirichlet<P, ts::HostSpace, float>();
}

TEST_CASE_TEMPLATE("iterate: 1D heat, periodic and Neumann faces, exact eigenmode decay", P, TESSERA_HOST_POLICIES) {
  check_heat_periodic_neumann<P, ts::HostSpace, double>();
  check_heat_periodic_neumann<P, ts::HostSpace, float>();
}

TEST_CASE("fill_ghosts: Dirichlet, Neumann and periodic values cell by cell, corners included") {
  check_fill_rules<ts::HostSpace>();
}

TEST_CASE_TEMPLATE("iterate: Dirichlet ghosts are filled once, and again after the callback wrote them", P,
                   TESSERA_HOST_POLICIES) {
  check_dirichlet_refill_after_callback<P, ts::HostSpace, double>();
  check_dirichlet_refill_after_callback<P, ts::HostSpace, float>();
}

TEST_CASE("fill_ghosts: bad boundary conditions are rejected with the view and the fix") {
  ts::View<float, 2> v("thin", ts::extents{1, 8}, 2);
  ts::boundary_conditions<2> bc = ts::boundary_conditions<2>::uniform(ts::boundary::periodic());
  CHECK_THROWS_WITH_AS(ts::fill_ghosts(v, bc), doctest::Contains("'thin'"), ts::invalid_argument_error);
  CHECK_THROWS_WITH_AS(ts::fill_ghosts(v, bc), doctest::Contains("ghost width <= the extent"),
                       ts::invalid_argument_error);
  ts::boundary_conditions<2> half;
  half.set(1, ts::boundary::periodic(), ts::boundary::neumann());
  ts::View<float, 2> w("w", ts::extents{8, 8}, 1);
  CHECK_THROWS_WITH_AS(ts::fill_ghosts(w, half), doctest::Contains("periodic on one face only"),
                       ts::invalid_argument_error);
  // Dirichlet needs no interior to copy from: a 1-cell axis with ghost 2 is fine
  CHECK_NOTHROW(ts::fill_ghosts(v, ts::boundary_conditions<2>::uniform(ts::boundary::dirichlet(1))));
  CHECK(v(-2, -2) == 1.f);
}

TEST_CASE("iterate: zero steps returns u untouched, negative steps and aliasing are rejected") {
  ts::View<double, 2> u("u", ts::extents{6, 6}, 1), s("s", u.layout());
  fill_random(u, 4);
  const auto st = random_stencil<ts::star<2, 1>, double>(5);
  const auto r = ts::iterate(ts::host::serial{}, st, u, s, 0);
  CHECK(r.data() == u.data());
  CHECK_THROWS_WITH_AS(ts::iterate(ts::host::serial{}, st, u, s, -1), doctest::Contains("negative"),
                       ts::invalid_argument_error);
  CHECK_THROWS_AS(ts::iterate(ts::host::serial{}, st, u, u, 3), ts::aliasing_error);
  const auto two = ts::iterate(ts::host::parallel{}, st, u, s, 2);
  CHECK(two.data() == u.data());
}
