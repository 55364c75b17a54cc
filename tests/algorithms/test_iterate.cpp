// iterate and boundary fills on the host policies.
#include <doctest/doctest.h>

#include "../support/fused_checks.hpp"
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
  // Dirichlet reflects g - 1 layers beyond the wall: a 1-cell axis takes ghost 2, not 3
  v(0, 0) = 0.25f;
  CHECK_NOTHROW(ts::fill_ghosts(v, ts::boundary_conditions<2>::uniform(ts::boundary::dirichlet(1))));
  CHECK(v(-1, 0) == 1.f);
  CHECK(v(-2, 0) == 1.75f);  // 2 * 1 - u(0, 0)
  ts::View<float, 2> w3("thin3", ts::extents{1, 8}, 3);
  const auto walls = ts::boundary_conditions<2>::uniform(ts::boundary::dirichlet(1));
  CHECK_THROWS_WITH_AS(ts::fill_ghosts(w3, walls), doctest::Contains("'thin3'"), ts::invalid_argument_error);
  CHECK_THROWS_WITH_AS(ts::fill_ghosts(w3, walls), doctest::Contains("reflects the 2 layer(s) beyond the wall"),
                       ts::invalid_argument_error);
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

// host::parallel fuses steps under boundary conditions (tessera/host/detail/fused_steps.hpp):
// the same checks as the CUDA passes (fused_checks.hpp), against host::serial and Kokkos.
namespace {
constexpr boundary_case every_case[] = {boundary_case::none, boundary_case::dirichlet, boundary_case::periodic,
                                        boundary_case::neumann, boundary_case::mixed};
/// host::parallel fusing 4 steps a pass; and on three threads: three slabs along z where
/// the grid is long enough.
struct parallel_fused : ts::host::parallel {
  parallel_fused() { fuse = 4; }
};
struct parallel_three_threads : ts::host::parallel {
  parallel_three_threads() { num_threads = 3, fuse = 4; }
};
/// host::parallel fusing 4 steps whose output rows leave by streaming stores (forced here;
/// by default only outputs of 4 MiB or more stream).
struct parallel_fused_streaming : ts::host::parallel {
  parallel_fused_streaming() { fuse = 4, store = ts::host::stores::streaming; }
};
}  // namespace

TEST_CASE("host fused steps: fused_steps answers the policy's fuse under boundary conditions, 0 elsewhere") {
  const auto st = bounded_stencil<ts::star<3, 1>, double>(1, true);
  const auto bc = std::optional(ts::boundary_conditions<3>::uniform(ts::boundary::neumann()));
  const ts::extents<3> e{20, 20, 20};
  CHECK(fused_steps(parallel_fused{}, st, e, bc) == 4);
  CHECK(fused_steps(ts::host::parallel{}, st, e, bc) == 0);  // off by default: a sweep a step
  CHECK(fused_steps(parallel_fused{}, st, e, std::optional<ts::boundary_conditions<3>>{}) == 0);
  CHECK(fused_steps(parallel_fused{}, bounded_stencil<ts::star<3, 1>, double>(1, false), e, bc) == 0);
  const auto b1 = std::optional(ts::boundary_conditions<1>::uniform(ts::boundary::dirichlet(0)));
  CHECK(fused_steps(parallel_fused{}, bounded_stencil<ts::star<1, 1>, double>(1, true), ts::extents<1>{50}, b1) == 0);
  static_assert(ts::fuses_steps<ts::host::parallel, ts::star<3, 1>, double, 3, ts::HostSpace>);
  static_assert(!ts::fuses_steps<ts::host::serial, ts::star<3, 1>, double, 3, ts::HostSpace>);
  // a stencil that reads past a Dirichlet wall: 0 from fused_steps, and a pass of several
  // steps refused by name before anything is written
  const auto wide = bounded_stencil<ts::star<3, 2>, double>(2, true);
  const auto walls = std::optional(ts::boundary_conditions<3>::uniform(ts::boundary::neumann())
                                       .set(0, ts::boundary::neumann(), ts::boundary::dirichlet(2)));
  CHECK(fused_steps(parallel_fused{}, wide, e, walls) == 0);
  CHECK(fused_steps(parallel_fused{}, wide, e, bc) == 4);
  ts::View<double, 3> a("field_a", e, 2), b("field_b", e, 2);
  fill_random(a, 3);
  fill_random(b, 4);
  const auto before = snapshot(b);
  const auto msg = message_of<ts::unsupported_error>([&] { sweep_steps(parallel_fused{}, wide, a, b, 2, walls); });
  CHECK(msg.find("'field_a'") != std::string::npos);
  CHECK(msg.find("Dirichlet") != std::string::npos);
  CHECK(msg.find("one step per pass") != std::string::npos);
  bool unchanged = true;
  for_each_point<3>(e, 2, [&](ts::index_t z, ts::index_t y, ts::index_t x) { unchanged = unchanged && b(z, y, x) == before(z, y, x); });
  CHECK(unchanged);
}

