// Sweep semantics every host-reachable policy must keep: every interior point written,
// no ghost cell written, and each bad input rejected with its named exception.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "../support/test_support.hpp"

namespace ts = tessera;
using namespace ts::test;

#define TESSERA_HOST_POLICIES ts::host::serial, ts::host::parallel, ts::kokkos::mdrange

namespace {
/// Reaches two cells to the left, none to the right.
struct up {
  static constexpr int rank = 1;
  static constexpr ts::offsets<1, 2> points{{{-2}, {0}}};
};
}  // namespace

TEST_CASE_TEMPLATE("sweep writes every interior point and no ghost cell", P, TESSERA_HOST_POLICIES) {
  // ghost width 3 > radius 1: ghost cells beyond the shape's reach must survive too.
  ts::View<double, 3> in("in", ts::extents{7, 5, 11}, 3), out("out", in.layout());
  fill_random(in, 5);
  poison(out);
  const auto st = random_stencil<ts::star<3, 1>, double>(6);
  ts::apply(P{}, st, in, out);
  ts::index_t nan_points = 0;
  for_each_point<3>(out.extents(), 0, [&](auto... i) { nan_points += std::isnan(out(i...)); });
  CHECK(nan_points == 0);
  CHECK(ghosts_changed(out) == 0);
  // the input is read-only to a sweep
  ts::View<double, 3> in_copy("in_copy", in.layout());
  fill_random(in_copy, 5);
  CHECK(ts::compare(in, in_copy).max_abs_error == 0);
}

TEST_CASE_TEMPLATE("aliasing input and output is rejected", P, TESSERA_HOST_POLICIES) {
  ts::View<float, 2> u("u", ts::extents{6, 9}, 1);
  const auto st = random_stencil<ts::star<2, 1>, float>(1);
  const auto msg = message_of<ts::aliasing_error>([&] { ts::apply(P{}, st, u, u); });
  CHECK(msg.find("'u'") != std::string::npos);
  CHECK(msg.find("6x9") != std::string::npos);
  CHECK(msg.find("share memory") != std::string::npos);
  // a copy of the handle is the same memory
  ts::View<float, 2> alias = u;
  CHECK_THROWS_AS(ts::apply(P{}, st, u, alias), ts::aliasing_error);
  CHECK_THROWS_AS(ts::apply(P{}, st, u, alias), ts::error);  // one hierarchy
}

TEST_CASE_TEMPLATE("mismatched extents are rejected", P, TESSERA_HOST_POLICIES) {
  ts::View<double, 3> in("field", ts::extents{4, 5, 6}, 1), out("result", ts::extents{4, 6, 5}, 1);
  const auto st = random_stencil<ts::star<3, 1>, double>(1);
  const auto msg = message_of<ts::extent_mismatch_error>([&] { ts::apply(P{}, st, in, out); });
  CHECK(msg.find("'field'") != std::string::npos);
  CHECK(msg.find("'result'") != std::string::npos);
  CHECK(msg.find("4x5x6") != std::string::npos);
  CHECK(msg.find("4x6x5") != std::string::npos);
  CHECK(msg.find(P::name()) != std::string::npos);
}

TEST_CASE_TEMPLATE("a ghost width narrower than the shape's reach is rejected", P, TESSERA_HOST_POLICIES) {
  ts::View<float, 2> in("thin", ts::extents{8, 8}, 1), out("out", ts::extents{8, 8}, 2);
  const auto st = random_stencil<ts::star<2, 2>, float>(1);
  const auto msg = message_of<ts::ghost_width_error>([&] { ts::apply(P{}, st, in, out); });
  CHECK(msg.find("'thin'") != std::string::npos);
  CHECK(msg.find("ghost >= 2") != std::string::npos);
  // an asymmetric shape needs only its own reach: upwind [-2, 0] is served by ghost 2
  ts::View<float, 1> in1("in1", ts::extents{10}, 2), out1("out1", ts::extents{10}, 0);
  fill_random(in1, 3);
  CHECK_NOTHROW(ts::apply(P{}, ts::stencil(up{}, {1.f, -1.f}), in1, out1));
  CHECK(out1(9) == doctest::Approx(in1(7) - in1(9)));
  ts::View<float, 1> narrow("narrow", ts::extents{10}, 1);
  CHECK_THROWS_AS(ts::apply(P{}, ts::stencil(up{}, {1.f, -1.f}), narrow, out1), ts::ghost_width_error);
}

TEST_CASE_TEMPLATE("unallocated views are rejected", P, TESSERA_HOST_POLICIES) {
  ts::View<float, 1> in("in", ts::extents{4}, 1), none;
  const auto st = random_stencil<ts::star<1, 1>, float>(1);
  CHECK_THROWS_AS(ts::apply(P{}, st, in, none), ts::invalid_argument_error);
}

