// compare(): error measures, the worst point and non-finite detection.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "../support/test_support.hpp"

namespace ts = tessera;
using namespace ts::test;

TEST_CASE("compare: identical views agree exactly") {
  ts::View<float, 2> a("a", ts::extents{7, 9}, 1), b("b", a.layout());
  fill_random(a, 1);
  fill_random(b, 1);
  const auto c = ts::compare(a, b);
  CHECK(c.points == 63);
  CHECK(c.max_abs_error == 0);
  CHECK(c.rel_l2_error == 0);
  CHECK(c.nonfinite == 0);
  CHECK(c.passed(0.0));
}

TEST_CASE("compare: max, relative and L2 errors and the worst index") {
  ts::View<double, 3> a("a", ts::extents{3, 4, 5}, 0), b("b", a.layout());
  for_each_point<3>(a.extents(), 0, [&](auto... i) { a(i...) = b(i...) = 2.0; });
  a(1, 2, 3) = 2.5;  // worst
  a(0, 0, 0) = 2.1;
  const auto c = ts::compare(a, b);
  CHECK(c.max_abs_error == doctest::Approx(0.5));
  CHECK(c.max_rel_error == doctest::Approx(0.25));
  const double l2 = std::sqrt(0.25 + 0.01) / std::sqrt(60 * 4.0);
  CHECK(c.rel_l2_error == doctest::Approx(l2));
  CHECK(c.worst_index_string() == "(1, 2, 3)");
  CHECK_FALSE(c.passed(0.2));
  CHECK(c.passed(0.3));
}

TEST_CASE("compare: ghost cells are ignored") {
  ts::View<float, 1> a("a", ts::extents{5}, 2), b("b", a.layout());
  a(-1) = 100.f;
  b(6) = -100.f;
  CHECK(ts::compare(a, b).max_abs_error == 0);
}

TEST_CASE("compare: NaN and infinity are counted and fail any tolerance") {
  ts::View<float, 2> a("a", ts::extents{4, 4}, 1), b("b", a.layout());
  a(2, 1) = std::numeric_limits<float>::quiet_NaN();
  b(3, 3) = std::numeric_limits<float>::infinity();
  const auto c = ts::compare(a, b);
  CHECK(c.nonfinite == 2);
  CHECK(c.worst_index_string() == "(2, 1)");
  CHECK_FALSE(c.passed(1e30));
}

TEST_CASE("compare: mismatched extents are rejected with both labels") {
  ts::View<float, 2> a("left", ts::extents{4, 4}, 1), b("right", ts::extents{4, 5}, 1);
  try {
    (void)ts::compare(a, b);
    FAIL("no exception");
  } catch (const ts::extent_mismatch_error& e) {
    const std::string m = e.what();
    CHECK(m.find("'left'") != std::string::npos);
    CHECK(m.find("'right'") != std::string::npos);
  }
}