TEST_CASE("host fused steps: 3D 7-point, every boundary kind, float and double, one and several slabs") {
  using P = parallel_fused;
  for (const auto c : every_case) {
    check_fused_iterate<P, ts::HostSpace, ts::star<3, 1>, float>(ts::extents<3>{37, 29, 53}, 10, c, 1);
    check_fused_iterate<P, ts::HostSpace, ts::star<3, 1>, double>(ts::extents<3>{37, 29, 53}, 10, c, 2);
    check_fused_iterate<parallel_three_threads, ts::HostSpace, ts::star<3, 1>, double>(ts::extents<3>{150, 9, 11},
                                                                                       9, c, 3);
    // rows long enough that a block's strip is 8 rows: 5 strips, the last one short
    check_fused_iterate<P, ts::HostSpace, ts::star<3, 1>, double>(ts::extents<3>{12, 37, 700}, 9, c, 4);
  }
  check_fused_iterate<P, ts::HostSpace, ts::box<3, 1>, float>(ts::extents<3>{10, 29, 1500}, 7,
                                                              boundary_case::mixed, 5);
  CHECK(ts::host::detail::strip_rows<ts::star<3, 1>, double>(700, 4) == 8);
}

TEST_CASE("host fused steps: output rows by streaming stores, partial cache lines at both ends") {
  using P = parallel_fused_streaming;
  // the path under test is taken: the policy streams these outputs
  CHECK(ts::host::streams_output(P{}, ts::View<float, 3>("probe", ts::extents<3>{2, 2, 2}, 1)));
  // rows of 70, 37 and 101 points with 1 or 2 ghost layers (the seed's parity): their first
  // and last cache lines are partial; 5 points: no whole line at all
  for (const auto c : every_case) {
    check_fused_iterate<P, ts::HostSpace, ts::star<3, 1>, float>(ts::extents<3>{11, 13, 70}, 9, c, 51);
    check_fused_iterate<P, ts::HostSpace, ts::star<3, 1>, double>(ts::extents<3>{11, 13, 37}, 9, c, 52);
    check_fused_iterate<P, ts::HostSpace, ts::star<2, 1>, float>(ts::extents<2>{40, 101}, 13, c, 53);
    check_fused_iterate<P, ts::HostSpace, ts::box<3, 1>, float>(ts::extents<3>{9, 10, 5}, 6, c, 54);
  }
}

TEST_CASE("host fused steps: level 0 read from the input under Dirichlet rows, copied near other faces") {
  // Dirichlet along x: level 1 reads the input's rows in place, except within reach of a
  // periodic (y) or Neumann (z) face, where it reads level 0's copies in the ring; one
  // ghost layer more than the radius with odd seeds; several strips (700-point rows)
  using P = parallel_fused;
  for (std::uint64_t seed = 61; seed <= 62; ++seed) {
    const auto c = boundary_case::dirichlet_rows;
    check_fused_iterate<P, ts::HostSpace, ts::star<3, 1>, float>(ts::extents<3>{19, 23, 41}, 9, c, seed);
    check_fused_iterate<P, ts::HostSpace, ts::star<3, 1>, double>(ts::extents<3>{12, 37, 700}, 9, c, seed);
    check_fused_iterate<P, ts::HostSpace, ts::star<3, 2>, float>(ts::extents<3>{23, 19, 41}, 5, c, seed);
    check_fused_iterate<P, ts::HostSpace, ts::box<3, 1>, double>(ts::extents<3>{17, 21, 33}, 7, c, seed);
    check_fused_iterate<P, ts::HostSpace, ts::star<2, 1>, float>(ts::extents<2>{67, 300}, 19, c, seed);
    check_fused_iterate<parallel_fused_streaming, ts::HostSpace, ts::star<3, 1>, float>(ts::extents<3>{11, 13, 70}, 9,
                                                                                      c, seed);
  }
}

TEST_CASE("host fused steps: tiny grids, radius 2, boxes, 2D, callbacks, unmirrored Neumann") {
  using P = parallel_fused;
  for (const auto c : every_case) {
    check_fused_iterate<P, ts::HostSpace, ts::star<3, 1>, double>(ts::extents<3>{3, 2, 5}, 9, c, 11);
    check_fused_iterate<P, ts::HostSpace, ts::star<2, 1>, float>(ts::extents<2>{2, 7}, 17, c, 12);
    check_fused_iterate<P, ts::HostSpace, ts::star<3, 2>, float>(ts::extents<3>{23, 19, 41}, 5, c, 21);
    check_fused_iterate<P, ts::HostSpace, ts::box<3, 1>, double>(ts::extents<3>{17, 21, 33}, 7, c, 22);
    check_fused_iterate<P, ts::HostSpace, ts::star<2, 1>, double>(ts::extents<2>{67, 300}, 19, c, 31);
    check_fused_iterate<P, ts::HostSpace, ts::box<2, 2>, float>(ts::extents<2>{41, 37}, 11, c, 32);
  }
  check_fused_iterate<P, ts::HostSpace, ts::star<3, 1>, double>(ts::extents<3>{21, 18, 35}, 10, boundary_case::mixed,
                                                                43, true, 4);
  check_fused_iterate<P, ts::HostSpace, ts::star<3, 1>, double>(ts::extents<3>{21, 18, 35}, 6, boundary_case::neumann,
                                                                45, false);
}