TEST_CASE_TEMPLATE("empty grids are a no-op and 1-point grids are exact", P, TESSERA_HOST_POLICIES) {
  const auto st = random_stencil<ts::star<3, 2>, double>(8);
  ts::View<double, 3> in0("in0", ts::extents{0, 5, 5}, 2), out0("out0", in0.layout());
  poison(out0);
  CHECK_NOTHROW(ts::apply(P{}, st, in0, out0));
  CHECK(ghosts_changed(out0) == 0);

  ts::View<double, 3> in1("in1", ts::extents{1, 1, 1}, 2), out1("out1", in1.layout());
  fill_random(in1, 9);
  poison(out1);
  ts::apply(P{}, st, in1, out1);
  double expect = 0;
  for (int k = 0; k < st.size; ++k) {
    const auto& o = ts::star<3, 2>::points[k];
    expect += st[k] * in1(o[0], o[1], o[2]);
  }
  CHECK(out1(0, 0, 0) == doctest::Approx(expect).epsilon(1e-14));
  CHECK(ghosts_changed(out1) == 0);
}

TEST_CASE_TEMPLATE("in and out may have different ghost widths and row padding", P, TESSERA_HOST_POLICIES) {
  ts::View<float, 2> in("in", ts::layout<2>(ts::extents{13, 17}, 2, 32));
  ts::View<float, 2> out("out", ts::layout<2>(ts::extents{13, 17}, 0));
  ts::View<float, 2> out_ref("out_ref", ts::layout<2>(ts::extents{13, 17}, 0));
  fill_random(in, 4);
  const auto st = random_stencil<ts::box<2, 2>, float>(4);
  ts::apply(P{}, st, in, out);
  ts::apply(ts::host::serial{}, st, in, out_ref);
  CHECK(ts::compare(out, out_ref).max_rel_error <= 1e-6);
}

TEST_CASE("a deliberately wrong coefficient is caught by validate") {
  // The cross-validation tests could not fail if the policies shared a bug with the
  // reference; here one coefficient differs between the two sweeps and must show.
  ts::View<double, 3> in("in", awkward_extents<3>(), 1), a("a", in.layout()), b("b", in.layout());
  fill_random(in, 12);
  auto st = random_stencil<ts::star<3, 1>, double>(13);
  ts::apply(ts::host::parallel{}, st, in, a);
  auto wrong = st;
  wrong[4] += 1e-6;
  ts::apply(ts::kokkos::mdrange{}, wrong, in, b);
  const auto c = ts::compare(a, b);
  CHECK_FALSE(c.passed(agreement_tolerance<double>()));
  CHECK(c.max_rel_error > 1e-8);

  const auto report = ts::validate(ts::host::parallel{}, st, in);
  CHECK(report.passed);
  CHECK(report.reference.find("kokkos:mdrange") != std::string::npos);
}

TEST_CASE("validate fails on NaN or infinite coefficients or input, saying which") {
  ts::View<double, 2> in("in", ts::extents{9, 11}, 1);
  fill_random(in, 21);
  auto st = random_stencil<ts::star<2, 1>, double>(22);
  REQUIRE(ts::validate(ts::host::serial{}, st, in).passed);

  auto bad = st;
  bad[3] = std::numeric_limits<double>::quiet_NaN();
  auto r = ts::validate(ts::host::serial{}, bad, in);
  CHECK_FALSE(r.passed);
  CHECK(r.message.find("coefficient 3 of the stencil is nan") != std::string::npos);
  bad[3] = std::numeric_limits<double>::infinity();
  CHECK(ts::validate(ts::host::serial{}, bad, in).message.find("coefficient 3 of the stencil is inf") != std::string::npos);

  // an infinite ghost value the star never reads would make the scale infinite and every
  // error look like zero: refused, not passed
  in(-1, -1) = std::numeric_limits<double>::infinity();
  r = ts::validate(ts::host::serial{}, st, in);
  CHECK_FALSE(r.passed);
  CHECK(r.message.find("holds NaN or infinite values") != std::string::npos);
  CHECK(r.message.find("'in'") != std::string::npos);
  in(-1, -1) = 0;
  in(4, 5) = std::numeric_limits<double>::quiet_NaN();
  r = ts::validate(ts::host::parallel{}, st, in);
  CHECK_FALSE(r.passed);
  CHECK(r.message.find("holds NaN or infinite values") != std::string::npos);
  CHECK(std::isinf(ts::max_abs_including_ghosts(in)));
  CHECK_THROWS_WITH_AS(ts::validate(ts::host::serial{}, st, in, -1.0), doctest::Contains("tolerance -1"),
                       ts::invalid_argument_error);
}
